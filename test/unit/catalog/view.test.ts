import { describe, expect, it } from 'vitest';
import { buildCatalog, type CatalogServerInput } from '../../../src/catalog/build.js';
import { viewFor } from '../../../src/catalog/view.js';
import type { ClientProfile, ServerConfig } from '../../../src/config/types.js';

const all = { allow: ['*'], deny: [] as string[] };
const server = (name: string, tools: Record<string, any>[]): CatalogServerInput => ({
  config: { kind: 'stdio', name, prefix: name, enabled: true, tools: all, prompts: all, resources: all } as unknown as ServerConfig,
  ready: true,
  lists: { tools, prompts: [], resources: [{ uri: `${name}://r`, name: 'r' }], resourceTemplates: [] },
});
const catalog = buildCatalog(
  [
    server('gh', [
      { name: 'get.issue', annotations: { readOnlyHint: true } },
      { name: 'delete_repo', annotations: { readOnlyHint: true } },
      { name: 'create_issue', annotations: { readOnlyHint: false } },
      { name: 'x'.repeat(100), annotations: { readOnlyHint: true } },
    ]),
    server('fs', [{ name: 'read' }]),
  ],
  { separator: '__', mode: 'always' },
);
const profile = (p: Partial<ClientProfile>): ClientProfile => ({ name: 'p', tools: all, prompts: all, resources: all, readOnly: false, naming: { maxLength: 128 }, ...p });

describe('viewFor', () => {
  it('is the whole catalog without a profile', () => {
    expect(viewFor(catalog, undefined).lists).toBe(catalog.lists);
  });

  it('filters by exposed names, deny winning, and only readOnlyHint: true tools when read-only', () => {
    const v = viewFor(catalog, profile({ tools: { allow: ['gh__*'], deny: ['*__delete_*'] }, readOnly: true }));
    const names = v.lists.tools.entries.map((e) => e.original);
    expect(names).toEqual(['get.issue', 'x'.repeat(100)]);
  });

  it('refits names to 64 characters without dots, still unique and routable to the original', () => {
    const v = viewFor(catalog, profile({ naming: { maxLength: 64 } }));
    for (const e of v.lists.tools.entries) {
      expect(e.key).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(e.item.name).toBe(e.key);
      expect(v.lists.tools.index.get(e.key)).toBeDefined();
    }
    expect(new Set(v.lists.tools.entries.map((e) => e.key)).size).toBe(v.lists.tools.entries.length);
    expect(v.lists.tools.entries.find((e) => e.original === 'get.issue')!.server).toBe('gh');
  });

  it('applies the resource filter to listed and unlisted URIs alike', () => {
    const v = viewFor(catalog, profile({ resources: { allow: ['fs://*'], deny: [] } }));
    expect(v.lists.resources.entries.map((e) => e.key)).toEqual(['fs://r']);
    expect(v.allowsUri('fs://other')).toBe(true);
    expect(v.allowsUri('gh://r')).toBe(false);
  });

  it('is computed once per snapshot and profile', () => {
    const p = profile({ readOnly: true });
    expect(viewFor(catalog, p)).toBe(viewFor(catalog, p));
  });
});

describe('a profile that may not read an app’s UI resource', () => {
  const withApp = buildCatalog(
    [server('gh', [{ name: 'show_issue', _meta: { ui: { resourceUri: 'ui://issue/view.html', visibility: ['model', 'app'] }, 'ui/resourceUri': 'ui://issue/view.html' } }, { name: 'plain' }])],
    { separator: '__', mode: 'always' },
  );
  const pointer = (p: ClientProfile | undefined) => viewFor(withApp, p).lists.tools.entries.find((e) => e.original === 'show_issue')!.item._meta;

  it('still lists the tool, without the pointer to the UI it could not read (the rest of _meta kept)', () => {
    const denied = profile({ resources: { allow: ['*'], deny: ['ui://**'] } });
    expect(pointer(denied)).toEqual({ ui: { visibility: ['model', 'app'] } });
    expect(viewFor(withApp, denied).allowsUri('ui://gh+issue/view.html')).toBe(false);
  });

  it('keeps the pointer, under its exposed URI, where the profile may read it', () => {
    const exposed = 'ui://gh+issue/view.html';
    expect(pointer(undefined)).toEqual({ ui: { resourceUri: exposed, visibility: ['model', 'app'] }, 'ui/resourceUri': exposed });
    expect(pointer(profile({ resources: { allow: ['ui://**'], deny: [] } }))).toEqual(pointer(undefined));
    // Nothing to take away: the catalog's own list, not a copy.
    expect(viewFor(withApp, profile({ readOnly: false })).lists.tools).toBe(withApp.lists.tools);
  });
});
