// The MCP Apps part of a catalog build (pure, once per snapshot): tools' UI pointers exposed, UI
// resources a server does not list routed because a tool points at them (its resource policy still
// judges them: a denied one loses its pointer), and the index of which server ships which UI URI.

import type { AppCatalog, CatalogEntry, UriRenames } from './build.js';
import type { ResourceRouter } from './resource-uris.js';
import { exposeUiUri, isUiUri, rewriteToolUi, toolUiUris } from './ui-uris.js';
import type { JsonObject } from '../protocol/json.js';

/** A UI resource a tool points at: its server and the server's own URI. */
export interface UiReference {
  server: string;
  uri: string;
}

interface ToolCandidate {
  server: { name: string };
  item: JsonObject;
}

/**
 * Each tool with its UI pointers exposed (`ui://<prefix>+…`), or dropped where the server's
 * resource policy denies the URI (a host would fail to read it; the tool stays a plain tool).
 * Pointers that are not `ui://` URIs are left as they are. Also returns what the pointers allowed.
 */
export function exposeToolUis<C extends ToolCandidate>(
  candidates: readonly C[],
  ui: ReadonlyMap<string, string>,
  policy: ReadonlyMap<string, (uri: string) => boolean>,
): { candidates: C[]; references: UiReference[] } {
  const references: UiReference[] = [];
  const out = candidates.map((c) => {
    const uris = toolUiUris(c.item);
    if (uris.length === 0) return c;
    const server = c.server.name;
    const allows = policy.get(server) ?? (() => false);
    const prefix = ui.get(server)!;
    // The same candidate under the same prefix and policy exposes the same pointers: keep the
    // copy made last time, so what is cached by item (digests, index) stays valid.
    const hit = exposed.get(c.item);
    if (hit && hit.prefix === prefix && hit.allows === allows && hit.candidate.server === c.server) {
      for (const r of hit.references) references.push(r);
      return hit.candidate as C;
    }
    const mine: UiReference[] = [];
    const item = rewriteToolUi(c.item, (uri) => {
      if (!isUiUri(uri)) return uri;
      if (!allows(uri)) return null;
      mine.push({ server, uri });
      return exposeUiUri(prefix, uri);
    });
    for (const r of mine) references.push(r);
    const candidate = item === c.item ? c : { ...c, item };
    exposed.set(c.item, { prefix, allows, references: mine, candidate });
    return candidate;
  });
  return { candidates: out, references };
}

const exposed = new WeakMap<JsonObject, { prefix: string; allows: (uri: string) => boolean; references: UiReference[]; candidate: ToolCandidate }>();

/**
 * The app index of a snapshot. Registers a read route (and a result rename) for every UI URI a
 * tool points at that the server did not list; `rename` records server URI → exposed URI.
 */
export function appCatalog(
  references: readonly UiReference[],
  uriEntries: readonly CatalogEntry[],
  ui: ReadonlyMap<string, string>,
  router: ResourceRouter,
  rename: (server: string, uri: string, exposed: string) => void,
): AppCatalog {
  const order = new Map([...ui.keys()].map((s, i) => [s, i]));
  const byUri = new Map<string, string[]>();
  const servers = new Set<string>();
  const note = (server: string, uri: string) => {
    servers.add(server);
    const list = byUri.get(uri);
    if (!list) byUri.set(uri, [server]);
    else if (!list.includes(server)) list.push(server);
  };
  for (const e of uriEntries) if (isUiUri(e.original)) note(e.server, e.original);
  for (const r of references) {
    const exposed = exposeUiUri(ui.get(r.server)!, r.uri);
    if (!router.knows(exposed)) {
      router.addResource(exposed, { server: r.server, uri: r.uri });
      rename(r.server, r.uri, exposed);
    }
    note(r.server, r.uri);
  }
  for (const list of byUri.values()) list.sort((a, b) => order.get(a)! - order.get(b)!);
  return { servers, uiPrefixes: ui, uiUris: byUri };
}

/**
 * The per-server renames results are translated with: on servers that ship apps, any `ui://` URI
 * (also one never listed nor pointed at) is exposed under the server's UI prefix. Servers without
 * apps keep their plain Map (or none: their answers can pass through unparsed).
 */
export function uiRenames(renamed: ReadonlyMap<string, Map<string, string>>, apps: AppCatalog): Map<string, UriRenames> {
  const out = new Map<string, UriRenames>(renamed);
  for (const server of apps.servers) {
    const known = renamed.get(server);
    const prefix = apps.uiPrefixes.get(server)!;
    out.set(server, { get: (uri) => known?.get(uri) ?? (isUiUri(uri) ? exposeUiUri(prefix, uri) : undefined) });
  }
  return out;
}
