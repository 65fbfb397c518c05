// One client connection to one configured server, shared by every inbound session: transport,
// era and handshake (handshake.ts), every page of every list the server offers, request
// forwarding with the server's timeout (2026-07-28 servers: with the per-request envelope), the
// server's notifications (a listen stream for 2026-07-28 servers), resource subscriptions, and its
// life: reconnect with backoff after a drop, its items kept listed for a grace period while it is
// down. It publishes state and lists; it never decides names or policy (the catalog does).
//
//   disabled            connecting ──ok──▶ ready ──drop──▶ backing-off ──timer──▶ connecting
//                          │                │                   │
//                          └──fail──▶ backing-off / failed ◀────┘ (crash-loop limit reached)
//                          │                │
//                          └─no token──▶ needs-login ◀─┘ (token refused, refresh refused): a new
//                             token in the store (switchboard login) is looked for every maxDelay

import { GatewayError, RpcError, describeError } from '../errors.js';
import { Peer, type PeerAnswer } from '../jsonrpc/peer.js';
import { ErrorCode, isErrorResponse, type JsonRpcNotification, type JsonRpcResponse } from '../protocol/jsonrpc.js';
import type { Logger } from '../log.js';
import { KINDS, LIST_CHANGED, LIST_KINDS, type ListKind } from '../protocol/mcp.js';
import type { ServerConfig } from '../config/types.js';
import { AuthError, AuthErrorCode, isLoginNeeded } from './auth/errors.js';
import type { AuthState, ServerAuth } from './auth/types.js';
import { Backoff, DEFAULT_BACKOFF } from './backoff.js';
import { legacyParams } from './envelope.js';
import type { Era } from './era.js';
import { openServer, type Pipe, type PipeKind } from './handshake.js';
import { failureReason, isFinal, type FailureReason } from './failure-reason.js';
import { ListLimitError, fetchAll } from './list-fetch.js';
import { ListKeeper } from './list-keeper.js';
import { ListRefetcher } from './list-refetch.js';
import { ModernSide } from './modern-side.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';
import { createTransport } from './transports.js';

export type { Era } from './era.js';
export type { RequestEnvelope } from './envelope.js';
export { SERVER_STATES, type ForwardOptions, type ServerConnectionEvents, type ServerConnectionOptions, type ServerLists, type ServerState } from './server-connection-types.js';
import type { ForwardOptions, ServerConnectionEvents, ServerConnectionOptions, ServerLists, ServerState } from './server-connection-types.js';

/**
 * Extensions the gateway declares on every connection: MCP Apps (`io.modelcontextprotocol/ui`), so
 * servers register their UI tools. One connection serves every session, and the catalog built from
 * it is what a per-session connection must match: the inbound side hides what a client without apps
 * must not see (docs/apps.md). (2026-07-28: the connection's default envelope; a request the router
 * sends with its client's own capabilities carries those.)
 */
const DECLARED_EXTENSIONS = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
const withDeclaredExtensions = (caps: Record<string, any> = {}) => ({ ...caps, extensions: { ...DECLARED_EXTENSIONS, ...caps.extensions } });

export class ServerConnection<O = never> {
  state: ServerState = 'connecting';
  /** Why the server is not ready, for logs, `check` and error messages (safe to show a client). */
  problem?: string;
  /** More on the problem for the operator only (the server's last stderr line): logs, check, status. */
  problemDetail?: string;
  /**
   * The era the server speaks, decided at the first handshake and kept for the process's life
   * (see handshake.ts). `legacy` until then: nothing has been sent that depends on it.
   */
  era: Era = 'legacy';
  /** The revision agreed: initialize's answer, or the stateless revision discover confirmed. */
  protocolVersion?: string;
  capabilities: Record<string, any> = {};
  /** The server's Implementation as sent (title and description are what the server directory reads; unchecked). */
  serverInfo?: { name?: string; version?: string; title?: unknown; description?: unknown };
  instructions?: string;
  /** Whether the lists belong in the catalog: from a successful connect until the grace period after a drop ends. */
  listed = false;
  /** Which transport HTTP `auto` settled on, for display. */
  transportKind: string;
  /** When the next attempt is due (backing-off). */
  retryAt?: number;
  /** The server's OAuth client state (HTTP servers, from the first connect on). */
  auth?: ServerAuth;
  /** Why it last went down, as a metric label (failure-reason.ts); cleared when it is ready. */
  failure?: FailureReason;

