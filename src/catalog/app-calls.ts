// Which server an MCP App's own names (its server's tool names, UI URIs) belong to: the one app
// server that has the name, else the one among them whose app the session loaded. Never more than
// one answer: ambiguity is reported, not guessed.

import type { AppCatalog, CatalogEntry, CatalogList } from './build.js';
import { callableByApp } from './apps.js';

export type AppResolution<T> = { found: T } | { ambiguous: T[] } | undefined;

const byOriginal = new WeakMap<CatalogList, WeakMap<AppCatalog, Map<string, CatalogEntry[]>>>();

/** original name → the tools of app servers an app may call (one per server), in list order. */
function originals(tools: CatalogList, apps: AppCatalog): Map<string, CatalogEntry[]> {
  let perApps = byOriginal.get(tools);
  if (!perApps) byOriginal.set(tools, (perApps = new WeakMap()));
  let index = perApps.get(apps);
  if (!index) {
    index = new Map();
    for (const e of tools.entries) {
      if (!apps.servers.has(e.server) || !callableByApp(e.item)) continue;
      const list = index.get(e.original);
      if (!list) index.set(e.original, [e]);
      else if (!list.some((x) => x.server === e.server)) list.push(e);
    }
    perApps.set(apps, index);
  }
  return index;
}

/** One candidate: it; several: the one whose app the session loaded, else ambiguous. */
function pick<T>(candidates: readonly T[], serverOf: (t: T) => string, loaded: ReadonlySet<string>): AppResolution<T> {
  if (candidates.length === 0) return undefined;
  if (candidates.length === 1) return { found: candidates[0]! };
  const mine = candidates.filter((c) => loaded.has(serverOf(c)));
  if (mine.length === 1) return { found: mine[0]! };
  return { ambiguous: mine.length > 1 ? mine : [...candidates] };
}

/**
 * The tool an app means by `name` (its server's own name), among the tools of `tools` (a session's
 * view) whose server ships an app and whose visibility lets an app call it. `loaded`: the servers
 * whose UI the session has read.
 */
export function resolveAppTool(tools: CatalogList, apps: AppCatalog, name: string, loaded: ReadonlySet<string>): AppResolution<CatalogEntry> {
  return pick(originals(tools, apps).get(name) ?? [], (e) => e.server, loaded);
}

/** The server an app means by a `ui://` URI as its server wrote it (never an exposed one). */
export function resolveAppUri(apps: AppCatalog, uri: string, loaded: ReadonlySet<string>): AppResolution<string> {
  return pick(apps.uiUris.get(uri) ?? [], (s) => s, loaded);
}
