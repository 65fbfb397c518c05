// MCP Apps UI URIs: hosts render only `ui://`, so a server's UI URI is namespaced inside it
// (`ui://x/app.html` of `basic` → `ui://basic+x/app.html`). Invariants: the output starts with
// `ui://`; (prefix, URI) → exposed is injective (prefixes are unique, hold no `+`); parse undoes it.

import { createHash } from 'node:crypto';
import { serverUriPrefix } from './resource-uris.js';
import { isJsonObject, valueAt, type JsonObject } from '../protocol/json.js';

/** The extension's id in `capabilities.extensions`. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
/** The MIME type of an MCP App's HTML. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The older flat key some servers still set beside (or instead of) `_meta.ui.resourceUri`. */
export const LEGACY_RESOURCE_URI_KEY = 'ui/resourceUri';

const UI_SCHEME = /^ui:\/\//i;
const EXPOSED = /^ui:\/\/([a-z][a-z0-9.-]*)\+/;

/** Whether a URI is a UI resource URI (`ui://…`; the scheme is case-insensitive). */
export function isUiUri(uri: unknown): uri is string {
  return typeof uri === 'string' && UI_SCHEME.test(uri);
}

/** `ui://<uiPrefix>+<the rest of uri after "ui://">`. `uri` must satisfy isUiUri. */
export function exposeUiUri(uiPrefix: string, uri: string): string {
  return `ui://${uiPrefix}+${uri.slice(5)}`;
}

/** The UI prefix and the server's own URI of an exposed UI URI, or undefined if it is not one. */
export function parseUiUri(exposed: string): { uiPrefix: string; uri: string } | undefined {
  const m = EXPOSED.exec(exposed);
  if (!m) return undefined;
  return { uiPrefix: m[1]!, uri: `ui://${exposed.slice(m[0].length)}` };
}

/**
 * One UI prefix per server, unique, in config order: the scheme-safe form of its prefix (or name),
 * with `-<hash of the server name>` for a server whose form an earlier one already took
 * (`A_b` and `a-b` would both be `a-b`). A server keeps its prefix while the servers before it do.
 */
export function uiPrefixes(servers: readonly { name: string; prefix: string }[]): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<string>();
  for (const s of servers) {
    const base = serverUriPrefix(s);
    let p = base;
    for (let attempt = 0; taken.has(p); attempt++) p = `${base}-${hash(`${s.name}\n${attempt}`)}`;
    taken.add(p);
    out.set(s.name, p);
  }
  return out;
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/** The UI resource URIs a tool points at (`_meta.ui.resourceUri`, then the flat legacy key). */
export function toolUiUris(item: JsonObject): string[] {
  const meta = item?._meta;
  if (!isJsonObject(meta)) return [];
  const out: string[] = [];
  const nested = valueAt(meta, 'ui', 'resourceUri');
  if (typeof nested === 'string') out.push(nested);
  const flat = meta[LEGACY_RESOURCE_URI_KEY];
  if (typeof flat === 'string' && flat !== nested) out.push(flat);
  return out;
}

/**
 * The tool with its UI pointers rewritten by `rename` (a URI → its exposed URI, or null to drop the
 * pointer). Everything else in `_meta` (visibility, other keys) stays as the server sent it; the
 * item is copied only where something changes.
 */
export function rewriteToolUi<T extends JsonObject>(item: T, rename: (uri: string) => string | null): T {
  const meta = item?._meta;
  if (!isJsonObject(meta)) return item;
  let next: JsonObject | undefined;
  const ui = meta.ui;
  if (isJsonObject(ui) && typeof ui.resourceUri === 'string') {
    const uri = rename(ui.resourceUri);
    if (uri !== ui.resourceUri) {
      const { resourceUri: _dropped, ...rest } = ui;
      next = { ...meta, ui: uri === null ? rest : { ...ui, resourceUri: uri } };
    }
  }
  const flat = meta[LEGACY_RESOURCE_URI_KEY];
  if (typeof flat === 'string') {
    const uri = rename(flat);
    if (uri !== flat) {
      const copy: JsonObject = next ?? { ...meta };
      if (uri === null) delete copy[LEGACY_RESOURCE_URI_KEY];
      else copy[LEGACY_RESOURCE_URI_KEY] = uri;
      next = copy;
    }
  }
  return next === undefined ? item : { ...item, _meta: next };
}
