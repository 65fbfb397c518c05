// MCP Apps on the request path (docs/apps.md): the tool a tools/call means, the server a read of an
// app's own `ui://` URI goes to, and which servers' apps each session has loaded. A tool meant for an
// app alone is unknown to a client that renders none.

import { declaresApps, rendersApps, sanitizeReadResultForApps } from '../../catalog/apps.js';
import { resolveAppTool, resolveAppUri } from '../../catalog/app-calls.js';
import type { CatalogEntry } from '../../catalog/build.js';
import type { ResourceTarget } from '../../catalog/resource-uris.js';
import { sanitizeReadResult } from '../../catalog/sanitize.js';
import { hiddenFromModel } from '../../catalog/tool-exposure.js';
import { exposeUiUri, isUiUri, parseUiUri } from '../../catalog/ui-uris.js';
import { RpcError } from '../../errors.js';
import type { JsonObject } from '../../protocol/json.js';
import { ErrorCode } from '../../protocol/jsonrpc.js';
import type { Session } from '../../router/session.js';
import type { RequestContext } from '../context.js';

/** Servers whose UI each session has read. Dies with the session (nothing to release). */
const loadedApps = new WeakMap<Session, Set<string>>();
const NONE: ReadonlySet<string> = new Set();

/** Remembers that the session loaded `server`'s app, when `uri` (the server's own) is a UI URI. */
export function noteAppRead(session: Session, server: string, uri: string): void {
  if (!isUiUri(uri)) return;
  let servers = loadedApps.get(session);
  if (!servers) loadedApps.set(session, (servers = new Set()));
  servers.add(server);
}

/** The servers whose app `session` has loaded. */
export function appsLoadedBy(session: Session): ReadonlySet<string> {
  return loadedApps.get(session) ?? NONE;
}

const unknownTool = (name: unknown) => new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${String(name)}`);

/**
 * The view's tool a tools/call names. Exposed names first; for a client that renders apps, then a
 * name as an app's server wrote it. A tool for an app alone is unknown to a client that renders none.
 */
export function toolForCall(context: RequestContext, name: unknown): CatalogEntry {
  const tools = context.view.lists.tools;
  const i = typeof name === 'string' ? tools.index.get(name) : undefined;
  const apps = rendersApps(context.client.clientCapabilities);
  if (i !== undefined) {
    const entry = tools.entries[i]!;
    if (!apps && hiddenFromModel(entry.item)) throw unknownTool(name);
    return entry;
  }
  if (!apps || typeof name !== 'string') throw unknownTool(name);
  const r = resolveAppTool(tools, context.gateway.catalog.apps, name, appsLoadedBy(context.session));
  if (r === undefined) throw unknownTool(name);
  if ('ambiguous' in r) {
    const names = r.ambiguous.map((e) => e.key).join(', ');
    throw new RpcError(ErrorCode.InvalidParams, `Ambiguous tool: "${name}" belongs to the apps of several servers; call it by its exposed name (${names})`);
  }
  return r.found;
}

/**
 * Where a read of an app's own `ui://` URI (as its server wrote it, not an exposed one) goes, for a
 * client that renders apps; undefined for every other read (routed as any URI is). Policy applies:
 * the profile judges the exposed form, the server's rules its own URI.
 */
export function appReadTargets(context: RequestContext, uri: unknown): ResourceTarget[] | undefined {
  if (!isUiUri(uri) || !rendersApps(context.client.clientCapabilities)) return undefined;
  const apps = context.gateway.catalog.apps;
  const exposed = parseUiUri(uri);
  if (exposed && [...apps.uiPrefixes.values()].includes(exposed.uiPrefix)) return undefined;
  const r = resolveAppUri(apps, uri, appsLoadedBy(context.session));
  if (r !== undefined && 'ambiguous' in r) {
    throw new RpcError(ErrorCode.InvalidParams, `Ambiguous resource: "${uri}" belongs to the apps of several servers; read it by its exposed URI`, { uri });
  }
  const server = r?.found;
  const allowed = server !== undefined && context.view.allowsUri(exposeUiUri(apps.uiPrefixes.get(server)!, uri)) && (context.gateway.catalog.resourcePolicy.get(server)?.(uri) ?? false);
  if (!allowed) throw new RpcError(ErrorCode.ResourceNotFound, 'Resource not found', { uri });
  return [{ server, uri }];
}

/**
 * The cleaning of a resources/read answer: an app's HTML passes verbatim to a client that renders
 * apps, when the read is of a `ui://` URI (`uri`, the server's own) of a server that declared the
 * extension (its capabilities). Everything else is cleaned, whatever MIME type it is labelled with.
 */
export function readSanitizer(context: RequestContext, uri: string, serverCapabilities: JsonObject | undefined): typeof sanitizeReadResult {
  const apps = rendersApps(context.client.clientCapabilities) && isUiUri(uri) && declaresApps(serverCapabilities);
  return apps ? sanitizeReadResultForApps : sanitizeReadResult;
}
