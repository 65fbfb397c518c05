// One client connection to one configured server, shared by every inbound session: transport,
// era and handshake (handshake.ts), request forwarding with the server's timeout, the server's
// notifications, resource subscriptions, and its life. What differs by era is its side
// (era-side.ts: the stateful one, stateless-side.ts: 2026-07-28's envelope and listen stream);
// its lists are server-listing.ts's, reconnecting server-recovery.ts's, OAuth server-login.ts's,
// starting each pipe (transport and Peer) server-pipe.ts's.
// It publishes state and lists; it never decides names or policy (the catalog does).
//
//   disabled            connecting ──ok──▶ ready ──drop──▶ backing-off ──timer──▶ connecting
//                          │                │                   │
//                          └──fail──▶ backing-off / failed ◀────┘ (crash-loop limit reached)
//                          │                │
//                          └─no token──▶ needs-login ◀─┘ (token refused, refresh refused): a new
//                             token in the store (switchboard login) is looked for every maxDelay

import { GatewayError, RpcError, describeError } from '../errors.js';
import type { IncomingContext, Peer, PeerAnswer } from '../jsonrpc/peer.js';
import { ErrorCode, isErrorResponse, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse } from '../protocol/jsonrpc.js';
import type { Logger } from '../log.js';
import type { JsonObject } from '../protocol/json.js';
import { LIST_KINDS } from '../protocol/mcp.js';
import type { ServerConfig } from '../config/types.js';
import type { AuthState, ServerAuth } from './auth/types.js';
import { Backoff, DEFAULT_BACKOFF } from './backoff.js';
import { ServerLogin } from './server-login.js';
import { Recovery } from './server-recovery.js';
import type { Era } from './era.js';
import { StatefulSide, type EraSide } from './era-side.js';
import { withDeclaredExtensions } from './envelope.js';
import { openServer } from './handshake.js';
import { failureReason, isFinal, type FailureReason } from './failure-reason.js';
import type { ListLimitError } from './list-fetch.js';
import { ServerListing } from './server-listing.js';
import { StatelessSide } from './stateless-side.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';
import { startPipe, type PipeHost } from './server-pipe.js';

export type { Era } from './era.js';
export type { RequestEnvelope } from './envelope.js';
export { SERVER_STATES, type ForwardOptions, type ServerConnectionEvents, type ServerConnectionOptions, type ServerLists, type ServerState } from './server-connection-types.js';
import type { ForwardOptions, ServerConnectionEvents, ServerConnectionOptions, ServerLists, ServerState } from './server-connection-types.js';

export class ServerConnection<O = never> {
  state: ServerState = 'connecting';
  /** Why the server is not ready, for logs, `check` and error messages (safe to show a client). */
  problem?: string;
  /** More on the problem for the operator only (the server's last stderr line): logs, check, status. */
  problemDetail?: string;
  /** The revision agreed: initialize's answer, or the stateless revision discover confirmed. */
  protocolVersion?: string;
  capabilities: JsonObject = {};
  /** The server's Implementation as sent (title and description are what the server directory reads; unchecked). */
  serverInfo?: { name?: string; version?: string; title?: unknown; description?: unknown };
  instructions?: string;
  /** Which transport HTTP `auto` settled on, for display. */
  transportKind: string;
  /** Why it last went down, as a metric label (failure-reason.ts); cleared when it is ready. */
  failure?: FailureReason;
  /** The error it last went down with (a per-user opening tells a refused credential from a server down). */
  lastError?: unknown;

