// resources/directory/read (SEP-2640, "Directory Listing") through the gateway. The directory's
// exposed URI is routed like a resources/read (resourceTargets: the profile's rules judge the
// exposed URI, the server's its own), but only to a server that declared `directoryRead: true`:
// the SEP forbids calling it on any other. The answer's children are shown as resources/list
// shows resources: each URI spelled for the client so that a read or a further directory read of
// it comes back to the same server, children the rules deny dropped, text fields sanitized. The
// server's nextCursor goes out wrapped in a signed gateway cursor bound to the server and the
// directory URI. Every refusal is -32602 Invalid params, in both eras, as the SEP says.

import { RpcError } from '../../errors.js';
import { ErrorCode } from '../../protocol/jsonrpc.js';
import { isJsonObject, type JsonObject } from '../../protocol/json.js';
import { namespaceUri, serverUriPrefix, type ResourceTarget } from '../../catalog/resource-uris.js';
import { sanitizeItem } from '../../catalog/sanitize.js';
import { declaresDirectoryRead } from '../../router/connections.js';
import type { Handler, RequestContext } from '../context.js';
import { connectionFor, firstThatKnows, forwardOn, resourceTargets } from './forward.js';
import { unwrap } from '../../jsonrpc/answer.js';
import { refuseHeldSkillRead } from './skills.js';

export const DIRECTORY_READ = 'resources/directory/read';

/**
 * Directory cursors ride on the gateway's cursor codec (signed, tamper-evident) as their own kind,
 * so no other list takes one: the key is [server, exposed URI, server's cursor].
 */
interface DirectoryCursor {
  server: string;
  uri: string;
  cursor: string;
}

function invalid(message: string, uri: unknown): RpcError {
  return new RpcError(ErrorCode.InvalidParams, message, { uri: String(uri) });
}

function wrapCursor(context: RequestContext, state: DirectoryCursor): string {
  const afterKey = JSON.stringify([state.server, state.uri, state.cursor]);
  const cursor = context.gateway.cursors.encode({ kind: 'directory', afterKey, offset: 0 });
  // The codec leaves out a key over its size limit (cursor.ts): such a cursor would lose the server's.
  if (context.gateway.cursors.decode(cursor, 'directory')?.afterKey !== afterKey) {
    throw new RpcError(ErrorCode.InternalError, `server "${state.server}" answered a directory read with a cursor too long for the gateway to carry`);
  }
  return cursor;
}

/** The server's cursor inside `cursor`, which must have been issued for this very directory URI. */
function openCursor(context: RequestContext, cursor: unknown, uri: unknown): DirectoryCursor {
  const state = context.gateway.cursors.decode(cursor, 'directory');
  if (state === undefined) throw invalid('Invalid cursor', uri);
  let parts: unknown;
  try {
    parts = JSON.parse(state.afterKey);
  } catch {
    throw invalid('Invalid cursor', uri);
  }
  if (!Array.isArray(parts) || parts.length !== 3 || !parts.every((p) => typeof p === 'string')) throw invalid('Invalid cursor', uri);
  const [server, issuedFor, serverCursor] = parts as [string, string, string];
  if (issuedFor !== uri) throw invalid('Invalid cursor: it pages another directory', uri);
  return { server, uri: issuedFor, cursor: serverCursor };
}

/** Where a directory read of `uri` may go: the catalog's targets whose server declared directoryRead. */
function directoryTargets(context: RequestContext, uri: unknown, server: string | undefined): ResourceTarget[] {
  let targets: ResourceTarget[];
  try {
    targets = resourceTargets(context, uri);
  } catch (err) {
    // Unknown or denied: resources/read says -32002 in 2025-11-25; the SEP says -32602 for both.
    if (err instanceof RpcError && err.code === ErrorCode.ResourceNotFound) throw invalid('Directory not found', uri);
    throw err;
  }
  const declaring = targets.filter((t) => (server === undefined || t.server === server) && declaresDirectoryRead(context.connections.get(t.server)?.capabilities));
  if (declaring.length === 0) throw invalid('Directory not found', uri);
  return declaring;
}