  private peer?: Peer<O>;
  private readonly backoff: Backoff;
  // Plain timers, not rxjs: this is a state machine with at most one retry and one grace timer
  // pending, each cancelled by a state change; an Observable per state would be more to manage
  // for the same two setTimeouts. (The catalog store and the config watcher are streams: rxjs.)
  private retryTimer?: NodeJS.Timeout;
  private graceTimer?: NodeJS.Timeout;
  private everReady = false;
  private stopWatchingAuth?: () => void;
  private readonly keeper: ListKeeper;
  private readonly refetcher = new ListRefetcher({
    readiness: () => (this.state === 'connecting' ? 'wait' : this.state === 'ready' && this.peer ? 'go' : 'drop'),
    fetch: (kind) => this.fetchLists(this.peer!, [kind]),
    fetched: (kind) => this.events.onChange?.(this, [kind]),
    // Closing fails what is in flight on purpose (`check` ends while a list_changed refetch runs).
    failed: (kind, err) => {
      if (err instanceof ListLimitError && this.state === 'ready') this.overLimit(err);
      else if (this.state === 'ready') this.logger.warn({ err: describeError(err) }, `refetching ${kind} failed`);
    },
    pacing: () => this.keeper.pacing(),
  });
  private readonly resources: ResourceSubscriptions;
  private readonly modern: ModernSide<O>;

  constructor(
    readonly config: ServerConfig,
    private readonly logger: Logger,
    private readonly events: ServerConnectionEvents<O> = {},
    private readonly options: ServerConnectionOptions<O> = {},
  ) {
    this.transportKind = config.kind === 'stdio' ? 'stdio' : config.transport;
    this.keeper = new ListKeeper(config, options.listLimits);
    this.backoff = new Backoff({ ...DEFAULT_BACKOFF, ...config.reconnect });
    if (!config.enabled) {
      this.state = 'disabled';
      this.problem = 'disabled in the config';
    }
    this.modern = new ModernSide<O>({
      config,
      logger,
      clientCapabilities: withDeclaredExtensions(options.clientCapabilities),
      keepsLists: options.fetchLists !== false,
      protocolVersion: () => this.protocolVersion!,
      capabilities: () => this.capabilities,
      peer: () => (this.peer && !this.peer.isClosed && this.era === 'modern' ? this.peer : undefined),
      subscribedUris: () => this.resources.uris,
      bounds: () => this.keeper.bounds(this.config.timeoutMs),
      subscribe: (uri) => this.resources.subscribe(uri),
      unsubscribe: (uri) => this.resources.unsubscribe(uri),
    });
    this.resources = new ResourceSubscriptions({
      name: config.name,
      logger,
      era: () => this.era,
      checkReady: () => {
        if (this.state !== 'ready' || !this.peer) throw this.unavailable();
      },
      capabilities: () => this.capabilities,
      request: (method, params) => this.request(method, params),
      relisten: () => this.modern.listener.refresh(),
    });
  }

  get name(): string {
    return this.config.name;
  }

  /** The server's lists as last fetched complete and within bounds (empty while not listed). */
  get lists(): ServerLists {
    return this.keeper.lists;
  }

  /** Lists at 80% or more of a size bound, for `check` and `status` (see ListKeeper). */
  nearBounds(): string | undefined {
    return this.keeper.nearBounds();
  }

  /** First connect: resolves once ready, or once the first attempt failed (retries go on in the background). */
  async connect(): Promise<void> {
    if (this.state === 'disabled' || this.state === 'closed') return;
    await this.attempt();
  }

  /**
   * Forwards a request: the server's raw response (a JSON-RPC error stays a response; a 2026-07-28
   * result comes back as it is, input_required included), or a GatewayError. To a 2026-07-28
   * server, the stateful era's ping and logging/setLevel are answered here, and
   * resources/subscribe and unsubscribe become subscribe() and unsubscribe().
   */
  forward(method: string, params: Record<string, any> | undefined, options: ForwardOptions<O> = {}): Promise<PeerAnswer> {
    const observer = this.options.observer;
    return observer ? observer.call(this.name, method, params, (p) => this.dispatch(method, p, options)) : this.dispatch(method, params, options);
  }

  private dispatch(method: string, params: Record<string, any> | undefined, options: ForwardOptions<O>): Promise<PeerAnswer> {
    const peer = this.peer;
    if (this.state !== 'ready' || !peer) return Promise.reject(this.unavailable());
    const max = this.options.maxCallsInFlight;
    if (max !== undefined && peer.pendingCount - this.modern.listener.inFlight >= max) {
      return Promise.reject(new GatewayError('LIMIT_EXCEEDED', `server "${this.name}" already has ${max} requests in flight (limits.maxCallsPerServer)`, { server: this.name, retryAfterMs: 1000, limit: 'server' }));
    }
    if (options.timeoutMs === undefined) options.timeoutMs = this.config.timeoutMs;
    if (this.era === 'legacy') return peer.requestRaw(method, legacyParams(params, options.envelope), options);
    return this.modern.forward(peer, method, params, options);
  }

