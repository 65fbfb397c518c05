// `switchboard search QUERY [--server NAME]...`: the tools search_tools would offer for a query,
// from the shell, as a client profile sees the catalog, each with its server; the server directory
// when nothing matches. Useful to tune descriptions, servers' description lines and alwaysVisible.

import type { App } from '../app/app.js';
import { viewFor } from '../catalog/view.js';
import type { ClientProfile } from '../config/types.js';

export interface SearchReport {
  query: string;
  client?: string;
  /** The servers the search was restricted to (--server). */
  servers?: string[];
  results: { name: string; server: string; title?: string; description?: string; score: number }[];
  /** The server directory of the view (what search mode shows a model), when nothing matched. */
  directory?: string;
}

/** A --server the view has no tools of: the names it has, to pick from. */
export class UnknownServers extends Error {
  constructor(
    readonly unknown: string[],
    readonly known: string[],
  ) {
    super(`no server ${unknown.map((n) => `"${n}"`).join(', ')} with tools in this view (servers: ${known.join(', ') || 'none'})`);
  }
}

export async function searchReport(app: App, query: string, limit: number, profile?: ClientProfile, servers?: string[]): Promise<SearchReport> {
  const view = viewFor(app.catalog, profile);
  const directory = view.directory();
  const unknown = servers?.filter((s) => !directory.servers.has(s)) ?? [];
  if (unknown.length > 0) throw new UnknownServers(unknown, [...directory.servers]);
  const restrict = servers && servers.length > 0 ? new Set(servers) : undefined;
  const hits = await app.finder.find(view, query, { limit, servers: restrict });
  return {
    query,
    ...(profile ? { client: profile.name } : {}),
    ...(restrict ? { servers: [...restrict] } : {}),
    results: hits.map(({ entry, score }) => ({
      name: entry.key,
      server: entry.server,
      title: textOf(entry.item.title),
      description: textOf(entry.item.description),
      score: Math.round(score * 1000) / 1000,
    })),
    ...(hits.length === 0 ? { directory: directory.text } : {}),
  };
}

export function renderSearch(r: SearchReport): string {
  const who = r.client ? ` for client ${r.client}` : '';
  const among = r.servers ? ` among the tools of ${r.servers.join(', ')}` : '';
  if (r.results.length === 0) return `No tool matches "${r.query}"${among}${who}.${r.directory ? `\nServers:\n${r.directory}\n` : '\n'}`;
  const width = Math.max(...r.results.map((t) => t.name.length));
  const serverWidth = Math.max(...r.results.map((t) => t.server.length));
  const lines = r.results.map(
    (t, i) =>
      `${String(i + 1).padStart(2)}. ${t.name.padEnd(width)}  ${t.server.padEnd(serverWidth)}  ${String(t.description ?? t.title ?? '')
        .split('\n')[0]!
        .slice(0, 100)}`,
  );
  return `Tools for "${r.query}"${among}${r.client ? ` (client ${r.client})` : ''}, best first (name, server, description):\n${lines.join('\n')}\n`;
}

/** A server's title or description, when it is text (a listed tool's fields are unchecked JSON). */
function textOf(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
