// The inbound Streamable HTTP endpoint (MCP 2025-03-26 … 2026-07-28) on node:http: one path,
// POST/GET/DELETE, Origin/Host checks, sessions keyed by Mcp-Session-Id, and stateless POSTs of
// the 2026-07-28 revision served per client profile without one. It owns bytes and HTTP
// semantics only; MCP semantics live in the sessions the SessionOpener opens. Every connection,
// session, stream and call is charged to a principal (principals.ts) and bounded by its share.

import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Slots } from '../jsonrpc/churn.js';
import { DEFAULT_MAX_DEPTH } from '../jsonrpc/parse.js';
import { ErrorCode, errorResponse, type JsonRpcId } from '../protocol/jsonrpc.js';
import { GatewayError } from '../errors.js';
import { OriginPolicy, allowedHostNames, hostAllowed } from './http-checks.js';
import { ALLOW_HEADERS, CLOSE_HEADERS, Refusal, errorBody, limitHeaders, limitStatus, replyJson, tooLargeBody } from './http-reply.js';
import type { SessionEntry } from './http-session.js';
import { SessionTable } from './http-session-table.js';
import { Connections, connOf } from './http-connections.js';
import { DEFAULT_SHARES, Principals, type Shares } from './principals.js';
import type { SseStream } from './http-sse.js';
import { refusalBodies, type AuthVerdict } from './http-auth.js';
import type { SessionOpener } from './session-opener.js';
import type { HttpEndpoint, HttpEndpointLogger, HttpEndpointOptions, Page } from './http-endpoint-options.js';
import { deleteSession, openGetStream } from './http-session-routes.js';
import { onPost, type PostHost } from './http-post.js';
import { SessionRecords } from './http-records.js';

export async function startHttpEndpoint(opener: SessionOpener, options: HttpEndpointOptions): Promise<HttpEndpoint> {
  const endpoint = new Endpoint(opener, options);
  const url = await endpoint.listen();
  return {
    url,
    sessionCount: () => endpoint.sessions.size,
    sessionActivity: () => endpoint.sessions.activity(),
    stopAccepting: () => endpoint.stopAccepting(),
    handOver: () => endpoint.handOver(),
    drain: () => endpoint.drain(),
    close: () => endpoint.close(),
  };
}

/** How soon a client whose stream was handed back (drain) reconnects. */
const HAND_OVER_RETRY_MS = 1000;
/** Idle SSE streams get a comment this often, so proxies and NATs do not cut them. */
const PING_INTERVAL_MS = 25_000;
/** Request headers must be complete this soon: a client trickling them holds a socket for nothing. */
const HEADERS_TIMEOUT_MS = 10_000;
const NO_LOG: HttpEndpointLogger = { debug() {}, info() {}, warn() {}, error() {} };

class Endpoint implements PostHost {
  readonly sessions: SessionTable;
  readonly principals: Principals;
  readonly connections: Connections;
  /** Per client profile, the entry serving its stateless-revision requests (made on first use). */
  readonly statelessEntries = new Map<string | undefined, SessionEntry>();
  readonly streams = new Slots<SseStream>();
  private readonly server: Server;
  private readonly origins: OriginPolicy;
  readonly logger: HttpEndpointLogger;
  readonly tooLarge: string;
  readonly maxDepth: number;
  readonly tooDeep: string;
  /** Host header names that may reach us (DNS-rebinding protection, on any bind address). */
  private hostNames: ReadonlySet<string> = new Set();
  private pinger: NodeJS.Timeout | undefined;
  private closing: Promise<void> | undefined;
  private closed = false;
  get isClosed(): boolean {
    return this.closed;
  }
  private draining = false;
  private openReplies = 0;
  private readonly drainWaiters: (() => void)[] = [];
  private serverClosed?: Promise<void>;
  readonly logRejection = (err: unknown): void => this.logger.error({ err }, 'session.handle rejected');
  /** The link to the state store, when one is given: sessions are recorded there and adopted from it. */
  readonly records: SessionRecords | undefined;
  /** Another replica ended a session held here: forget it (bound once). */
  private readonly forget = (entry: SessionEntry): void => {
    if (this.sessions.byId.get(entry.id) === entry) this.sessions.byId.delete(entry.id);
  };