  /** Forwards a request; resolves with the result, throws RpcError for the server's error. */
  async request(method: string, params?: Record<string, any>, options: ForwardOptions<O> = {}): Promise<Record<string, any>> {
    const response = (await this.forward(method, params, { ...options, raw: false })) as JsonRpcResponse;
    if (isErrorResponse(response)) throw RpcError.of(response.error);
    return response.result;
  }

  /**
   * Resolves once no list refetch is in flight or due (a list_changed received while connecting
   * is served right after): `check` reports the lists as they settled, not half-way through.
   */
  listsSettled(): Promise<void> {
    return this.refetcher.settled(this.state === 'ready');
  }

  /** A notification to the server. 2026-07-28 defines none from clients but cancellation (which the Peer sends). */
  notify(method: string, params?: Record<string, any>): void {
    if (this.state !== 'ready' || (this.era === 'modern' && method !== 'notifications/cancelled')) return;
    this.peer?.notify(method, params).catch(() => {});
  }

  /**
   * Asks the server for notifications/resources/updated about `uri`: resources/subscribe (stateful
   * era), or the listen stream's filter (2026-07-28; resolves once the new stream is acknowledged).
   * Rejects with the server's RpcError or a GatewayError. Kept across reconnects.
   */
  subscribe(uri: string): Promise<void> {
    return this.resources.subscribe(uri);
  }

  /** Stops the notifications about `uri` (resources/unsubscribe, or a listen stream without it). */
  unsubscribe(uri: string): Promise<void> {
    return this.resources.unsubscribe(uri);
  }

  /** The URIs subscribed through subscribe(). */
  get subscriptions(): ReadonlySet<string> {
    return this.resources.uris;
  }

  async close(): Promise<void> {
    if (this.state === 'disabled') return;
    this.state = 'closed';
    this.stopWatchingAuth?.();
    clearTimeout(this.retryTimer);
    clearTimeout(this.graceTimer);
    this.refetcher.release();
    this.modern.listener.stop();
    await this.peer?.close().catch(() => {});
  }

  unavailable(): GatewayError {
    let why = this.problem ? `: ${this.problem}` : this.state === 'connecting' ? ': still connecting' : '';
    if (this.state === 'backing-off' && this.retryAt) why += ` (reconnecting in ${Math.max(0, Math.ceil((this.retryAt - Date.now()) / 1000))}s)`;
    return new GatewayError('SERVER_UNAVAILABLE', `server "${this.name}" is unavailable${why}`, { server: this.name });
  }

  private async attempt(): Promise<void> {
    this.state = 'connecting';
    this.retryAt = undefined;
    const started = Date.now();
    let deadline: NodeJS.Timeout | undefined;
    try {
      const limit = this.config.startupTimeoutMs;
      const expired = new Promise<never>((_, reject) => {
        deadline = setTimeout(() => reject(new GatewayError('SERVER_TIMEOUT', `did not finish starting within ${limit / 1000}s`, { server: this.name })), limit);
      });
      const kinds = this.options.fetchLists === false ? [] : LIST_KINDS;
      await Promise.race([this.open().then((peer) => this.fetchLists(peer, kinds)), expired]);
    } catch (err) {
      clearTimeout(deadline);
      if ((this.state as ServerState) === 'closed') return;
      await this.peer?.close().catch(() => {});
      this.down(err);
      return;
    } finally {
      clearTimeout(deadline);
    }
    if ((this.state as ServerState) === 'closed') return;
    const reconnected = this.everReady;
    this.state = 'ready';
    this.problem = undefined;
    this.failure = undefined;
    this.everReady = true;
    this.backoff.up();
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    this.listed = this.options.fetchLists !== false;
    this.refetcher.resume();
    // The first connect is reported by whoever started it (serve's and check's line per server).
    const fields = { ms: Date.now() - started, era: this.era, protocolVersion: this.protocolVersion };
    if (reconnected) this.logger.info(fields, 'reconnected');
    else this.logger.debug(fields, 'ready');
    if (this.era === 'legacy') void this.resources.restore();
    this.events.onChange?.(this, LIST_KINDS);
    if (reconnected) this.events.onReconnect?.(this);
  }

