// One client connection to one configured server, shared by every inbound session: transport,
// handshake (newest revision both sides speak), every page of every list the server offers,
// request forwarding with the server's timeout, and its life: reconnect with backoff after a
// drop, its items kept listed for a grace period while it is down. It publishes state and
// lists; it never decides names or policy (the catalog does).
//
//   disabled            connecting ──ok──▶ ready ──drop──▶ backing-off ──timer──▶ connecting
//                          │                │                   │
//                          └──fail──▶ backing-off / failed ◀────┘ (crash-loop limit reached)
//                          │                │
//                          └─no token──▶ needs-login ◀─┘ (token refused, refresh refused): a new
//                             token in the store (switchboard login) is looked for every maxDelay

import { GatewayError, RpcError, describeError } from '../errors.js';
import { Peer, type IncomingContext, type PeerAnswer, type RequestOptions } from '../jsonrpc/peer.js';
import { ErrorCode, isErrorResponse, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse } from '../protocol/jsonrpc.js';
import type { Logger } from '../log.js';
import { GATEWAY_NAME, GATEWAY_VERSION, KINDS, LATEST_PROTOCOL_VERSION, LIST_CHANGED, LIST_KINDS, isSupportedVersion, type ListKind } from '../protocol/mcp.js';
import type { ServerConfig } from '../config/types.js';
import type { Transport } from '../transport.js';
import { AuthError, AuthErrorCode } from './auth/errors.js';
import type { AuthState, ServerAuth } from './auth/types.js';
import { Backoff, DEFAULT_BACKOFF } from './backoff.js';
import { fetchAll } from './list-fetch.js';

export type ServerState = 'connecting' | 'ready' | 'backing-off' | 'failed' | 'needs-login' | 'disabled' | 'closed';

export type ServerLists = Record<ListKind, Record<string, any>[]>;

/** `O` is the owner type the layer above attributes requests to (the router's RequestOwner). */
export interface ServerConnectionEvents<O = never> {
  /** State or lists changed; `kinds` lists the lists that were (re)fetched. */
  onChange?: (connection: ServerConnection<O>, kinds: readonly ListKind[]) => void;
  /** A notification the catalog does not consume; `owner` is the request context it belongs to, when known. */
  onNotification?: (connection: ServerConnection<O>, notification: JsonRpcNotification, owner?: O) => void;
  /** A request from the server (sampling, elicitation, roots). */
  onRequest?: (connection: ServerConnection<O>, request: JsonRpcRequest, context: IncomingContext<O>) => Promise<Record<string, any>>;
  /** Connected again after a drop: server-side state (subscriptions, log level) needs restoring. */
  onReconnect?: (connection: ServerConnection<O>) => void;
}

export interface ServerConnectionOptions<O = never> {
  maxMessageBytes?: number;
  /** limits.maxDepth, limits.writeBuffer, limits.maxCallsPerServer. */
  maxDepth?: number;
  writeBufferBytes?: number;
  maxCallsInFlight?: number;
  /** Client capabilities we declare to the server (default: none). */
  clientCapabilities?: Record<string, any>;
  /** Fetch the lists at connect and on list_changed (default true; per-session connections don't). */
  fetchLists?: boolean;
  /** Owner of every server request on this connection (a per-session connection's session). */
  owner?: O;
  /** Reconnect after failures (default: on, with the server's policy). `check` turns it off. */
  reconnect?: boolean;
  /** HTTP: this OAuth client state instead of the process-wide one (the conformance driver's, interactive). */
  auth?: ServerAuth;
}

/** The stdio transport module, imported once (by the first stdio server to connect). */
let stdioModule: Promise<typeof import('./stdio-transport.js')> | undefined;
const loadStdio = () => (stdioModule ??= import('./stdio-transport.js'));

const emptyLists = (): ServerLists => ({ tools: [], prompts: [], resources: [], resourceTemplates: [] });

export class ServerConnection<O = never> {
  state: ServerState = 'connecting';
  /** Why the server is not ready, for logs, `check` and error messages (safe to show a client). */
  problem?: string;
  /** More on the problem for the operator only (the server's last stderr line): logs, check, status. */
  problemDetail?: string;
  protocolVersion?: string;
  capabilities: Record<string, any> = {};
  serverInfo?: { name?: string; version?: string };
  instructions?: string;
  lists: ServerLists = emptyLists();
  /** Whether the lists belong in the catalog: from a successful connect until the grace period after a drop ends. */
  listed = false;
  /** Which transport HTTP `auto` settled on, for display. */
  transportKind: string;
  /** When the next attempt is due (backing-off). */
  retryAt?: number;
  /** The server's OAuth client state (HTTP servers, from the first connect on). */
  auth?: ServerAuth;

