// IndexSync: after a snapshot, only servers whose tool entries changed are synced into the search
// index; a server that left is emptied; reset() syncs everything again.
import { describe, expect, it } from 'vitest';
import { buildCatalog, type CatalogServerInput } from '../../../src/catalog/build.js';
import type { ServerConfig } from '../../../src/config/types.js';
import { IndexSync } from '../../../src/app/index-sync.js';

const all = { allow: ['*'], deny: [] as string[] };
const server = (name: string, tools: Record<string, any>[]): CatalogServerInput => ({
  config: { kind: 'stdio', name, prefix: name, enabled: true, tools: all, prompts: all, resources: all } as unknown as ServerConfig,
  ready: true,
  lists: { tools, prompts: [], resources: [], resourceTemplates: [] },
});
const naming = { separator: '__', mode: 'always' as const };

describe('IndexSync', () => {
  it('syncs the servers whose entries changed, empties those that left, and everything after reset()', () => {
    const synced: [string, string[]][] = [];
    const searcher = { syncServer: (s: string, docs: readonly { key: string }[]) => void synced.push([s, docs.map((d) => d.key)]) };
    const sync = new IndexSync();
    const big = server('big', [{ name: 'a', description: 'A.' }, { name: 'b' }]);
    sync.sync(buildCatalog([big, server('small', [{ name: 'x' }])], naming), searcher);
    expect(synced).toEqual([
      ['big', ['big__a', 'big__b']],
      ['small', ['small__x']],
    ]);
    synced.length = 0;
    sync.sync(buildCatalog([big, server('small', [{ name: 'y' }])], naming), searcher);
    expect(synced).toEqual([['small', ['small__y']]]);
    synced.length = 0;
    sync.sync(buildCatalog([big], naming), searcher);
    expect(synced).toEqual([['small', []]]);
    synced.length = 0;
    sync.reset();
    sync.sync(buildCatalog([big], naming), searcher);
    expect(synced).toEqual([['big', ['big__a', 'big__b']]]);
  });
});