  constructor(
    readonly opener: SessionOpener,
    readonly options: HttpEndpointOptions,
  ) {
    this.origins = new OriginPolicy(options.allowedOrigins);
    this.logger = options.logger ?? NO_LOG;
    this.tooLarge = tooLargeBody(options.maxMessageBytes);
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.tooDeep = errorBody(ErrorCode.InvalidRequest, `Invalid Request: the message is nested deeper than ${this.maxDepth} levels (limits.maxDepth)`);
    this.principals = new Principals(options.shares ?? DEFAULT_SHARES);
    const idleTimeoutMs = options.sessionIdleTimeoutMs ?? 3_600_000;
    const store = options.store;
    this.records = store === undefined ? undefined : new SessionRecords(store, idleTimeoutMs, this.logger, () => opener.keyId ?? '');
    this.sessions = new SessionTable(
      options.maxSessions ?? 1000,
      idleTimeoutMs,
      (entry) => {
        this.logger.info({ sessionId: entry.id }, 'session closed after being idle');
        entry.terminate();
        // Idle here is not idle everywhere: with other replicas the record lives on its own TTL,
        // which whoever serves the session pushes out. Alone, the session ends as it always did.
        if (store !== undefined && store.liveReplicas() === 1) this.records!.ended(entry.id);
      },
      this.principals,
      (entry, why) => {
        this.logger.info({ sessionId: entry.id }, `session closed to make room: ${why}`);
        this.records?.ended(entry.id);
      },
      options.streamlessSessionIdleTimeoutMs,
    );
    const maxConnections = options.maxConnections ?? 512;
    this.connections = new Connections(this.principals, maxConnections, options.headersGraceMs ?? 1000, this.logger);
    const requestTimeout = options.requestTimeoutMs ?? 30_000;
    // Node 20 enables TCP_NODELAY by default; keepAlive here is TCP probes for long SSE streams.
    // requestTimeout bounds receiving a request (headers and body), not the response: SSE replies
    // may last for hours. The checking interval makes those deadlines bite within a second.
    this.server = createServer(
      { keepAlive: true, noDelay: true, requestTimeout, headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout), connectionsCheckingInterval: 1000 },
      this.onRequest.bind(this),
    );
    // Longer than common proxy idle timeouts (60 s) so the proxy, not us, closes idle sockets.
    this.server.keepAliveTimeout = 65_000;
    // Connections decides who goes past maxConnections (http-connections.ts); node:http's own cap
    // is only a backstop for sockets it still counts while they close.
    this.server.on('connection', (socket: Socket) => this.connections.accept(socket));
    this.server.maxConnections = maxConnections * 2 + 16;
  }

  async listen(): Promise<string> {
    const { server } = this;
    const bound = this.options.bound;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      const listening = () => {
        server.off('error', reject);
        resolve();
      };
      // A bound port's socket is taken over as it is; the connections it held come after.
      if (bound) server.listen(bound.server, listening);
      else server.listen(this.options.port, this.options.host, listening);
    });
    bound?.handOver((socket) => {
      server.emit('connection', socket);
      socket.resume();
    });
    server.on('error', (err) => this.logger.error({ err }, 'HTTP server error'));
    const { address, port } = server.address() as AddressInfo;
    this.hostNames = allowedHostNames(address, this.options.host, this.options.allowedHosts ?? []);
    this.pinger = setInterval(pingStreams, PING_INTERVAL_MS, this.streams);
    this.pinger.unref();
    // An unspecified bind address is not dialable; name loopback in the URL instead.
    const shown = address === '0.0.0.0' ? '127.0.0.1' : address === '::' ? '[::1]' : address.includes(':') ? `[${address}]` : address;
    const url = `http://${shown}:${port}${this.options.path}`;
    this.logger.debug({ url }, 'MCP HTTP endpoint listening');
    return url;
  }

  hold(entry: SessionEntry): void {
    this.sessions.byId.set(entry.id, entry);
    entry.dropped = this.forget;
  }

  /**
   * Draining, with sessions shared by other replicas: every SSE stream still open is told to come
   * back in a second and closed; its client reconnects (to another replica, with Last-Event-ID)
   * and resumes. Alone, there is nowhere to go: streams end with close() as they always did.
   */
  handOver(): void {
    if (this.records?.shared !== true) return;
    let n = 0;
    for (const stream of this.streams.values()) {
      stream.retry(HAND_OVER_RETRY_MS);
      stream.end();
      n++;
    }
    if (n > 0) this.logger.info({ streams: n }, 'draining: open streams handed back to their clients, to resume on another replica');
  }

  /** Counts a request's reply as open until it is fully written (or its client left). */
  track(res: ServerResponse): void {
    this.openReplies++;
    res.once('close', () => {
      if (--this.openReplies === 0) for (const done of this.drainWaiters.splice(0)) done();
    });
  }

  /** Resolves once every request in progress has been answered and its reply written. */
  drain(): Promise<void> {
    if (this.openReplies === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  stopAccepting(): void {
    if (this.draining) return;
    this.draining = true;
    // Stops new connections; open keep-alive ones still reach onRequest and get 503.
    void this.stopListening();
  }

  /** server.close() once; resolves when the last connection is gone. */
  private stopListening(): Promise<void> {
    this.serverClosed ??= new Promise<void>((resolve) => this.server.close(() => resolve()));
    return this.serverClosed;
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    this.closed = true;
    clearInterval(this.pinger);
    this.records?.close();
    const stopped = this.stopListening();
    this.sessions.terminateAll();
    for (const entry of this.statelessEntries.values()) entry.terminate();
    this.statelessEntries.clear();
    for (const stream of this.streams.values()) stream.end();
    // Idle keep-alive sockets and anything still streaming: close() alone would wait for them.
    this.server.closeAllConnections();
    await stopped;
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const prefixed = this.options.prefixPage;
    if (prefixed !== undefined && path.startsWith(prefixed.prefix)) return this.servePrefixed(req, res, prefixed);
    const page = path === this.options.path ? undefined : this.options.pages?.get(path);
    if (path !== this.options.path && page === undefined) {
      return this.refuse(req, res, 404, Refusal.pathNotFound);
    }
    const headers = req.headers;
    if (!this.origins.allows(headers.origin)) {
      // Header values stay out of logs: only the fact and the peer.
      this.logger.warn({ method: req.method, remote: req.socket.remoteAddress }, 'refused request: Origin not allowed');
      return this.refuse(req, res, 403, Refusal.badOrigin);
    }
    if (!hostAllowed(headers.host, this.hostNames)) {
      this.logger.warn({ method: req.method, remote: req.socket.remoteAddress }, 'refused request: Host not allowed (listen.allowedHosts)');
      return this.refuse(req, res, 403, Refusal.badHost);
    }
    // A readiness probe hears of the drain from the page itself.
    if (this.draining && page?.whileDraining !== true) return this.refuse(req, res, 503, Refusal.shuttingDown, { 'Retry-After': '1' });
    if (page !== undefined && req.method !== 'GET' && req.method !== 'HEAD') {
      return this.refuse(req, res, 405, Refusal.methodNotAllowed, { Allow: 'GET, HEAD' });
    }
    if (page?.access === 'public') return page.serve(req, res, undefined);
    if (!this.options.authenticate) return this.authorized(req, res, page, undefined);
    const verdict = this.options.authenticate(headers.authorization);
    if (!(verdict instanceof Promise)) return this.judged(req, res, page, verdict);
    // The body stays unread (nothing listens for it) until the token is verified.
    verdict.then(
      (v) => (this.draining ? this.refuse(req, res, 503, Refusal.shuttingDown, { 'Retry-After': '1' }) : this.judged(req, res, page, v)),
      (err: unknown) => {
        this.logger.error({ err }, 'authenticate rejected');
        replyJson(res, 500, Refusal.internalError, CLOSE_HEADERS);
      },
    );
  }

  /** A page under the prefix: Host checked, no token, no Origin policy (its handler checks a POST's). */
  private servePrefixed(req: IncomingMessage, res: ServerResponse, prefixed: NonNullable<HttpEndpointOptions['prefixPage']>): void {
    if (!hostAllowed(req.headers.host, this.hostNames)) {
      this.logger.warn({ method: req.method, remote: req.socket.remoteAddress }, 'refused request: Host not allowed (listen.allowedHosts)');
      return this.refuse(req, res, 403, Refusal.badHost);
    }
    if (this.draining) return this.refuse(req, res, 503, Refusal.shuttingDown, { 'Retry-After': '1' });
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') return this.refuse(req, res, 405, Refusal.methodNotAllowed, { Allow: 'GET, HEAD, POST' });
    this.track(res);
    prefixed.serve(req, res);
  }

  /** Acts on the authenticator's verdict. */
  private judged(req: IncomingMessage, res: ServerResponse, page: Page | undefined, verdict: AuthVerdict): void {
    if (verdict === null || typeof verdict === 'object') {
      const refusal = verdict ?? { status: 401 as const, reason: 'missing or unknown bearer token', wwwAuthenticate: 'Bearer realm="switchboard"' };
      this.logger.warn({ method: req.method, remote: req.socket.remoteAddress, status: refusal.status }, `refused request: ${refusal.reason}`);
      // Answered before any of the body is read, and the connection closed: a client without
      // a valid token cannot hold a socket by trickling its body.
      const headers = refusal.wwwAuthenticate === undefined ? CLOSE_HEADERS : { 'WWW-Authenticate': refusal.wwwAuthenticate, ...CLOSE_HEADERS };
      return replyJson(res, refusal.status, refusalBodies[refusal.status], headers);
    }
    this.authorized(req, res, page, verdict);
  }

  /** A request that passed authentication (or needed none): its page, or the MCP methods. */
  private authorized(req: IncomingMessage, res: ServerResponse, page: Page | undefined, principal: string | undefined): void {
    // The connection is charged to whoever made its last request (two field reads when unchanged).
    const conn = connOf(req.socket);
    if (conn !== undefined && (!conn.authenticated || conn.principal !== principal) && !this.connections.identify(conn, principal)) {
      const shares = this.principals.shares;
      return this.refuseLimit(req, res, shareError(`${conn.holder.connections - 1} other connections, all busy (at most ${shares.connections})`, 'connections'), CLOSE_HEADERS);
    }
    if (page !== undefined) {
      if (principal !== undefined && !this.options.isOperator?.(principal)) return this.refuse(req, res, 403, Refusal.notOperator);
      return page.serve(req, res, principal);
    }
    const method = req.method;
    if (method === 'POST') return onPost(this, req, res, principal, conn);
    if (method === 'GET') return openGetStream(this, req, res, principal);
    if (method === 'DELETE') return deleteSession(this, req, res, principal);
    return this.refuse(req, res, 405, Refusal.methodNotAllowed, ALLOW_HEADERS);
  }

  /**
   * Answers without reading the body. Node then drains what is left to keep the connection;
   * a body that is large or of unknown length is not worth draining, so the connection closes.
   */
  refuse(req: IncomingMessage, res: ServerResponse, status: number, body: string, extra?: OutgoingHttpHeaders): void {
    this.logger.debug({ method: req.method, status }, 'request refused');
    const length = req.headers['content-length'];
    const drainable = length === undefined ? req.headers['transfer-encoding'] === undefined : Number(length) <= this.options.maxMessageBytes;
    replyJson(res, status, body, drainable ? extra : { ...extra, ...CLOSE_HEADERS });
  }

  /** A limit reached: 429 when it is this client's, 503 when it is the gateway's; Retry-After either way. */
  refuseLimit(req: IncomingMessage, res: ServerResponse, err: GatewayError, extra?: OutgoingHttpHeaders): void {
    this.logger.warn({ method: req.method, limit: err.limit }, err.message);
    const e = err.toJsonRpc();
    this.refuse(req, res, limitStatus(err.limit), errorBody(e.code, e.message, e.data), { ...limitHeaders(err.retryAfterMs), ...extra });
  }

  refuseShare(res: ServerResponse, id: JsonRpcId | null, what: string, key: keyof Shares): void {
    const err = shareError(`${what} (at most ${this.principals.shares[key]})`, key);
    this.logger.warn({ limit: err.limit, code: err.code }, err.message);
    const e = err.toJsonRpc();
    replyJson(res, limitStatus(err.limit), JSON.stringify(errorResponse(id, e.code, e.message, e.data)), limitHeaders(err.retryAfterMs));
  }
}

function pingStreams(streams: Slots<SseStream>): void {
  for (const stream of streams.values()) stream.comment('ping');
}

/** A principal over its share of one resource: 429 (its own limit) with Retry-After. */
function shareError(what: string, key: keyof Shares): GatewayError {
  return new GatewayError('LIMIT_EXCEEDED', `this client already holds ${what} (limits.perPrincipal.${key})`, { retryAfterMs: 1000, limit: 'principal' });
}