  private peer?: Peer<O>;
  private readonly backoff: Backoff;
  // Plain timers, not rxjs: this is a state machine with at most one retry and one grace timer
  // pending, each cancelled by a state change; an Observable per state would be more to manage
  // for the same two setTimeouts. (The catalog store and the config watcher are streams: rxjs.)
  private retryTimer?: NodeJS.Timeout;
  private graceTimer?: NodeJS.Timeout;
  private everReady = false;
  private stopWatchingAuth?: () => void;
  private readonly refetching = new Set<ListKind>();
  private readonly refetchAgain = new Set<ListKind>();

  constructor(
    readonly config: ServerConfig,
    private readonly logger: Logger,
    private readonly events: ServerConnectionEvents<O> = {},
    private readonly options: ServerConnectionOptions<O> = {},
  ) {
    this.transportKind = config.kind === 'stdio' ? 'stdio' : config.transport;
    this.backoff = new Backoff({ ...DEFAULT_BACKOFF, ...config.reconnect });
    if (!config.enabled) {
      this.state = 'disabled';
      this.problem = 'disabled in the config';
    }
  }

  get name(): string {
    return this.config.name;
  }

  /** First connect: resolves once ready, or once the first attempt failed (retries go on in the background). */
  async connect(): Promise<void> {
    if (this.state === 'disabled' || this.state === 'closed') return;
    await this.attempt();
  }

  /** Forwards a request: the server's raw response (a JSON-RPC error stays a response), or a GatewayError. */
  forward(method: string, params: Record<string, any> | undefined, options: RequestOptions<O> = {}): Promise<PeerAnswer> {
    if (this.state !== 'ready' || !this.peer) return Promise.reject(this.unavailable());
    const max = this.options.maxCallsInFlight;
    if (max !== undefined && this.peer.pendingCount >= max) {
      return Promise.reject(new GatewayError('LIMIT_EXCEEDED', `server "${this.name}" already has ${max} requests in flight (limits.maxCallsPerServer)`, { server: this.name, retryAfterMs: 1000, limit: 'server' }));
    }
    if (options.timeoutMs === undefined) options.timeoutMs = this.config.timeoutMs;
    return this.peer.requestRaw(method, params, options);
  }

  /** Forwards a request; resolves with the result, throws RpcError for the server's error. */
  async request(method: string, params?: Record<string, any>, options: RequestOptions<O> = {}): Promise<Record<string, any>> {
    const response = (await this.forward(method, params, { ...options, raw: false })) as JsonRpcResponse;
    if (isErrorResponse(response)) throw RpcError.of(response.error);
    return response.result;
  }

  notify(method: string, params?: Record<string, any>): void {
    if (this.state === 'ready') this.peer?.notify(method, params).catch(() => {});
  }

  async close(): Promise<void> {
    if (this.state === 'disabled') return;
    this.state = 'closed';
    this.stopWatchingAuth?.();
    clearTimeout(this.retryTimer);
    clearTimeout(this.graceTimer);
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
    this.everReady = true;
    this.backoff.up();
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    this.listed = this.options.fetchLists !== false;
    for (const kind of this.refetchAgain) this.refetch(kind);
    this.refetchAgain.clear();
    this.logger.info({ ms: Date.now() - started }, reconnected ? 'reconnected' : 'ready');
    this.events.onChange?.(this, LIST_KINDS);
    if (reconnected) this.events.onReconnect?.(this);
  }