  /**
   * The connection failed or dropped: back off and retry, or give up at the crash-loop limit. A
   * list over its size bound gives up at once: a retry would fetch the same list again.
   */
  private down(err: unknown): void {
    const wasListed = this.listed;
    const wasWaiting = this.state === 'needs-login';
    const final = isFinal(err);
    this.modern.listener.stop();
    this.problem = describeError(err);
    this.problemDetail = err instanceof GatewayError ? err.detail : undefined;
    this.failure = failureReason(err);
    this.events.onDown?.(this, this.failure);
    if (isLoginNeeded(err) && this.auth?.state().status === 'needs-login') {
      // Retrying cannot help until someone logs in: no backoff, no crash-loop count, one warning.
      this.state = 'needs-login';
      if (!wasWaiting) this.logger.warn({ problem: this.problem }, 'server needs an OAuth login');
      if (this.options.reconnect !== false) this.retryTimer = setTimeout(() => void this.lookForLogin(), this.loginCheckMs());
    } else {
      const delay = this.options.reconnect === false || final ? undefined : this.backoff.failed();
      if (delay === undefined) {
        this.state = 'failed';
        const why = this.options.reconnect === false || final ? '' : ` (gave up after ${this.backoff.failureCount - 1} attempts in a row)`;
        this.logger.error({ problem: this.problem, detail: this.problemDetail }, `server failed${why}`);
      } else {
        this.state = 'backing-off';
        this.retryAt = Date.now() + delay;
        this.retryTimer = setTimeout(() => void this.attempt(), delay);
        this.logger.warn({ problem: this.problem, detail: this.problemDetail, retryInMs: delay }, 'server down; reconnecting');
      }
    }
    if (wasListed && !final) this.startGrace();
    else this.forgetLists();
    this.events.onChange?.(this, LIST_KINDS);
  }

  /** Its items leave the catalog (at once, or when the grace period after a drop ends). */
  private forgetLists(): void {
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    this.listed = false;
    this.keeper.forget();
  }

  /**
   * A refetch went over a bound of its list: the server is down (failed at once over a size
   * bound, reconnecting over the time bound) and its connection is closed, which stops what else
   * it was sending. Nothing of the fetch was kept.
   */
  private overLimit(err: ListLimitError): void {
    const peer = this.peer;
    this.down(err);
    void peer?.close().catch(() => {});
  }

  /** How often a server waiting for a login looks for a new token: its longest reconnect delay. */
  private loginCheckMs(): number {
    return this.config.reconnect?.maxDelayMs ?? DEFAULT_BACKOFF.maxDelayMs;
  }

  /** needs-login: connect again once the token store has a token for us (a login elsewhere). */
  private async lookForLogin(): Promise<void> {
    await this.auth!.headers().catch(() => undefined); // re-reads the store while a login is needed
    if (this.state !== 'needs-login') return;
    if (this.auth!.state().status === 'needs-login') {
      this.retryTimer = setTimeout(() => void this.lookForLogin(), this.loginCheckMs());
      return;
    }
    await this.attempt();
  }

  /**
   * The token was refused and could not be renewed while the server was in use: it is down until
   * someone logs in, like a server that dropped (its items stay listed for downtimeGrace).
   */
  private authChanged(state: AuthState): void {
    if (state.status !== 'needs-login' || this.state !== 'ready') return;
    const peer = this.peer;
    const message = `server "${this.name}" needs an OAuth login (${state.reason ?? 'token refused'}). Run: switchboard login ${this.name}`;
    this.down(new GatewayError('HTTP_ERROR', message, { server: this.name, cause: new AuthError(AuthErrorCode.AUTH_REQUIRED, this.name, message) }));
    // Closed a turn later: the request whose refusal brought us here fails with its own clear
    // error first, not with "connection closed".
    setImmediate(() => void peer?.close().catch(() => {}));
  }

  /** A dropped server's items stay listed for a while, so a quick restart is invisible to clients. */
  private startGrace(): void {
    // Once per drop: failed reconnect attempts must not push the end of the grace period back.
    if (this.graceTimer) return;
    const graceMs = this.config.downtimeGraceMs ?? 30_000;
    this.graceTimer = setTimeout(() => {
      this.graceTimer = undefined;
      if (this.state === 'ready') return;
      this.forgetLists();
      this.logger.warn(`still down after ${graceMs / 1000}s; its items leave the catalog until it is back`);
      this.events.onChange?.(this, LIST_KINDS);
    }, graceMs);
  }

