// What the catalog knows of MCP Apps (the io.modelcontextprotocol/ui extension) beyond URIs: which
// clients render apps, which tools only an app may call, and which read contents are an app's
// HTML. Pure. A client that does not render apps never sees (nor may call) a tool meant for an app alone.

import { listOf, type CatalogList } from './build.js';
import { sanitizeReadResult } from './sanitize-result.js';
import type { Finding, SanitizeAction } from './sanitize-text.js';
import { hiddenFromModel } from './tool-exposure.js';
import { APP_MIME_TYPE, UI_EXTENSION, isUiUri } from './ui-uris.js';
import { valueAt, type JsonObject } from '../protocol/json.js';

/**
 * Whether a client declared that it renders MCP Apps: `extensions["io.modelcontextprotocol/ui"]`
 * with `text/html;profile=mcp-app` among its `mimeTypes` (the test servers apply themselves).
 */
export function rendersApps(clientCapabilities: JsonObject | undefined): boolean {
  const mimeTypes = valueAt(clientCapabilities, 'extensions', UI_EXTENSION, 'mimeTypes');
  return Array.isArray(mimeTypes) && mimeTypes.some(isAppMimeType);
}

/** Whether a server declared the MCP Apps extension: `extensions["io.modelcontextprotocol/ui"]` in its capabilities. */
export function declaresApps(serverCapabilities: JsonObject | undefined): boolean {
  const ui = valueAt(serverCapabilities, 'extensions', UI_EXTENSION);
  return ui !== null && typeof ui === 'object';
}

/** `text/html;profile=mcp-app`, compared as MIME types are: case and spaces around `;` aside. */
export function isAppMimeType(mimeType: unknown): boolean {
  return typeof mimeType === 'string' && mimeType.toLowerCase().replace(/\s+/g, '') === APP_MIME_TYPE;
}

/** Whether an app may call the tool: `_meta.ui.visibility` absent (default ["model","app"]) or with "app". */
export function callableByApp(item: JsonObject): boolean {
  const visibility = valueAt(item, '_meta', 'ui', 'visibility');
  return !Array.isArray(visibility) || visibility.includes('app');
}

const withoutAppOnlyCache = new WeakMap<CatalogList, CatalogList>();

/**
 * The list without the tools meant for an app alone (visibility without "model"): what a client
 * that renders no app is shown. The same list when there are none; cached per list.
 */
export function withoutAppOnly(list: CatalogList): CatalogList {
  let out = withoutAppOnlyCache.get(list);
  if (!out) {
    const kept = list.entries.filter((e) => !hiddenFromModel(e.item));
    out = kept.length === list.entries.length ? list : listOf(kept);
    withoutAppOnlyCache.set(list, out);
  }
  return out;
}

/** The tools list a client is served: app-only tools only for clients that render apps. */
export function toolsForClient(list: CatalogList, clientCapabilities: JsonObject | undefined): CatalogList {
  return rendersApps(clientCapabilities) ? list : withoutAppOnly(list);
}

/**
 * An app's HTML, as a read content: labelled with the app MIME type and at a `ui://` URI. The label
 * alone is the server's word about bytes that may come from anywhere (a file it serves), so it
 * exempts nothing by itself.
 */
export function isAppContent(content: JsonObject | undefined): boolean {
  return isAppMimeType(content?.mimeType) && isUiUri(content?.uri);
}

/**
 * resources/read answer cleaning (sanitize.results) for a client that renders apps, of a read of a
 * `ui://` URI from a server that declared the extension (the caller checks both, readSanitizer): an
 * app's HTML goes to a sandboxed frame, not to a model, and cleaning would break its code, so app
 * contents (isAppContent) pass verbatim; every other content is cleaned as usual. (Clients that
 * render no app, reads of other URIs and servers that did not declare the extension get every
 * content cleaned.)
 */
export function sanitizeReadResultForApps(result: JsonObject, options: { action: SanitizeAction }): { result: JsonObject; findings: Finding[] } {
  const contents = result?.contents;
  if (!Array.isArray(contents) || !contents.some(isAppContent)) return sanitizeReadResult(result, options);
  // App contents stand in as empty objects, so positions (and the findings' field paths) stay as they are.
  const input = { ...result, contents: contents.map((c) => (isAppContent(c) ? {} : c)) };
  const cleaned = sanitizeReadResult(input, options);
  if (cleaned.result === input) return { result, findings: cleaned.findings };
  const out = cleaned.result.contents;
  // Withheld whole (too large to examine): the gateway's notice replaces everything.
  if (!Array.isArray(out) || out.length !== contents.length) return cleaned;
  const merged = contents.map((c, i) => (isAppContent(c) ? c : out[i]));
  return { result: { ...cleaned.result, contents: merged }, findings: cleaned.findings };
}
