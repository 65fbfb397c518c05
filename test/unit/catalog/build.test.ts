import { describe, expect, it } from 'vitest';
import { buildCatalog, changedKinds, type CatalogServerInput } from '../../../src/catalog/build.js';
import type { ServerConfig } from '../../../src/config/types.js';

const all = { allow: ['*'], deny: [] as string[] };

function server(name: string, lists: Partial<CatalogServerInput['lists']>, extra: Partial<ServerConfig> = {}): CatalogServerInput {
  const config = {
    kind: 'stdio', name, prefix: name, enabled: true, timeoutMs: 1000, startupTimeoutMs: 1000, isolation: 'shared', command: 'x', args: [], env: {}, cwd: '/',
    tools: all, prompts: all, resources: all, ...extra,
  } as ServerConfig;
  return { config, ready: true, lists: { tools: [], prompts: [], resources: [], resourceTemplates: [], ...lists } };
}

const naming = { separator: '__', mode: 'always' as const };

describe('buildCatalog', () => {
  it('namespaces tools and prompts and remembers where each came from', () => {
    const c = buildCatalog(
      [server('a', { tools: [{ name: 'search', inputSchema: { type: 'object' } }], prompts: [{ name: 'p' }] }), server('b', { tools: [{ name: 'search' }] })],
      naming,
    );
    expect(c.lists.tools.entries.map((e) => [e.key, e.server, e.original])).toEqual([
      ['a__search', 'a', 'search'],
      ['b__search', 'b', 'search'],
    ]);
    expect(c.lists.tools.entries[0]!.item).toEqual({ name: 'a__search', inputSchema: { type: 'object' } });
    expect(c.lists.prompts.entries[0]!.key).toBe('a__p');
    expect(c.lists.tools.index.get('b__search')).toBe(1);
  });

  it('prefixes only colliding names in on-conflict mode', () => {
    const c = buildCatalog(
      [server('a', { tools: [{ name: 'search' }, { name: 'only_a' }] }), server('b', { tools: [{ name: 'search' }] })],
      { separator: '__', mode: 'on-conflict' },
    );
    expect(c.lists.tools.entries.map((e) => e.key)).toEqual(['a__search', 'only_a', 'b__search']);
  });

  it('applies allow/deny to original names, and leaves out servers that are not ready', () => {
    const down = server('c', { tools: [{ name: 'x' }] });
    down.ready = false;
    const c = buildCatalog(
      [server('a', { tools: [{ name: 'read' }, { name: 'delete_all' }] }, { tools: { allow: ['*'], deny: ['delete_*'] } }), down],
      naming,
    );
    expect(c.lists.tools.entries.map((e) => e.key)).toEqual(['a__read']);
  });

  it('keeps unique URIs as they are and namespaces a repeated URI, both still reachable', () => {
    const c = buildCatalog(
      [server('a', { resources: [{ uri: 'file:///x', name: 'x' }] }), server('b', { resources: [{ uri: 'file:///x', name: 'x' }, { uri: 'b://only', name: 'o' }] })],
      naming,
    );
    expect(c.lists.resources.entries.map((e) => e.key)).toEqual(['file:///x', 'b+file:///x', 'b://only']);
    expect(c.resources.route('file:///x')).toEqual([{ server: 'a', uri: 'file:///x' }]);
    expect(c.resources.route('b+file:///x')).toEqual([{ server: 'b', uri: 'file:///x' }]);
    expect(c.lists.resources.entries[1]!.item.uri).toBe('b+file:///x');
  });

  it('reports only the kinds whose visible content changed', () => {
    const before = buildCatalog([server('a', { tools: [{ name: 't' }], prompts: [{ name: 'p' }] })], naming);
    const same = buildCatalog([server('a', { tools: [{ name: 't' }], prompts: [{ name: 'p' }] })], naming);
    const after = buildCatalog([server('a', { tools: [{ name: 't', description: 'new' }], prompts: [{ name: 'p' }] })], naming);
    expect(changedKinds(before, same)).toEqual([]);
    expect(changedKinds(before, after)).toEqual(['tools']);
  });
});
