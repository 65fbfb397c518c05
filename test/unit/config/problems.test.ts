import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load.js';
import { ConfigError } from '../../../src/config/types.js';
import { BASE, linesOf, parse, problemsOf } from './helpers.js';

describe('problems', () => {
  it.each([
    ['servers: [{ command: x }]', 'servers[0].name: required'],
    ['servers: [{ name: My_Server, command: x }]', 'servers[0].name: must be lowercase letters, digits and -'],
    [`servers: [{ name: ${'a'.repeat(65)}, command: x }]`, 'servers[0].name: must be at most 64 characters'],
    ['servers: [{ name: a }]', 'servers[0]: needs either command (a stdio server) or url (an HTTP server)'],
    ['servers: [{ name: a, command: x, url: "http://h/" }]', 'servers[0]: has both command and url: a server is either stdio (command) or HTTP (url)'],
    ['servers: [{ name: a, url: "ftp://h/" }]', 'servers[0].url: must be an http:// or https:// URL'],
    ['servers: [{ name: a, url: "not a url" }]', 'servers[0].url: must be an http:// or https:// URL'],
    ['servers: [{ name: a, command: x, transport: sse }]', 'servers[0].transport: only applies to HTTP servers (url)'],
    ['servers: [{ name: a, command: x, headers: {} }]', 'servers[0].headers: only applies to HTTP servers (url)'],
    ['servers: [{ name: a, url: "http://h/", cwd: . }]', 'servers[0].cwd: only applies to stdio servers (command)'],
    ['servers: [{ name: a, url: "http://h/", args: [] }]', 'servers[0].args: only applies to stdio servers (command)'],
    ['servers: [{ name: a, url: "http://h/", transport: ws }]', 'servers[0].transport: must be one of auto, streamable-http, sse'],
    ['servers: [{ name: a, command: "" }]', 'servers[0].command: must not be empty'],
    ['servers: [{ name: a, command: x, args: "-y" }]', 'servers[0].args: expected a list, got a string'],
    ['servers: [{ name: a, command: x, args: [-y, 3] }]', 'servers[0].args[1]: expected a string, got a number (put it in quotes)'],
    ['servers: [{ name: a, command: x, env: { DEBUG: true } }]', 'servers[0].env.DEBUG: expected a string, got true or false (put it in quotes)'],
    ['servers: [{ name: a, command: x, prefix: "a b" }]', 'servers[0].prefix: must be at most 64 of A-Z a-z 0-9 _ . -'],
    ['servers: [{ name: a, command: x, tools: 3 }]', 'servers[0].tools: expected a list or a mapping'],
    ['servers: [{ name: a, command: x, tools: { allow: "*" } }]', 'servers[0].tools.allow: expected a list, got a string'],
    ['servers: [{ name: a, command: x, tools: { alow: ["*"] } }]', 'servers[0].tools.alow: unknown key (did you mean allow?)'],
    ['servers: [{ name: a, command: x, enabled: "yes" }]', 'servers[0].enabled: expected true or false, got a string'],
    ['servers: [{ name: a, command: x, timeout: 0 }]', 'servers[0].timeout: must be greater than 0'],
    ['servers: [{ name: a, command: x, timeout: 0s }]', 'servers[0].timeout: must be greater than 0 and at most 2147483647ms (about 24 days)'],
    ['servers: [{ name: a, command: x, timeout: 30d }]', 'servers[0].timeout: must be a duration: milliseconds, or a string like 500ms, 60s, 2m or 1h'],
    ['servers: [{ name: a, command: x, timeout: true }]', 'servers[0].timeout: must be a duration: milliseconds, or a string like 500ms, 60s, 2m or 1h'],
    ['servers: [{ name: a, command: x, comand: y }]', 'servers[0].comand: unknown key (did you mean command?)'],
    ['servers: [{ name: a, command: x, disabled: true }]', 'servers[0].disabled: unknown key (did you mean enabled?)'],
    ['servers: [{ name: a, command: x, zzz: 1 }]', 'servers[0].zzz: unknown key'],
    ['servers: { a: 1 }', 'servers: expected a list, got a mapping'],
    ['servers: [a]', 'servers[0]: expected a mapping, got a string'],
    ['listen: { port: 70000 }', 'listen.port: must be at most 65535'],
    ['listen: { port: -1 }', 'listen.port: must be at least 0'],
    ['listen: { port: 80.5 }', 'listen.port: expected an integer'],
    ['listen: { port: "80" }', 'listen.port: expected a number, got a string (remove the quotes)'],
    ['listen: { port: "http" }', 'listen.port: expected a number, got a string'],
    ['servers: [{ name: a, command: x, enabled: "false" }]', 'servers[0].enabled: expected true or false, got a string (remove the quotes)'],
    ['listen: { path: mcp }', 'listen.path: must start with /'],
    ['listen: { host: "" }', 'listen.host: must not be empty'],
    ['listen: { allowedOrigins: ["https://app.example.com/"] }', 'listen.allowedOrigins[0]: must be an origin like https://app.example.com: scheme, host and optional port, nothing after'],
    ['listen: { hots: x }', 'listen.hots: unknown key (did you mean host?)'],
    ['listen: 8808', 'listen: expected a mapping, got a number'],
    ['naming: { separator: "" }', 'naming.separator: must be 1 to 8 of A-Z a-z 0-9 _ . -'],
    ['naming: { separator: "::" }', 'naming.separator: must be 1 to 8 of A-Z a-z 0-9 _ . -'],
    ['naming: { separator: "_________" }', 'naming.separator: must be 1 to 8 of A-Z a-z 0-9 _ . -'],
    ['naming: { mode: never }', 'naming.mode: must be one of always, on-conflict'],
    ['catalog: { pageSize: 0 }', 'catalog.pageSize: must be at least 1'],
    ['catalog: { pageSize: 10001 }', 'catalog.pageSize: must be at most 10000'],
    ['limits: { maxMessageBytes: 16GB }', 'limits.maxMessageBytes: must be a size: bytes, or a string like 512KiB, 16MiB or 1MB'],
    ['limits: { maxMessageBytes: 0 }', 'limits.maxMessageBytes: must be at least 1'],
    ['limits: { maxMessageBytes: 2048MiB }', 'limits.maxMessageBytes: must be at least 1 byte and at most 1GiB'],
    ['limits: { maxMessageBytes: [1] }', 'limits.maxMessageBytes: must be a size: bytes, or a string like 512KiB, 16MiB or 1MB'],
    ['mcpservers: {}', 'mcpservers: unknown key (did you mean mcpServers?)'],
    ['server: []', 'server: unknown key (did you mean servers?)'],
  ])('%s', (yaml, expected) => {
    expect(linesOf(yaml)).toEqual([expected]);
  });

  it('reports duplicate names at the later entry', () => {
    expect(linesOf('servers: [{ name: a, command: x, prefix: p }, { name: b, command: y }, { name: a, command: z }]')).toEqual(['servers[2].name: duplicate name (also used by servers[0])']);
  });

  it('reports duplicate prefixes among enabled servers, explicit or defaulted from the name', () => {
    expect(linesOf('servers: [{ name: a, command: x, prefix: p }, { name: b, command: y, prefix: p }]')).toEqual([
      'servers[1].prefix: same prefix as servers[0]; prefixes of enabled servers must be unique',
    ]);
    expect(linesOf('servers: [{ name: a, command: x }, { name: b, command: y, prefix: a }]')).toEqual(['servers[1].prefix: same prefix as servers[0]; prefixes of enabled servers must be unique']);
    expect(linesOf('servers: [{ name: a, command: x, prefix: b }, { name: b, command: y }]')).toEqual([
      'servers[1].prefix: same prefix as servers[0] (the prefix defaults to the name); prefixes of enabled servers must be unique',
    ]);
  });

  it('reports every problem at once, in file order', () => {
    expect(
      linesOf(`
listen: { port: 99999, path: mcp }
naming: { mode: sometimes }
servers:
  - name: Bad
    command: x
    timeout: soon
  - name: ok
    url: ftp://x
    comand: y
  - name: ok
    command: z
`),
    ).toEqual([
      'listen.port: must be at most 65535',
      'listen.path: must start with /',
      'naming.mode: must be one of always, on-conflict',
      'servers[0].name: must be lowercase letters, digits and -',
      'servers[0].timeout: must be a duration: milliseconds, or a string like 500ms, 60s, 2m or 1h',
      'servers[1].url: must be an http:// or https:// URL',
      'servers[1].comand: unknown key (did you mean command?)',
      'servers[2].name: duplicate name (also used by servers[1])',
    ]);
  });

  it('reports YAML syntax errors with line and column', () => {
    expect(linesOf('listen:\n  port: 1\n  port: 2\n')).toEqual(['line 3:3: Map keys must be unique']);
    const [problem] = problemsOf('servers: [\n  { name: a\n');
    expect(problem!.path).toBe('');
    expect(problem!.message).toMatch(/^line \d+:\d+: /);
  });

  it('rejects several documents and recursive aliases', () => {
    expect(linesOf('listen: { port: 1 }\n---\nlisten: { port: 2 }\n')).toEqual(['line 2:1: the file holds several YAML documents (separated by ---); use one']);
    expect(linesOf('servers: &s [{ name: a, command: x, args: *s }]')).toEqual(['servers[0].args: an alias refers to its own anchor: the data would be endless']);
  });

  it('rejects an empty file and a top level that is not a mapping', () => {
    expect(linesOf('')).toEqual(['the file is empty: expected a mapping with keys such as listen and servers']);
    expect(linesOf('# only a comment\n')).toEqual(['the file is empty: expected a mapping with keys such as listen and servers']);
    expect(linesOf('- a\n- b\n')).toEqual(['the top level must be a mapping with keys such as listen and servers, not a list']);
    expect(linesOf('hello\n')).toEqual(['the top level must be a mapping with keys such as listen and servers, not a single string value']);
  });

  it('throws a ConfigError whose message lists every problem and the file', () => {
    const err = (() => {
      try {
        parseConfig('servers: [{ name: a }, { name: b }]', { file: 'x.yaml', baseDir: BASE, env: {} });
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect(err!.file).toBe('x.yaml');
    expect(err!.message).toBe(
      'invalid config x.yaml:\n' + '  servers[0]: needs either command (a stdio server) or url (an HTTP server)\n' + '  servers[1]: needs either command (a stdio server) or url (an HTTP server)',
    );
  });

  it('keeps __proto__ a plain (unknown) key', () => {
    expect(linesOf('__proto__: { polluted: true }\nservers: []\n')).toEqual(['__proto__: unknown key']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('supports YAML anchors and merge keys', () => {
    const config = parse(`
servers:
  - &base { name: a, command: node, timeout: 5s }
  - { <<: *base, name: b, prefix: bb }
`);
    expect(config.servers.map((s) => [s.name, s.timeoutMs])).toEqual([
      ['a', 5000],
      ['b', 5000],
    ]);
  });
});
