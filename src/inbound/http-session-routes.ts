// The HTTP requests that address a session as such (protocol revisions up to 2025-11-25): the
// initialize that opens one, the GET that opens its stream, the DELETE that ends it, and the
// Mcp-Session-Id check every one of them (and each sessionful POST) passes first. A session is
// addressable only once its initialize succeeded, and only by the principal that opened it.

import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Slots } from '../jsonrpc/churn.js';
import { isSplicedResponse } from '../jsonrpc/raw.js';
import { isErrorResponse, type JsonRpcId, type JsonRpcRequest } from '../protocol/jsonrpc.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/mcp.js';
import { ACCEPT_EVENT_STREAM, acceptFlags } from './http-checks.js';
import { connOf, type Connections } from './http-connections.js';
import type { HttpEndpointLogger, HttpEndpointOptions } from './http-endpoint-options.js';
import { Refusal, limitHeaders, replyEmpty, replyJson } from './http-reply.js';
import { SessionEntry } from './http-session.js';
import { PostExchange } from './http-exchange.js';
import type { SessionTable } from './http-session-table.js';
import type { SseStream } from './http-sse.js';
import type { SessionOpener } from './session-opener.js';
import type { Holding, Shares } from './principals.js';
import type { SessionRecords } from './http-records.js';
import { adopt } from './http-adopt.js';
import { resume } from './http-resume.js';
import type { StoredEvent } from '../state/store.js';

const SUPPORTED_VERSIONS: ReadonlySet<string> = new Set(SUPPORTED_PROTOCOL_VERSIONS);
const POST_ONLY: OutgoingHttpHeaders = { Allow: 'POST' };

/** What these routes need of the endpoint. */
export interface SessionRoutesHost {
  readonly sessions: SessionTable;
  readonly connections: Connections;
  readonly opener: SessionOpener;
  /** Every open SSE stream, for the endpoint's pings and shutdown. */
  readonly streams: Slots<SseStream>;
  readonly logger: HttpEndpointLogger;
  readonly options: HttpEndpointOptions;
  /** True once the endpoint is closing: a session initialized then is not kept. */
  readonly isClosed: boolean;
  /** The link to the state store when sessions are shared through one. */
  readonly records: SessionRecords | undefined;
  /** Makes `entry` addressable here (until it ends, or another replica ends it). */
  hold(entry: SessionEntry): void;
  /** Answers without reading the body (see Endpoint.refuse). */
  refuse(req: IncomingMessage, res: ServerResponse, status: number, body: string, extra?: OutgoingHttpHeaders): void;
  /** Answers 429 for a principal over its share of `what` (limits.perPrincipal.`key`). */
  refuseShare(res: ServerResponse, id: JsonRpcId | null, what: string, key: keyof Shares): void;
}

/**
 * The session named by Mcp-Session-Id, or undefined after answering 400/403/404 for it. One held
 * here is a Map hit; one that is not is looked up in the state store, when sessions are shared,
 * and adopted (http-adopt.ts): then the answer is a promise.
 */
export function sessionFor(host: SessionRoutesHost, req: IncomingMessage, res: ServerResponse, principal: string | undefined): SessionEntry | undefined | Promise<SessionEntry | undefined> {
  const id = req.headers['mcp-session-id'];
  if (typeof id !== 'string') {
    host.refuse(req, res, 400, Refusal.missingSession);
    return undefined;
  }
  // Absent is fine: the spec says to assume 2025-03-26 then.
  const version = req.headers['mcp-protocol-version'];
  const entry = host.sessions.byId.get(id);
  if (entry === undefined) {
    if (host.records !== undefined) return adopt(host, req, res, id, principal).then((adopted) => adopted && checked(host, req, res, adopted, principal, version));
    host.refuse(req, res, 404, Refusal.sessionNotFound);
    return undefined;
  }
  return checked(host, req, res, entry, principal, version);
}

function checked(
  host: SessionRoutesHost,
  req: IncomingMessage,
  res: ServerResponse,
  entry: SessionEntry,
  principal: string | undefined,
  version: string | string[] | undefined,
): SessionEntry | undefined {
  // Another client's valid token does not open this client's session.
  if (entry.principal !== principal) {
    host.refuse(req, res, 403, Refusal.wrongClient);
    return undefined;
  }
  if (version !== undefined && !SUPPORTED_VERSIONS.has(version as string)) {
    host.refuse(req, res, 400, Refusal.badProtocolVersion);
    return undefined;
  }
  return entry;
}

/** Runs `then` with the session `found` names (now or once adopted); nothing when it was refused. */
export function withSession(found: SessionEntry | undefined | Promise<SessionEntry | undefined>, then: (entry: SessionEntry) => void): void {
  if (found === undefined) return;
  if (!(found instanceof Promise)) return then(found);
  found.then((entry) => entry && then(entry));
}

