// Cross-field rules on server entries, one concern at a time; crossCheck puts them together.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claudeProblems, crossCheck, keyNameProblems, nameProblems, namespaceProblems, prefixProblems, separatorOf, transportShapeProblems } from '../../../src/config/cross-check.js';
import { formatPath, type Found } from '../../../src/config/problems.js';
import { serverEntries, type ServerEntry } from '../../../src/config/server-entries.js';

/** `servers[0].url: message` lines. */
const lines = (found: Found[]) => found.map((f) => `${formatPath(f.path)}: ${f.message}`);
const one = (raw: Record<string, unknown>, claude = false): ServerEntry => serverEntries(claude ? { mcpServers: { s: raw } } : { servers: [{ name: 's', ...raw }] })[0]!;

describe('transportShapeProblems', () => {
  it('wants exactly one of command and url', () => {
    expect(lines(transportShapeProblems(one({ command: 'x', url: 'http://h/' })))).toEqual(['servers[0]: has both command and url: a server is either stdio (command) or HTTP (url)']);
    expect(lines(transportShapeProblems(one({})))).toEqual(['servers[0]: needs either command (a stdio server) or url (an HTTP server)']);
    expect(transportShapeProblems(one({ command: 'x' }))).toEqual([]);
    expect(transportShapeProblems(one({ url: 'http://h/' }, true))).toEqual([]);
  });

  it('leaves a misspelt command or url to the unknown-key message', () => {
    expect(transportShapeProblems(one({ comand: 'x' }))).toEqual([]);
    expect(transportShapeProblems(one({ ulr: 'http://h/' }, true))).toEqual([]);
  });

  const stdioOnly = ['args', 'env', 'cwd', 'inheritEnv'];
  const httpOnly = ['transport', 'headers'];
  it('reports exactly the keys of the other kind, at each key', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.subarray([...stdioOnly, ...httpOnly]), fc.boolean(), (stdio, keys, claude) => {
        const raw = { ...(stdio ? { command: 'x' } : { url: 'http://h/' }), ...Object.fromEntries(keys.map((k) => [k, 'v'])) };
        const foreign = keys.filter((k) => (stdio ? httpOnly : stdioOnly).includes(k));
        const found = transportShapeProblems(one(raw, claude));
        expect(found.map((f) => f.path.at(-1))).toEqual(foreign);
        const message = stdio ? 'only applies to HTTP servers (url)' : 'only applies to stdio servers (command)';
        expect(found.every((f) => f.message === message)).toBe(true);
      }),
    );
  });
});

describe('claudeProblems', () => {
  it.each([
    [{ type: 'stdio', url: 'http://h/' }, ['mcpServers.s.type: is stdio, but the server has a url']],
    [{ type: 'sse', command: 'x' }, ['mcpServers.s.type: is sse, but the server has a command']],
    [{ type: 'http', command: 'x' }, ['mcpServers.s.type: is http, but the server has a command']],
    [{ type: 'sse', url: 'http://h/', transport: 'streamable-http' }, ['mcpServers.s.transport: contradicts type sse']],
    [{ type: 'http', url: 'http://h/', transport: 'streamable-http' }, []],
    [{ type: 'stdio', command: 'x' }, []],
    [{ type: 'ftp', command: 'x' }, []],
    [{ command: 'x', enabled: true, disabled: true }, ['mcpServers.s.disabled: contradicts enabled']],
    [{ command: 'x', enabled: false, disabled: false }, ['mcpServers.s.disabled: contradicts enabled']],
    [{ command: 'x', enabled: false, disabled: true }, []],
    [{ command: 'x', enabled: 'yes', disabled: true }, []],
  ])('%j', (raw, expected) => {
    expect(lines(claudeProblems(one(raw, true)))).toEqual(expected);
  });
});

describe('keyNameProblems', () => {
  it('reports an mcpServers key that cannot be made into a name, and only that', () => {
    const entries = serverEntries({ servers: [{ name: 'BAD' }], mcpServers: { '': {}, My_Server: {}, ok: {} } });
    expect(lines(entries.flatMap(keyNameProblems))).toEqual(['mcpServers[""]: cannot be turned into a server name: use 1 to 64 lowercase letters, digits and -']);
  });
});

