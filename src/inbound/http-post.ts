// A POST to the MCP path: Accept, Content-Type and declared size checked, the body's bytes
// reserved and read, the message parsed once and classified, then handed to initialize, its
// session, or its profile's stateless entry. Each request holds one of its principal's calls in
// flight (a subscriptions/listen one of its streams) until answered; over the share, 429 at once.

import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { GatewayError } from '../errors.js';
import { parseJsonText } from '../jsonrpc/parse.js';
import { ErrorCode, classify, errorResponse, type JsonRpcMessage, type JsonRpcRequest } from '../protocol/jsonrpc.js';
import { isStatelessVersion } from '../protocol/stateless.js';
import { overBudget, type ByteBudget } from './budget.js';
import { readBody, type BodyOutcome } from './http-body.js';
import { ACCEPT_BOTH, acceptFlags, isJsonContentType } from './http-checks.js';
import type { Conn } from './http-connections.js';
import { statelessRequestProblem, postClaimsStateless } from './http-stateless.js';
import { CLOSE_HEADERS, Refusal, replyEmpty, replyJson } from './http-reply.js';
import { SessionEntry } from './http-session.js';
import { PostExchange } from './http-exchange.js';
import { initializeSession, sessionFor, type SessionRoutesHost } from './http-session-routes.js';
import { Holding, type Principals } from './principals.js';

const NO_SESSION =
  'Bad Request: missing Mcp-Session-Id header. Send initialize first (protocol 2025-11-25 and earlier), or send every request with the 2026-07-28 _meta envelope and MCP-Protocol-Version header.';

/** What a POST needs of the endpoint. */
export interface PostHost extends SessionRoutesHost {
  readonly principals: Principals;
  /** Per client profile, the entry serving its stateless-revision requests (made on first use). */
  readonly statelessEntries: Map<string | undefined, SessionEntry>;
  readonly maxDepth: number;
  /** The bodies of the 413 and deep-nesting refusals, made once. */
  readonly tooLarge: string;
  readonly tooDeep: string;
  /** Counts a reply as open until it is written (drain waits for it). */
  track(res: ServerResponse): void;
  /** A limit reached, answered before the body is read: 429 or 503 with Retry-After. */
  refuseLimit(req: IncomingMessage, res: ServerResponse, err: GatewayError, extra?: OutgoingHttpHeaders): void;
  readonly logRejection: (err: unknown) => void;
}

/** What readBody hands back to onPostBody: one object per POST instead of a closure. */
interface PostContext {
  host: PostHost;
  res: ServerResponse;
  headers: IncomingMessage['headers'];
  /** The authenticated client profile, when clients are configured. */
  principal?: string;
  /** Whose share of calls in flight the request takes: the principal its connection is charged to. */
  holder: Holding;
  conn: Conn | undefined;
  /** Undefined when the POST carried no Mcp-Session-Id (only initialize may). */
  entry: SessionEntry | undefined;
  /** The budget the body's bytes were reserved against, and how many. */
  budget: ByteBudget;
  reserved: number;
}

export function onPost(host: PostHost, req: IncomingMessage, res: ServerResponse, principal: string | undefined, conn: Conn | undefined): void {
  const headers = req.headers;
  if ((acceptFlags(headers.accept) & ACCEPT_BOTH) !== ACCEPT_BOTH) {
    return host.refuse(req, res, 406, Refusal.postNotAcceptable);
  }
  if (!isJsonContentType(headers['content-type'])) {
    return host.refuse(req, res, 415, Refusal.unsupportedMediaType);
  }
  const length = headers['content-length'];
  if (length !== undefined && Number(length) > host.options.maxMessageBytes) {
    return host.refuse(req, res, 413, host.tooLarge);
  }
  // Without a session id only initialize or a stateless request is valid, and that needs the
  // body to tell. A stateless request ignores any session id it carries (2026-07-28).
  if (headers['mcp-session-id'] !== undefined && !isStatelessVersion(headers['mcp-protocol-version'])) {
    const found = sessionFor(host, req, res, principal);
    if (found === undefined) return;
    // A session held elsewhere is adopted first; the body waits unread meanwhile.
    if (found instanceof Promise) return void found.then((entry) => entry && readPost(host, req, res, principal, conn, entry));
    return readPost(host, req, res, principal, conn, found);
  }
  readPost(host, req, res, principal, conn, undefined);
}

function readPost(host: PostHost, req: IncomingMessage, res: ServerResponse, principal: string | undefined, conn: Conn | undefined, entry: SessionEntry | undefined): void {
  const length = req.headers['content-length'];
  // The body's bytes are reserved before any is read (all of maxMessageBytes when the length is
  // not declared): many large bodies at once are refused up front, not buffered.
  // Without a session (yet), they count against the principal's budget, whose parent is the gateway's.
  const holder = conn?.holder ?? new Holding('detached', principal === undefined);
  const budget = entry !== undefined ? entry.session.budget : host.principals.budgetOf(holder);
  const reserved = length !== undefined ? Number(length) : host.options.maxMessageBytes;
  const full = budget.take(reserved);
  if (full) return host.refuseLimit(req, res, overBudget(full, reserved));
  const ctx: PostContext = { host, res, headers: req.headers, entry, principal, budget, reserved, holder, conn };
  readBody(req, host.options.maxMessageBytes, ctx, onPostBody);
}