/**
 * Opens a session for an initialize; it becomes addressable only if the session says yes. It
 * takes one of `holder`'s share of sessions (an idle one may be ended to make room).
 */
export async function initializeSession(host: SessionRoutesHost, res: ServerResponse, request: JsonRpcRequest, principal: string | undefined, holder: Holding): Promise<void> {
  const { sessions, logger, records } = host;
  // The record could not be written: another replica would answer 404 for the session.
  if (records !== undefined && !records.up) return replyJson(res, 503, Refusal.storeDown, limitHeaders(1000));
  if (records?.shared === true) {
    sessions.splitAmong(records.store.liveReplicas());
    // The principal's sessions on every replica, counted once per initialize (never per call).
    const held = await records.store.countSessions(holder.key).catch(records.failed);
    if (held !== undefined && held >= sessions.principals.configured.sessions && !sessions.shedOwn(holder)) {
      return host.refuseShare(res, request.id, `${held} sessions across the replicas, none of them idle here`, 'sessions');
    }
  }
  const admission = sessions.admit(holder, Date.now());
  if (admission === 'share') return host.refuseShare(res, request.id, `${holder.sessions} sessions, none of them idle`, 'sessions');
  if (admission === 'full') {
    logger.warn({ limit: sessions.max }, 'refused initialize: too many sessions (limits.maxSessions)');
    return replyJson(res, 503, Refusal.tooManySessions, limitHeaders(1000));
  }
  let entry: SessionEntry;
  try {
    entry = new SessionEntry(host.opener, host.streams, logger, principal, false, { holder, principals: sessions.principals });
  } catch (err) {
    logger.error({ err }, 'openSession threw');
    return replyJson(res, 500, Refusal.internalError);
  }
  sessions.initializing.add(entry);
  const exchange = new PostExchange(res, entry, host.options.writeBufferBytes);
  const response = await exchange.obtain(request);
  sessions.initializing.delete(entry);
  const accepted = !isSplicedResponse(response) && !isErrorResponse(response) && !host.isClosed && !entry.closed;
  if (accepted) {
    host.hold(entry);
    await records?.put(entry, principal, holder.key);
  }
  exchange.finish(response, accepted);
  if (!accepted) entry.terminate();
  else logger.debug({ sessionId: entry.id }, 'session initialized');
}

/** GET: the session's one stream for what the server pushes outside any request. */
export function openGetStream(host: SessionRoutesHost, req: IncomingMessage, res: ServerResponse, principal: string | undefined): void {
  // Without a session there is no stream to open: stateless clients listen with a POST.
  if (req.headers['mcp-session-id'] === undefined) return host.refuse(req, res, 405, Refusal.getWithoutSession, POST_ONLY);
  if ((acceptFlags(req.headers.accept) & ACCEPT_EVENT_STREAM) === 0) {
    return host.refuse(req, res, 406, Refusal.getNotAcceptable);
  }
  withSession(sessionFor(host, req, res, principal), (entry) => getStream(host, req, res, entry));
}

function getStream(host: SessionRoutesHost, req: IncomingMessage, res: ServerResponse, entry: SessionEntry): void {
  const conn = connOf(req.socket);
  const lastEventId = req.headers['last-event-id'];
  // A POST's stream resumed is a stream of its own, not the session's GET stream: no 409 for it yet.
  if (entry.hasOpenGetStream() && (typeof lastEventId !== 'string' || entry.records === undefined)) return host.refuse(req, res, 409, Refusal.streamConflict);
  if (conn !== undefined && !host.connections.takeStream(conn, res)) return host.refuseShare(res, null, `${conn.holder.streams} streams open`, 'streams');
  const open = (replay?: readonly StoredEvent[]) => {
    entry.openGetStream(res, host.options.writeBufferBytes, replay);
    const { onGetStreamClosed } = host.options;
    if (onGetStreamClosed !== undefined) res.once('close', () => onGetStreamClosed(entry.id));
  };
  if (typeof lastEventId !== 'string') return open();
  // Without a store there are no events to replay: a fresh stream still carries every later push.
  if (entry.records === undefined) return open();
  void resume(host, req, res, entry, lastEventId, open);
}

/** DELETE: the client ends its session. */
export function deleteSession(host: SessionRoutesHost, req: IncomingMessage, res: ServerResponse, principal: string | undefined): void {
  if (req.headers['mcp-session-id'] === undefined) return host.refuse(req, res, 405, Refusal.deleteWithoutSession, POST_ONLY);
  withSession(sessionFor(host, req, res, principal), (entry) => {
    host.sessions.byId.delete(entry.id);
    entry.terminate();
    host.records?.ended(entry.id);
    host.logger.debug({ sessionId: entry.id }, 'session deleted by the client');
    replyEmpty(res, 200);
  });
}