  private peer?: Peer<O>;
  private readonly backoff: Backoff;
  // Plain timers, not rxjs: this is a state machine with at most one retry (server-recovery.ts)
  // and one grace timer (server-listing.ts) pending, each cancelled by a state change; an
  // Observable per state would be more to manage. (The catalog store and config watcher: rxjs.)
  private readonly recovery: Recovery;
  private everReady = false;
  private readonly login: ServerLogin;
  private readonly listing: ServerListing;
  private readonly resources: ResourceSubscriptions;
  private readonly stateless: StatelessSide<O>;
  private readonly stateful: StatefulSide<O>;
  private readonly pipes: PipeHost<O>;
  /**
   * What the server's era asks of the connection (era-side.ts), decided at the first handshake and
   * kept for the process's life (handshake.ts). Stateful until then: nothing sent depends on it.
   */
  private side: EraSide<O>;

  constructor(
    readonly config: ServerConfig,
    private readonly logger: Logger,
    private readonly events: ServerConnectionEvents<O> = {},
    private readonly options: ServerConnectionOptions<O> = {},
  ) {
    this.transportKind = config.kind === 'stdio' ? 'stdio' : config.transport;
    this.listing = new ServerListing({
      config,
      logger,
      keepsLists: options.fetchLists !== false,
      listLimits: options.listLimits,
      state: () => this.state,
      connected: () => this.peer !== undefined,
      capabilities: () => this.capabilities,
      fetchOne: (kind, bounds, previous) => this.side.fetch(this.peer!, kind, bounds, previous),
      changed: (kinds) => this.events.onChange?.(this, kinds),
      overLimit: (err) => this.overLimit(err),
    });
    this.backoff = new Backoff({ ...DEFAULT_BACKOFF, ...config.reconnect });
    this.login = new ServerLogin({ config, logger, auth: options.auth, changed: (state) => this.authChanged(state) });
    const { backoff, login } = this;
    this.recovery = new Recovery({ logger, backoff, login, reconnect: options.reconnect !== false, state: () => this.state, attempt: () => this.attempt() });
    if (!config.enabled) {
      this.state = 'disabled';
      this.problem = 'disabled in the config';
    } else if (options.needsConnect !== undefined) {
      this.state = 'needs-connect';
      this.problem = options.needsConnect;
    }
    this.stateless = new StatelessSide<O>({
      config,
      logger,
      clientCapabilities: withDeclaredExtensions(options.clientCapabilities),
      keepsLists: options.fetchLists !== false,
      protocolVersion: () => this.protocolVersion!,
      capabilities: () => this.capabilities,
      peer: () => (this.peer && !this.peer.isClosed && this.era === 'stateless' ? this.peer : undefined),
      subscribedUris: () => this.resources.uris,
      bounds: () => this.listing.bounds(this.config.timeoutMs),
      subscribe: (uri) => this.resources.subscribe(uri),
      unsubscribe: (uri) => this.resources.unsubscribe(uri),
    });
    this.resources = new ResourceSubscriptions({
      name: config.name,
      logger,
      way: () => this.side.subscriptions,
      checkReady: () => {
        if (this.state !== 'ready' || !this.peer) throw this.unavailable();
      },
      capabilities: () => this.capabilities,
      request: (method, params) => this.request(method, params),
      relisten: () => this.stateless.listener.refresh(),
    });
    const { maxMessageBytes, maxDepth, writeBufferBytes } = options;
    this.pipes = {
      config,
      logger,
      transport: { maxMessageBytes, maxDepth, writeBufferBytes, paramHeaders: this.stateless.paramHeaders },
      auth: () => this.login.get(),
      closed: () => this.state === 'closed',
      current: () => this.peer,
      adopt: (peer) => {
        this.peer = peer;
      },
      handlers: {
        onNotification: (n, owner) => this.receiveNotification(n, owner),
        onRequest: (request, context) => this.serveRequest(request, context),
        onProtocolError: (problem) => this.logger.warn({ problem }, 'protocol error from server'),
      },
      // Only the current peer's end matters; an old one closing late changes nothing.
      ended: (peer, reason) => {
        if (this.peer === peer && this.state === 'ready') this.down(reason ?? new Error('connection closed'));
      },
    };
    this.stateful = new StatefulSide<O>({ name: config.name, restoreSubscriptions: () => void this.resources.restore() });
    this.side = this.stateful;
  }

