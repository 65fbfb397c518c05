// An index of the benchmark's real tool definitions (bench/search/catalogs: 33 servers, 726 tools),
// for tests whose behaviour depends on realistic term statistics that a handful of made-up tools lack.

import { readdirSync, readFileSync } from 'node:fs';
import { ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';

export function realCatalogIndex(): ToolSearchIndex {
  const dir = new URL('../../../bench/search/catalogs/', import.meta.url);
  const index = new ToolSearchIndex();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const c = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as { server: string; tools: Omit<ToolDoc, 'key' | 'server'>[] };
    for (const t of c.tools) index.upsert({ ...t, key: `${c.server}__${t.name}`, server: c.server });
  }
  return index;
}
