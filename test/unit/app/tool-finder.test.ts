// ToolFinder: the app's search index follows the catalog's snapshots, and a search answers only
// tools of the view that asks, never an app-only one, and with `servers` only those servers'.
import { describe, expect, it } from 'vitest';
import { ToolFinder } from '../../../src/app/tool-finder.js';
import { buildCatalog, type Catalog, type CatalogServerInput } from '../../../src/catalog/build.js';
import { viewFor } from '../../../src/catalog/view.js';
import type { ClientProfile, ServerConfig } from '../../../src/config/types.js';

const all = { allow: ['*'], deny: [] as string[] };
const naming = { separator: '__', mode: 'always' as const };
const server = (name: string, tools: Record<string, any>[]): CatalogServerInput => ({
  config: { kind: 'stdio', name, prefix: name, enabled: true, tools: all, prompts: all, resources: all } as unknown as ServerConfig,
  ready: true,
  lists: { tools, prompts: [], resources: [], resourceTemplates: [] },
});
const weather = { name: 'weather_forecast', description: 'Gets the weather forecast for a city.' };
const appOnly = { name: 'weather_widget', description: 'Weather forecast widget.', _meta: { ui: { resourceUri: 'ui://w', visibility: ['app'] } } };
const profile = (tools: { allow: string[]; deny: string[] }): ClientProfile => ({ name: 'p', tools, prompts: all, resources: all, readOnly: false, naming: { maxLength: 128 } }) as ClientProfile;

describe('ToolFinder', () => {
  it('finds within the view, never an app-only tool, and only the servers asked for', async () => {
    const catalog = buildCatalog([server('a', [weather, appOnly]), server('b', [weather]), server('c', [weather])], naming);
    const finder = new ToolFinder(
      () => catalog,
      () => undefined,
    );
    const keys = async (view = viewFor(catalog, undefined), servers?: string[]) =>
      (await finder.find(view, 'weather forecast', { limit: 10, servers: servers && new Set(servers) })).map((f) => f.entry.key).sort();
    expect(await keys()).toEqual(['a__weather_forecast', 'b__weather_forecast', 'c__weather_forecast']);
    expect(await keys(undefined, ['b'])).toEqual(['b__weather_forecast']);
    expect(await keys(undefined, ['a', 'c'])).toEqual(['a__weather_forecast', 'c__weather_forecast']);
    expect(await keys(viewFor(catalog, profile({ allow: ['*'], deny: ['c__*'] })))).toEqual(['a__weather_forecast', 'b__weather_forecast']);
  });

  it('answers the view’s entries, under the names the profile sees', async () => {
    const catalog = buildCatalog([server('a', [{ ...weather, name: 'weather.forecast' }])], naming);
    const finder = new ToolFinder(
      () => catalog,
      () => undefined,
    );
    const view = viewFor(catalog, { ...profile(all), naming: { maxLength: 64 } } as ClientProfile);
    const [hit] = await finder.find(view, 'weather', { limit: 5 });
    expect(hit!.entry.key).toMatch(/^a__weather_forecast-[a-z0-9]+$/);
    expect(hit!.entry.catalogKey).toBe('a__weather.forecast');
    expect(hit!.entry.server).toBe('a');
    expect(hit!.score).toBeGreaterThan(0);
  });

  it('follows the snapshots: a server’s new tools are found, its removed ones not', async () => {
    let catalog: Catalog = buildCatalog([server('a', [weather])], naming);
    const finder = new ToolFinder(
      () => catalog,
      () => undefined,
    );
    const found = async (q: string) => (await finder.find(viewFor(catalog, undefined), q, { limit: 5 })).map((f) => f.entry.key);
    expect(await found('weather')).toEqual(['a__weather_forecast']);
    catalog = buildCatalog([server('a', [{ name: 'send_invoice', description: 'Sends an invoice to a customer.' }])], naming);
    expect(await found('weather')).toEqual([]);
    expect(await found('invoice')).toEqual(['a__send_invoice']);
  });
});
