// The target for search mode's tool list: with the server directory of the benchmark's 70
// servers (bench/search/catalogs and catalogs-added: their tools, serverInfo and instructions as
// the servers sent them), the whole list costs at most 2,000 o200k tokens under the default
// directoryBudget, with the directory inline. Prints the figures.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildCatalog, DEFAULT_GUARD, type CatalogServerInput } from '../../../src/catalog/build.js';
import { viewFor } from '../../../src/catalog/view.js';
import { DEFAULT_DIRECTORY_BUDGET } from '../../../src/config/schema-values.js';
import type { ServerConfig } from '../../../src/config/types.js';
import { loadTokenCounter, serializeToolsForModel } from '../../../src/search/tokens.js';

const BENCH = new URL('../../../bench/search/', import.meta.url).pathname;
const all = { allow: ['*'], deny: [] as string[] };

function benchmarkServers(): CatalogServerInput[] {
  const catalogs = ['catalogs', 'catalogs-added'].flatMap((dir) =>
    readdirSync(BENCH + dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(`${BENCH}${dir}/${f}`, 'utf8'))),
  );
  catalogs.sort((a, b) => (a.server < b.server ? -1 : 1));
  return catalogs.map((c) => ({
    config: { kind: 'stdio', name: c.server, prefix: c.server, enabled: true, tools: all, prompts: all, resources: all } as unknown as ServerConfig,
    ready: true,
    lists: { tools: c.tools, prompts: [], resources: [], resourceTemplates: [] },
    serverInfo: c.serverInfo,
    instructions: c.instructions,
  }));
}

describe('search mode over the 70 benchmark servers', () => {
  it('lists search_tools with the whole directory, and call_tool, in at most 2,000 tokens', async () => {
    const counter = await loadTokenCounter();
    const servers = benchmarkServers();
    expect(servers).toHaveLength(70);
    const settings = {
      mode: 'search' as const,
      tokenBudget: 10_000,
      alwaysVisible: [],
      searchTool: 'search_tools',
      callTool: 'call_tool',
      listServersTool: 'list_servers',
      directoryBudget: DEFAULT_DIRECTORY_BUDGET,
    };
    const catalog = buildCatalog(servers, { separator: '__', mode: 'always' }, DEFAULT_GUARD, { settingsFor: () => settings, counter });
    const exposure = viewFor(catalog, undefined).exposure();
    const tokens = exposure.tokens();
    const served = exposure.served.entries.map((e) => e.item);
    console.log(`search mode, 70 servers: ${tokens.search} o200k tokens (directory ${tokens.directory}, budget ${DEFAULT_DIRECTORY_BUDGET}; the full list: ${tokens.full})`);
    expect(served.map((t) => t.name)).toEqual(['search_tools', 'call_tool']);
    expect(tokens).toMatchObject({ directoryIn: 'description', exact: true });
    expect(served[0]!.description.split('\n').filter((l: string) => l.startsWith('- '))).toHaveLength(70);
    expect(tokens.search).toBe(counter(serializeToolsForModel(served as any)));
    expect(tokens.search).toBeLessThanOrEqual(2000);
  });
});