  /** The connection failed or dropped: back off and retry, or give up at the crash-loop limit. */
  private down(err: unknown): void {
    const wasListed = this.listed;
    const wasWaiting = this.state === 'needs-login';
    this.problem = describeError(err);
    this.problemDetail = err instanceof GatewayError ? err.detail : undefined;
    if (needsLogin(err) && this.auth?.state().status === 'needs-login') {
      // Retrying cannot help until someone logs in: no backoff, no crash-loop count, one warning.
      this.state = 'needs-login';
      if (!wasWaiting) this.logger.warn({ problem: this.problem }, 'server needs an OAuth login');
      if (this.options.reconnect !== false) this.retryTimer = setTimeout(() => void this.lookForLogin(), this.loginCheckMs());
    } else {
      const delay = this.options.reconnect === false ? undefined : this.backoff.failed();
      if (delay === undefined) {
        this.state = 'failed';
        const why = this.options.reconnect === false ? '' : ` (gave up after ${this.backoff.failureCount - 1} attempts in a row)`;
        this.logger.error({ problem: this.problem, detail: this.problemDetail }, `server failed${why}`);
      } else {
        this.state = 'backing-off';
        this.retryAt = Date.now() + delay;
        this.retryTimer = setTimeout(() => void this.attempt(), delay);
        this.logger.warn({ problem: this.problem, detail: this.problemDetail, retryInMs: delay }, 'server down; reconnecting');
      }
    }
    if (wasListed) this.startGrace();
    else this.lists = emptyLists();
    this.events.onChange?.(this, LIST_KINDS);
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
      this.listed = false;
      this.lists = emptyLists();
      this.logger.warn(`still down after ${graceMs / 1000}s; its items leave the catalog until it is back`);
      this.events.onChange?.(this, LIST_KINDS);
    }, graceMs);
  }

  private async createTransport(): Promise<Transport> {
    const c = this.config;
    const { maxMessageBytes, maxDepth, writeBufferBytes } = this.options;
    if (c.kind === 'stdio') {
      // Loaded on first use too: execa costs start-up time a config without stdio servers never needs.
      const { StdioTransport } = await loadStdio();
      return new StdioTransport({ command: c.command, args: c.args, env: c.env, inheritEnv: c.inheritEnv, cwd: c.cwd, logger: this.logger, maxMessageBytes, maxDepth, writeBufferBytes });
    }
    // Loaded on first use: undici and the SSE parser cost ~20 MB of memory a stdio-only setup never needs.
    const { createHttpTransport } = await import('./http-auto.js');
    if (!this.auth) {
      // One per server for the whole process (every connection to it shares the token and its refresh).
      this.auth = this.options.auth ?? (await import('./auth/registry.js')).serverAuthFor(c, this.logger);
      this.stopWatchingAuth = this.auth.onStatus((state) => this.authChanged(state));
    }
    return createHttpTransport({ url: c.url, headers: c.headers, transport: c.transport, logger: this.logger, maxMessageBytes, maxDepth, auth: this.auth });
  }

  private async open(): Promise<Peer<O>> {
    const transport = await this.createTransport();
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
    await transport.start();
    const timeoutMs = this.config.startupTimeoutMs;
    let init: Record<string, any>;
    try {
      init = await peer.request(
        'initialize',
        { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: this.options.clientCapabilities ?? {}, clientInfo: { name: GATEWAY_NAME, version: GATEWAY_VERSION } },
        { timeoutMs },
      );
    } catch (err) {
      if (err instanceof RpcError) throw new GatewayError('PROTOCOL_ERROR', `initialize failed: ${err.message}`, { server: this.name });
      throw err;
    }
    if (!isSupportedVersion(init.protocolVersion)) {
      throw new GatewayError('PROTOCOL_MISMATCH', `server answered protocol version ${JSON.stringify(init.protocolVersion)}, which the gateway does not speak`, { server: this.name });
    }
    this.protocolVersion = init.protocolVersion;
    this.capabilities = init.capabilities ?? {};
    this.serverInfo = init.serverInfo;
    this.instructions = typeof init.instructions === 'string' && init.instructions.trim() ? init.instructions : undefined;
    const kind = (transport as { kind?: unknown }).kind;
    if (typeof kind === 'string') this.transportKind = kind;
    transport.setProtocolVersion?.(init.protocolVersion);
    await peer.notify('notifications/initialized');
    return peer;
  }

  /** Fetches every page of the given lists that the server's capabilities offer. */
  private async fetchLists(peer: Peer<O>, kinds: readonly ListKind[]): Promise<void> {
    // At start-up the overall startupTimeout bounds this; later, each page gets the request timeout.
    const timeoutMs = this.state === 'ready' ? this.config.timeoutMs : this.config.startupTimeoutMs;
    const fetched = await Promise.all(kinds.map((kind) => (this.capabilities[KINDS[kind].capability] ? fetchAll(peer, kind, timeoutMs, this.name, this.logger) : [])));
    kinds.forEach((kind, i) => (this.lists[kind] = fetched[i]!));
  }

  private receiveNotification(n: JsonRpcNotification, owner?: O): void {
    const kinds = LIST_CHANGED.get(n.method);
    if (kinds) {
      if (this.options.fetchLists === false) return;
      for (const kind of kinds) this.refetch(kind);
      return;
    }
    this.events.onNotification?.(this, n, owner ?? this.options.owner);
  }

  /** Refetches one list. A change announced while connecting, or while a fetch runs, gets one more fetch. */
  private refetch(kind: ListKind): void {
    if (this.state === 'connecting' || this.refetching.has(kind)) {
      this.refetchAgain.add(kind);
      return;
    }
    if (this.state !== 'ready' || !this.peer) return;
    this.refetching.add(kind);
    this.fetchLists(this.peer, [kind])
      .then(
        () => this.events.onChange?.(this, [kind]),
        (err) => this.logger.warn({ err: describeError(err) }, `refetching ${kind} failed`),
      )
      .finally(() => {
        this.refetching.delete(kind);
        if (this.refetchAgain.delete(kind)) this.refetch(kind);
      });
  }
}

/** The failure is (or was caused by) "a login is needed", not a network or protocol problem. */
function needsLogin(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof AuthError) return e.code === AuthErrorCode.AUTH_REQUIRED;
  }
  return false;
}
