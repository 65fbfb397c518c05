// `switchboard search QUERY`: the tools search_tools would offer for a query, from the shell, as
// a client profile sees the catalog. Useful to tune descriptions, aliases and alwaysVisible.

import type { App } from '../app/app.js';
import { viewFor } from '../catalog/view.js';
import type { ClientProfile } from '../config/types.js';

export interface SearchReport {
  query: string;
  client?: string;
  results: { name: string; title?: string; description?: string; score: number }[];
}

export async function searchReport(app: App, query: string, limit: number, profile?: ClientProfile): Promise<SearchReport> {
  const hits = await app.router.findTools(viewFor(app.catalog, profile), query, limit);
  return {
    query,
    ...(profile ? { client: profile.name } : {}),
    results: hits.map(({ tool, score }) => ({ name: tool.name, title: tool.title, description: tool.description, score: Math.round(score * 1000) / 1000 })),
  };
}

export function renderSearch(r: SearchReport): string {
  if (r.results.length === 0) return `No tool matches "${r.query}"${r.client ? ` for client ${r.client}` : ''}.\n`;
  const width = Math.max(...r.results.map((t) => t.name.length));
  const lines = r.results.map((t, i) => `${String(i + 1).padStart(2)}. ${t.name.padEnd(width)}  ${String(t.description ?? t.title ?? '').split('\n')[0]!.slice(0, 100)}`);
  return `Tools for "${r.query}"${r.client ? ` (client ${r.client})` : ''}, best first:\n${lines.join('\n')}\n`;
}
