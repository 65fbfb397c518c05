// What the catalog knows of MCP Apps (the io.modelcontextprotocol/ui extension) beyond URIs: which
// clients render apps, which tools only an app may call, and which read contents are an app's
// HTML. Pure. A client that does not render apps never sees (nor may call) a tool meant for an app alone.

import { listOf, type CatalogList } from './build.js';
import { sanitizeReadResult } from './sanitize-result.js';
import type { Finding, SanitizeAction } from './sanitize-text.js';
import { hiddenFromModel } from './tool-exposure.js';
import { APP_MIME_TYPE, UI_EXTENSION } from './ui-uris.js';

/**
 * Whether a client declared that it renders MCP Apps: `extensions["io.modelcontextprotocol/ui"]`
 * with `text/html;profile=mcp-app` among its `mimeTypes` (the test servers apply themselves).
 */
export function rendersApps(clientCapabilities: Record<string, any> | undefined): boolean {
  const ui = clientCapabilities?.extensions?.[UI_EXTENSION];
  return Array.isArray(ui?.mimeTypes) && ui.mimeTypes.some(isAppMimeType);
}

/** `text/html;profile=mcp-app`, compared as MIME types are: case and spaces around `;` aside. */
export function isAppMimeType(mimeType: unknown): boolean {
  return typeof mimeType === 'string' && mimeType.toLowerCase().replace(/\s+/g, '') === APP_MIME_TYPE;
}

/** Whether an app may call the tool: `_meta.ui.visibility` absent (default ["model","app"]) or with "app". */
export function callableByApp(item: Record<string, any>): boolean {
  const visibility = item?._meta?.ui?.visibility;
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
export function toolsForClient(list: CatalogList, clientCapabilities: Record<string, any> | undefined): CatalogList {
  return rendersApps(clientCapabilities) ? list : withoutAppOnly(list);
}

/**
 * resources/read answer cleaning (sanitize.results) for a client that renders apps: an app's HTML
 * goes to a sandboxed frame, not to a model, and cleaning would break its code, so app contents
 * pass verbatim; every other content is cleaned as usual. (Clients that render no app get every
 * content cleaned: for them the HTML is just text.)
 */
export function sanitizeReadResultForApps(result: Record<string, any>, options: { action: SanitizeAction }): { result: Record<string, any>; findings: Finding[] } {
  const contents = result?.contents;
  if (!Array.isArray(contents) || !contents.some((c) => isAppMimeType(c?.mimeType))) return sanitizeReadResult(result, options);
  // App contents stand in as empty objects, so positions (and the findings' field paths) stay as they are.
  const input = { ...result, contents: contents.map((c) => (isAppMimeType(c?.mimeType) ? {} : c)) };
  const cleaned = sanitizeReadResult(input, options);
  if (cleaned.result === input) return { result, findings: cleaned.findings };
  const out = cleaned.result.contents;
  // Withheld whole (too large to examine): the gateway's notice replaces everything.
  if (!Array.isArray(out) || out.length !== contents.length) return cleaned;
  const merged = contents.map((c, i) => (isAppMimeType(c?.mimeType) ? c : out[i]));
  return { result: { ...cleaned.result, contents: merged }, findings: cleaned.findings };
}