function onPostBody(ctx: PostContext, outcome: BodyOutcome): void {
  const { host, res, entry, budget } = ctx;
  if (outcome === 'aborted' || outcome === 'too-large') {
    budget.give(ctx.reserved);
    if (outcome === 'aborted') return;
    host.logger.debug({ status: 413 }, 'request refused: body over the limit');
    return replyJson(res, 413, host.tooLarge, CLOSE_HEADERS);
  }
  // From here the request holds what it really is; the rest of the reservation goes back.
  const held = outcome.length;
  budget.give(ctx.reserved - held);
  const release = () => budget.give(held);
  const parsed = parseJsonText(outcome.toString('utf8'), host.maxDepth);
  if (!parsed.ok) {
    release();
    return replyJson(res, 400, parsed.why === 'invalid-json' ? Refusal.parseError : host.tooDeep);
  }
  if (Array.isArray(parsed.value)) {
    release();
    return replyJson(res, 400, Refusal.batch);
  }
  const kind = classify(parsed.value);
  if (kind === 'invalid') {
    release();
    return replyJson(res, 400, Refusal.invalidMessage);
  }
  const message = parsed.value as JsonRpcMessage;
  const method = kind === 'request' ? (message as JsonRpcRequest).method : undefined;
  // A ping is not work: a session kept only by pings still idles out and is shed first.
  if (entry !== undefined && method !== 'ping') entry.touch();
  if (method === 'initialize') {
    if (entry !== undefined) {
      release();
      return replyJson(res, 400, Refusal.alreadyInitialized);
    }
    const end = startCall(ctx, message as JsonRpcRequest, release);
    if (end !== undefined) void initializeSession(host, res, message as JsonRpcRequest, ctx.principal, ctx.holder).finally(end);
    return;
  }
  if (entry === undefined && postClaimsStateless(ctx.headers, message as { method?: unknown; params?: unknown })) {
    return onStatelessPost(ctx, message, kind, release);
  }
  if (entry === undefined) {
    release();
    const id = kind === 'request' ? (message as JsonRpcRequest).id : null;
    return replyJson(res, 400, JSON.stringify(errorResponse(id, ErrorCode.InvalidRequest, NO_SESSION)));
  }
  if (entry.closed) {
    release();
    // Deleted while the body was streaming in: 404 like any later request.
    return replyJson(res, 404, Refusal.sessionNotFound);
  }
  if (kind === 'request') {
    const end = startCall(ctx, message as JsonRpcRequest, release);
    if (end === undefined) return;
    host.track(res);
    void new PostExchange(res, entry, host.options.writeBufferBytes, undefined, undefined, host.principals.callShare(ctx.holder)).run(message as JsonRpcRequest).finally(end);
    return;
  }
  // Notifications and responses: accepted once handed over; the session does the rest.
  try {
    entry.session.handle(message).catch(host.logRejection);
  } catch (err) {
    host.logger.error({ err }, 'session.handle threw');
  }
  release();
  replyEmpty(res, 202, entry.id);
}

/**
 * A POST of the stateless revision: its headers checked against its body (HTTP 400 with the
 * request's id when they disagree), then served by this profile's stateless session.
 */
function onStatelessPost(ctx: PostContext, message: JsonRpcMessage, kind: string, release: () => void): void {
  const { host, res } = ctx;
  if (kind !== 'request') {
    // No client notification means anything over HTTP in this revision (closing a stream cancels).
    release();
    return replyEmpty(res, 202);
  }
  const request = message as JsonRpcRequest;
  const problem = statelessRequestProblem(ctx.headers, request.method, request.params);
  if (problem !== undefined) {
    release();
    host.logger.debug({ method: request.method, code: problem.code }, 'stateless request refused');
    return replyJson(res, 400, JSON.stringify(errorResponse(request.id, problem.code, problem.message, problem.data)));
  }
  let entry = host.statelessEntries.get(ctx.principal);
  if (entry === undefined || entry.closed) {
    try {
      entry = new SessionEntry(host.opener, host.streams, host.logger, ctx.principal, true);
    } catch (err) {
      release();
      host.logger.error({ err }, 'openStatelessSession threw');
      return replyJson(res, 500, Refusal.internalError);
    }
    host.statelessEntries.set(ctx.principal, entry);
  }
  // A listen is a stream that lasts, not a call: it takes one of the principal's streams.
  const end = request.method === 'subscriptions/listen' ? startStream(ctx, request, release) : startCall(ctx, request, release);
  if (end === undefined) return;
  host.track(res);
  void new PostExchange(res, entry, host.options.writeBufferBytes, ctx.headers, host.principals.budgetOf(ctx.holder), host.principals.callShare(ctx.holder)).run(request).finally(end);
}

/**
 * Takes one of the principal's calls in flight for `request`: the returned function gives it
 * back (and the body's bytes). Undefined after refusing the request (429): never queued.
 */
function startCall(ctx: PostContext, request: JsonRpcRequest, release: () => void): (() => void) | undefined {
  const { host, holder: h } = ctx;
  if (h.calls >= host.principals.shares.callsInFlight) {
    release();
    host.refuseShare(ctx.res, request.id, `${h.calls} requests in flight`, 'callsInFlight');
    return undefined;
  }
  h.calls++;
  return () => {
    release();
    if (--h.calls === 0) host.principals.release(h);
  };
}

/** The same for a stream: one of the principal's streams while the reply is open. */
function startStream(ctx: PostContext, request: JsonRpcRequest, release: () => void): (() => void) | undefined {
  const { host } = ctx;
  if (ctx.conn === undefined || host.connections.takeStream(ctx.conn, ctx.res)) return release;
  release();
  host.refuseShare(ctx.res, request.id, `${ctx.holder.streams} streams open`, 'streams');
  return undefined;
}
