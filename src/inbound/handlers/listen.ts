// subscriptions/listen (2026-07-28): a long-lived request whose channel carries list_changed and
// resource updates for this client. The filter is narrowed to what the merged servers can tell
// (list changes always: the gateway emits them itself; resource updates for URIs a server with
// the subscribe capability serves and policy allows). Acknowledged first, answered last.

import { GatewayError, RpcError } from '../../errors.js';
import { ErrorCode } from '../../protocol/jsonrpc.js';
import { META } from '../../protocol/stateless.js';
import type { Handler, RequestContext } from '../context.js';
import { Listen, type ListenFilter } from '../listen.js';
import { connectionFor, resourceTargets } from './forward.js';
import type { Connection } from '../../router/session.js';
import { isJsonObject, valueAt } from '../../protocol/json.js';

/** Resource URIs one listen stream may hold: a bound, like every other per-client resource. */
export const MAX_LISTEN_URIS = 1000;

export const listen: Handler = async (params, context) => {
  const { related, session, cancellation } = context;
  if (related === undefined) throw new RpcError(ErrorCode.InternalError, 'subscriptions/listen needs a channel for its notifications');
  const asked = params.notifications;
  if (asked !== undefined && !isJsonObject(asked)) throw new RpcError(ErrorCode.InvalidParams, 'params.notifications must be an object');
  const caps = context.connections.capabilities();
  const filter: ListenFilter = {};
  if (asked?.toolsListChanged === true && caps.tools) filter.toolsListChanged = true;
  if (asked?.promptsListChanged === true && caps.prompts) filter.promptsListChanged = true;
  if (asked?.resourcesListChanged === true && caps.resources) filter.resourcesListChanged = true;
  const stream = new Listen(context.requestId, filter, related, context.view);
  const held: { connection: Connection; uri: string }[] = [];
  try {
    if (Array.isArray(asked?.resourceSubscriptions) && caps.resources?.subscribe) {
      filter.resourceSubscriptions = await subscribeAll(asked.resourceSubscriptions, stream, context, held);
    }
    stream.acknowledge();
    session.listens.add(stream);
    await new Promise<void>((resolve) => {
      cancellation.onCancel(resolve);
      void stream.endedByGateway.then(resolve);
    });
  } finally {
    stream.close();
    session.listens.delete(stream);
    for (const h of held) void context.sessionState.subscriptions.unsubscribe(h.connection, h.uri, stream).catch(() => {});
  }
  return { _meta: { [META.subscriptionId]: context.requestId } };
};

/**
 * Subscribes the stream to each URI it may hear about; answers the ones honoured. The URIs are
 * routed first: when the ones to subscribe do not fit in what the session (or the gateway) may
 * still hold, the listen is refused whole with LIMIT_EXCEEDED, before any server is asked.
 */
async function subscribeAll(uris: unknown[], stream: Listen, context: RequestContext, held: { connection: Connection; uri: string }[]): Promise<string[]> {
  const wanted: { connection: Connection; uri: string; exposed: string }[] = [];
  const seen = new Set<string>();
  for (const uri of new Set(uris.slice(0, MAX_LISTEN_URIS))) {
    if (typeof uri !== 'string') continue;
    let target: ReturnType<typeof resourceTargets>[number];
    try {
      target = resourceTargets(context, uri)[0]!;
    } catch {
      continue; // unknown or not allowed: not honoured, and not worth failing the others for
    }
    const connection = await connectionFor(context, target.server);
    if (!valueAt(connection.capabilities, 'resources', 'subscribe')) continue;
    // Two spellings of one server URI are one holding.
    const key = `${connection.name}\n${target.uri}`;
    if (seen.has(key)) continue;
    seen.add(key);
    wanted.push({ connection, uri: target.uri, exposed: uri });
  }
  const subscriptions = context.sessionState.subscriptions;
  // A stateless session serves every stateless client of a profile: there, each stream is one client's.
  const account = context.session.stateless ? stream : context.session;
  if (wanted.length > subscriptions.room(account)) subscriptions.refuse(account, wanted.length);
  const honoured: string[] = [];
  for (const w of wanted) {
    try {
      await subscriptions.subscribe(w.connection, w.uri, stream, w.exposed, context.session, account);
    } catch (err) {
      if (err instanceof GatewayError && err.code === 'LIMIT_EXCEEDED') throw err; // another request took the room meanwhile
      continue;
    }
    held.push({ connection: w.connection, uri: w.uri });
    honoured.push(w.exposed);
  }
  return honoured;
}