  /** HTTP servers: their OAuth client state, one per server for the whole process (every connection shares the token and its refresh). */
  private async serverAuth(): Promise<ServerAuth | undefined> {
    if (this.config.kind !== 'http') return undefined;
    if (!this.auth) {
      this.auth = this.options.auth ?? (await import('./auth/registry.js')).serverAuthFor(this.config, this.logger);
      this.stopWatchingAuth = this.auth.onStatus((state) => this.authChanged(state));
    }
    return this.auth;
  }

  /** A started pipe with its Peer, which becomes the connection's (a probe's pipe is replaced by the next). */
  private async openPipe(kind: PipeKind, version?: string): Promise<Pipe<O>> {
    if (this.peer && !this.peer.isClosed) await this.peer.close().catch(() => {});
    const closed = () => new GatewayError('CONNECTION_CLOSED', `connection to ${this.name} closed while opening`, { server: this.name });
    if (this.state === 'closed') throw closed();
    const { maxMessageBytes, maxDepth, writeBufferBytes } = this.options;
    const transport = await createTransport(this.config, kind, { logger: this.logger, maxMessageBytes, maxDepth, writeBufferBytes, version, paramHeaders: this.modern.paramHeaders, auth: await this.serverAuth() });
    const peer = new Peer<O>(
      transport,
      {
        onNotification: (n, owner) => this.receiveNotification(n, owner),
        onRequest: (request, context) => {
          if (request.method === 'ping') return Promise.resolve({});
          const handle = this.events.onRequest;
          if (!handle) return Promise.reject(new RpcError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`));
          return handle(this, request, this.options.owner !== undefined ? { ...context, owner: this.options.owner } : context);
        },
        onProtocolError: (problem) => this.logger.warn({ problem }, 'protocol error from server'),
        // Only the current peer's end matters; an old one closing late changes nothing.
        onClose: (reason) => {
          if (this.peer === peer && this.state === 'ready') this.down(reason ?? new Error('connection closed'));
        },
      },
      this.name,
      this.options.maxDepth,
    );
    this.peer = peer;
    await peer.start();
    // close() may have run meanwhile, before this peer was there to close.
    if ((this.state as ServerState) === 'closed') {
      await peer.close().catch(() => {});
      throw closed();
    }
    return { peer, transport };
  }

  private async open(): Promise<Peer<O>> {
    const opened = await openServer<O>({
      config: this.config,
      logger: this.logger,
      clientCapabilities: withDeclaredExtensions(this.options.clientCapabilities),
      open: (kind, version) => this.openPipe(kind, version),
    });
    const id = opened.identity;
    this.era = id.era;
    this.protocolVersion = id.protocolVersion;
    this.capabilities = id.capabilities;
    this.serverInfo = id.serverInfo;
    this.instructions = id.instructions;
    this.resources.connected();
    const kind = (opened.transport as { kind?: unknown }).kind;
    if (typeof kind === 'string') this.transportKind = kind;
    // Opened before the lists are fetched, so a change made meanwhile is not missed (it refetches).
    if (this.era === 'modern') void this.modern.listener.refresh().catch((err) => this.logger.warn({ err: describeError(err) }, 'opening the listen stream failed'));
    return opened.peer;
  }

  /** Fetches every page of the given lists that the server's capabilities offer. */
  private async fetchLists(peer: Peer<O>, kinds: readonly ListKind[]): Promise<void> {
    // At start-up the overall startupTimeout bounds this too; later, each page gets the request
    // timeout. Either way the whole fetch of one list is bounded (limits.listFetchTimeout).
    const pageTimeoutMs = this.state === 'ready' ? this.config.timeoutMs : this.config.startupTimeoutMs;
    await this.keeper.fetch(kinds, pageTimeoutMs, (kind, bounds, previous) => {
      if (!this.capabilities[KINDS[kind].capability]) return undefined;
      if (this.era === 'legacy') return fetchAll(peer, kind, bounds, this.name, previous);
      if (kind === 'tools') return this.modern.loadTools(peer, bounds, previous);
      return fetchAll(this.modern.requester(peer), kind, bounds, this.name, previous);
    });
  }

  private receiveNotification(n: JsonRpcNotification, owner?: O): void {
    if (this.era === 'modern') {
      const accepted = this.modern.receive(n);
      if (!accepted) return;
      n = accepted;
    }
    const kinds = LIST_CHANGED.get(n.method);
    if (kinds) {
      if (this.options.fetchLists === false) return;
      for (const kind of kinds) this.refetcher.request(kind);
      return;
    }
    this.events.onNotification?.(this, n, owner ?? this.options.owner);
  }
}