  /** The server's OAuth client state (HTTP servers, from the first connect on). */
  get auth(): ServerAuth | undefined {
    return this.login.auth;
  }

  /** Requests to the server waiting for their answers (a pool closes an idle connection only at 0). */
  get callsInFlight(): number {
    return this.peer?.pendingCount ?? 0;
  }

  /** When the next attempt is due (backing-off). */
  get retryAt(): number | undefined {
    return this.recovery.retryAt;
  }

  /** The era the server speaks (stateful until the first handshake). */
  get era(): Era {
    return this.side.era;
  }

  get name(): string {
    return this.config.name;
  }

  /** Whether the lists belong in the catalog: from a successful connect until the grace period after a drop ends. */
  get listed(): boolean {
    return this.listing.listed;
  }

  /** The server's lists as last fetched complete and within bounds (empty while not listed). */
  get lists(): ServerLists {
    return this.listing.lists;
  }

  /** Lists at 80% or more of a size bound, for `check` and `status` (see ListKeeper). */
  nearBounds(): string | undefined {
    return this.listing.nearBounds();
  }

  /** First connect: resolves once ready, or once the first attempt failed (retries go on in the background). */
  async connect(): Promise<void> {
    if (this.state === 'disabled' || this.state === 'closed' || this.state === 'needs-connect') return;
    await this.attempt();
  }

  /**
   * Forwards a request: the server's raw response (a JSON-RPC error stays a response; a 2026-07-28
   * result comes back as it is, input_required included), or a GatewayError. To a 2026-07-28
   * server, the stateful era's ping and logging/setLevel are answered here, and
   * resources/subscribe and unsubscribe become subscribe() and unsubscribe().
   */
  forward(method: string, params: JsonObject | undefined, options: ForwardOptions<O> = {}): Promise<PeerAnswer> {
    const observer = this.options.observer;
    return observer ? observer.call(this.name, method, params, (p) => this.dispatch(method, p, options)) : this.dispatch(method, params, options);
  }

  private dispatch(method: string, params: JsonObject | undefined, options: ForwardOptions<O>): Promise<PeerAnswer> {
    const peer = this.peer;
    if (this.state !== 'ready' || !peer) return Promise.reject(this.unavailable());
    const max = this.options.maxCallsInFlight;
    if (max !== undefined && peer.pendingCount - this.stateless.listener.inFlight >= max) {
      return Promise.reject(
        new GatewayError('LIMIT_EXCEEDED', `server "${this.name}" already has ${max} requests in flight (limits.maxCallsPerServer)`, { server: this.name, retryAfterMs: 1000, limit: 'server' }),
      );
    }
    if (options.timeoutMs === undefined) options.timeoutMs = this.config.timeoutMs;
    return this.side.forward(peer, method, params, options);
  }

  /** Forwards a request; resolves with the result, throws RpcError for the server's error. */
  async request(method: string, params?: JsonObject, options: ForwardOptions<O> = {}): Promise<JsonObject> {
    const response = (await this.forward(method, params, { ...options, raw: false })) as JsonRpcResponse;
    if (isErrorResponse(response)) throw RpcError.of(response.error);
    return response.result;
  }

  /**
   * Resolves once no list refetch is in flight or due (a list_changed received while connecting
   * is served right after): `check` reports the lists as they settled, not half-way through.
   */
  listsSettled(): Promise<void> {
    return this.listing.settled(this.state === 'ready');
  }

  /** A notification to the server, where its era has it (2026-07-28: cancellation only, which the Peer sends). */
  notify(method: string, params?: JsonObject): void {
    if (this.state !== 'ready' || !this.side.notifies(method)) return;
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
    this.login.stop();
    this.recovery.cancel();
    this.listing.close();
    this.stateless.listener.stop();
    await this.peer?.close().catch(() => {});
  }