/**
 * How one server's directory children reach the client: `namespaced` when the directory itself
 * was reached as `<uri prefix>+…`, so its children are too (and skill:// ones always, as
 * catalog/skills.ts spells every skill URI); otherwise as resources/list spells that URI.
 */
interface ChildSpelling {
  server: string;
  uriPrefix: string;
  namespaced: boolean;
}

function exposedChildUri(context: RequestContext, spelling: ChildSpelling, uri: string): string {
  if (spelling.namespaced || uri.startsWith('skill://')) return namespaceUri(spelling.uriPrefix, uri);
  return context.gateway.catalog.renamedUris.get(spelling.server)?.get(uri) ?? uri;
}

/**
 * A child as the client sees it, or undefined when it must not be shown: no URI, denied by the
 * server's or the profile's resource rules, a URI that would not route back to this server (a
 * server cannot slip another's URI in), or withheld by the sanitizer.
 */
function exposeChild(context: RequestContext, spelling: ChildSpelling, child: unknown): JsonObject | undefined {
  if (!isJsonObject(child) || typeof child.uri !== 'string') return undefined;
  const { catalog, config, audit } = context.gateway;
  const original = child.uri;
  const exposed = exposedChildUri(context, spelling, original);
  if (!(catalog.resourcePolicy.get(spelling.server)?.(original) ?? false) || !context.view.allowsUri(exposed)) return undefined;
  if (!catalog.resources.route(exposed).some((t) => t.server === spelling.server && t.uri === original)) return undefined;
  const cleaned = sanitizeItem('resource', { ...child, uri: exposed }, config.sanitize);
  for (const f of cleaned.findings) audit.record({ server: spelling.server, kind: 'resource', item: original, field: f.field, change: f.change, why: f.why });
  return cleaned.blocked ? undefined : cleaned.item;
}

async function readOn(context: RequestContext, params: JsonObject, t: ResourceTarget, serverCursor: string | undefined): Promise<JsonObject> {
  const connection = await connectionFor(context, t.server);
  // The shared connection said so; the one serving this session (per-session, per-user) must too.
  if (!declaresDirectoryRead(connection.capabilities)) throw invalid('Directory not found', params.uri);
  // A skill the lock file holds back is not browsed either: its folder and every folder under it.
  try {
    await refuseHeldSkillRead(context, connection, `${t.uri}/SKILL.md`);
  } catch (err) {
    if (err instanceof RpcError && err.code === ErrorCode.ResourceNotFound) throw invalid('Directory not found', params.uri);
    throw err;
  }
  const { cursor: _theirs, ...rest } = params;
  const forwarded: JsonObject = { ...rest, uri: t.uri, ...(serverCursor === undefined ? {} : { cursor: serverCursor }) };
  let result: JsonObject;
  try {
    result = unwrap(await forwardOn(connection, context, DIRECTORY_READ, forwarded));
  } catch (err) {
    // A server that says "not found" its 2025 way is answered the SEP's way.
    if (err instanceof RpcError && err.code === ErrorCode.ResourceNotFound) throw new RpcError(ErrorCode.InvalidParams, err.message, err.data);
    throw err;
  }
  const exposedUri = params.uri as string;
  const uriPrefix = serverUriPrefix(connection.config);
  const spelling: ChildSpelling = { server: t.server, uriPrefix, namespaced: exposedUri === namespaceUri(uriPrefix, t.uri) };
  const { resources, nextCursor, ...others } = result;
  const children = Array.isArray(resources) ? resources.map((c) => exposeChild(context, spelling, c)).filter((c) => c !== undefined) : [];
  const out: JsonObject = { ...others, resources: children };
  if (typeof nextCursor === 'string' && nextCursor !== '') out.nextCursor = wrapCursor(context, { server: t.server, uri: exposedUri, cursor: nextCursor });
  return out;
}

export const readDirectory: Handler = async (params, context) => {
  const uri = params?.uri;
  const after = params?.cursor === undefined ? undefined : openCursor(context, params.cursor, uri);
  return firstThatKnows(directoryTargets(context, uri, after?.server), (t) => readOn(context, params ?? {}, t, after?.cursor));
};
