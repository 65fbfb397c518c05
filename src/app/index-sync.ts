// Brings the search index to a catalog snapshot, server by server: a server whose tool entries are
// the very entries indexed last time (the catalog keeps an unchanged item's entry, catalog/build.ts)
// is skipped without looking inside; the others are synced, which re-indexes only their tools that
// changed. So one server's list_changed costs that server's tools, not the whole catalog's.

import type { Catalog, CatalogEntry } from '../catalog/build.js';
import type { ToolDoc } from '../search/index.js';

export interface ServerSyncing {
  syncServer(server: string, docs: readonly ToolDoc[]): unknown;
}

export class IndexSync {
  private indexed = new Map<string, readonly CatalogEntry[]>();

  sync(catalog: Catalog, searcher: ServerSyncing): void {
    const byServer = new Map<string, CatalogEntry[]>();
    for (const e of catalog.lists.tools.entries) {
      let entries = byServer.get(e.server);
      if (!entries) byServer.set(e.server, (entries = []));
      entries.push(e);
    }
    for (const server of this.indexed.keys()) if (!byServer.has(server)) searcher.syncServer(server, []);
    for (const [server, entries] of byServer) {
      const was = this.indexed.get(server);
      if (was !== undefined && sameEntries(was, entries)) continue;
      searcher.syncServer(server, entries.map(docOf));
    }
    this.indexed = byServer;
  }

  /** Everything is indexed again at the next sync (a new searcher). */
  reset(): void {
    this.indexed = new Map();
  }
}

function sameEntries(a: readonly CatalogEntry[], b: readonly CatalogEntry[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.key !== b[i]!.key || a[i]!.item !== b[i]!.item || a[i]!.original !== b[i]!.original) return false;
  return true;
}

function docOf(e: CatalogEntry): ToolDoc {
  // Off the per-message path (once per tool when the catalog changes): a server's title or
  // description that is not a string is none, as the index reads only strings.
  const { title, description, inputSchema, annotations } = e.item;
  return { key: e.key, server: e.server, name: e.original, title: stringOr(title), description: stringOr(description), inputSchema, annotations };
}

function stringOr(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