  unavailable(): GatewayError {
    let why = this.problem ? `: ${this.problem}` : this.state === 'connecting' ? ': still connecting' : '';
    if (this.state === 'backing-off' && this.retryAt) why += ` (reconnecting in ${Math.max(0, Math.ceil((this.retryAt - Date.now()) / 1000))}s)`;
    return new GatewayError('SERVER_UNAVAILABLE', `server "${this.name}" is unavailable${why}`, { server: this.name });
  }

  private async attempt(): Promise<void> {
    this.state = 'connecting';
    this.recovery.retryAt = undefined;
    const started = Date.now();
    let deadline: NodeJS.Timeout | undefined;
    try {
      const limit = this.config.startupTimeoutMs;
      const expired = new Promise<never>((_, reject) => {
        deadline = setTimeout(() => reject(new GatewayError('SERVER_TIMEOUT', `did not finish starting within ${limit / 1000}s`, { server: this.name })), limit);
      });
      await Promise.race([this.open().then(() => this.listing.fetch()), expired]);
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
    this.listing.up();
    // The first connect is reported by whoever started it (serve's and check's line per server).
    const fields = { ms: Date.now() - started, era: this.era, protocolVersion: this.protocolVersion };
    if (reconnected) this.logger.info(fields, 'reconnected');
    else this.logger.debug(fields, 'ready');
    this.side.ready();
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
    this.stateless.listener.stop();
    this.problem = describeError(err);
    this.problemDetail = err instanceof GatewayError ? err.detail : undefined;
    this.failure = failureReason(err);
    this.lastError = err;
    this.events.onDown?.(this, this.failure);
    this.state = this.recovery.after(err, final, wasWaiting, this.problem, this.problemDetail);
    this.listing.down(wasListed, final);
    this.events.onChange?.(this, LIST_KINDS);
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

  /**
   * The token was refused and could not be renewed while the server was in use: it is down until
   * someone logs in, like a server that dropped (its items stay listed for downtimeGrace).
   */
  private authChanged(state: AuthState): void {
    if (state.status !== 'needs-login' || this.state !== 'ready') return;
    const peer = this.peer;
    this.down(this.login.refused(state));
    // Closed a turn later: the request whose refusal brought us here fails with its own clear
    // error first, not with "connection closed".
    setImmediate(() => void peer?.close().catch(() => {}));
  }

  /** A server's request to the client (sampling, elicitation, roots); ping is answered here. */
  private serveRequest(request: JsonRpcRequest, context: IncomingContext<O>): Promise<JsonObject> {
    if (request.method === 'ping') return Promise.resolve({});
    const handle = this.events.onRequest;
    if (!handle) return Promise.reject(new RpcError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`));
    return handle(this, request, this.options.owner !== undefined ? { ...context, owner: this.options.owner } : context);
  }

  private async open(): Promise<Peer<O>> {
    const opened = await openServer<O>({
      config: this.config,
      logger: this.logger,
      clientCapabilities: withDeclaredExtensions(this.options.clientCapabilities),
      open: (kind, version) => startPipe(this.pipes, kind, version),
    });
    const id = opened.identity;
    this.side = id.era === 'stateless' ? this.stateless : this.stateful;
    this.protocolVersion = id.protocolVersion;
    this.capabilities = id.capabilities;
    this.serverInfo = id.serverInfo;
    this.instructions = id.instructions;
    this.resources.connected();
    const kind = (opened.transport as { kind?: unknown }).kind;
    if (typeof kind === 'string') this.transportKind = kind;
    this.side.opened();
    return opened.peer;
  }

  private receiveNotification(n: JsonRpcNotification, owner?: O): void {
    const accepted = this.side.receive(n);
    if (accepted === undefined) return;
    n = accepted;
    if (this.listing.announced(n.method)) return;
    this.events.onNotification?.(this, n, owner ?? this.options.owner);
  }
}