describe('nameProblems', () => {
  it('reports a duplicate name, and marks it taken', () => {
    const entries = serverEntries({ servers: [{ name: 'a' }, { name: 'a' }], mcpServers: { a: {} } });
    const taken = new Set<ServerEntry>();
    expect(lines(nameProblems(entries, taken))).toEqual(['servers[1].name: duplicate name (also used by servers[0])', 'mcpServers.a: duplicate name (also used by servers[0])']);
    expect([...taken]).toEqual([entries[1], entries[2]]);
  });

  it('lets exact names claim first, then reports derived names that collide', () => {
    const entries = serverEntries({ servers: [{ name: 'my-server' }], mcpServers: { My_Server: {}, 'x.y': {}, X_Y: {} } });
    expect(lines(nameProblems(entries))).toEqual([
      'mcpServers.My_Server: would become the name "my-server", which servers[0] already uses; rename it',
      'mcpServers["x.y"]: would become the name "x-y", as would mcpServers.X_Y; rename one',
      'mcpServers.X_Y: would become the name "x-y", as would mcpServers["x.y"]; rename one',
    ]);
  });

  it('finds nothing in unique names', () => {
    expect(nameProblems(serverEntries({ servers: [{ name: 'a' }, { name: 'b' }], mcpServers: { C: {} } }))).toEqual([]);
  });
});

describe('prefixProblems', () => {
  it('wants unique prefixes among enabled servers, "" excepted', () => {
    const entries = serverEntries({
      servers: [
        { name: 'a', prefix: 'p' },
        { name: 'b', prefix: 'p' },
        { name: 'c', prefix: 'p', enabled: false },
        { name: 'd', prefix: '' },
        { name: 'e', prefix: '' },
      ],
      mcpServers: { f: { prefix: 'p', disabled: true } },
    });
    expect(lines(prefixProblems(entries))).toEqual(['servers[1].prefix: same prefix as servers[0]; prefixes of enabled servers must be unique']);
  });

  it('says when the prefix is the name, and skips names already reported', () => {
    const entries = serverEntries({ servers: [{ name: 'a', prefix: 'b' }, { name: 'b' }, { name: 'c' }, { name: 'c' }] });
    expect(lines(prefixProblems(entries, new Set([entries[3]!])))).toEqual([
      'servers[1].prefix: same prefix as servers[0] (the prefix defaults to the name); prefixes of enabled servers must be unique',
    ]);
  });

  it('ignores a prefix the schema rejects', () => {
    expect(
      prefixProblems(
        serverEntries({
          servers: [
            { name: 'a', prefix: 'x y' },
            { name: 'b', prefix: 'x y' },
          ],
        }),
      ),
    ).toEqual([]);
  });
});

describe('namespaceProblems (issue 28.6)', () => {
  it('refuses a prefix whose <prefix><separator> another enabled one begins', () => {
    const entries = serverEntries({
      servers: [{ name: 'gh' }, { name: 'gh-enterprise' }, { name: 'gl', prefix: 'gl' }, { name: 'x', prefix: 'gh-old', enabled: false }, { name: 'bare', prefix: '' }],
    });
    expect(lines(namespaceProblems(entries, '-'))).toEqual([
      "servers[1].prefix: begins with the prefix of servers[0] and the separator (the prefix defaults to the name): a name in this server's namespace could be a tool of that one; pick prefixes (or a separator) where neither begins the other",
    ]);
    expect(namespaceProblems(entries, '__')).toEqual([]); // names hold no `_`: default prefixes never overlap
  });

  it('sees overlaps the separator makes: gh_ and gh with __', () => {
    const entries = serverEntries({
      servers: [
        { name: 'a', prefix: 'gh_' },
        { name: 'b', prefix: 'gh' },
      ],
    });
    expect(lines(namespaceProblems(entries, '__')).map((l) => l.split(':')[0])).toEqual(['servers[0].prefix']);
    expect(
      namespaceProblems(
        serverEntries({
          servers: [
            { name: 'a', prefix: 'gh' },
            { name: 'b', prefix: 'ghx' },
          ],
        }),
        '__',
      ),
    ).toEqual([]);
  });

  it('reads the separator from the file, the default when it is absent or invalid', () => {
    expect(separatorOf({ naming: { separator: '-' } })).toBe('-');
    expect(separatorOf({ naming: { separator: 'a b' } })).toBe('__');
    expect(separatorOf({})).toBe('__');
    expect(separatorOf(null)).toBe('__');
  });
});

describe('crossCheck', () => {
  it("puts the problems at one place in a stable order: the entry's own, then names, then prefixes", () => {
    const entries = serverEntries({
      servers: [{ name: 'a', command: 'x' }],
      mcpServers: { '': {}, a: { type: 'sse', command: 'x', transport: 'auto' } },
    });
    expect(lines(crossCheck(entries))).toEqual([
      'mcpServers[""]: cannot be turned into a server name: use 1 to 64 lowercase letters, digits and -',
      'mcpServers[""]: needs either command (a stdio server) or url (an HTTP server)',
      'mcpServers.a.transport: only applies to HTTP servers (url)',
      'mcpServers.a.type: is sse, but the server has a command',
      'mcpServers.a.transport: contradicts type sse',
      'mcpServers.a: duplicate name (also used by servers[0])',
    ]);
  });
});
