// One client connection to one configured server, shared by every inbound session: transport,
// handshake (newest revision both sides speak), every page of every list the server offers, and
// request forwarding with the server's timeout. It publishes its state and lists; it never
// decides names or policy (the catalog does).

import { GatewayError, RpcError, describeError } from '../errors.js';
import { Peer, RemoteError, type IncomingContext, type RequestOptions } from '../jsonrpc/peer.js';
import { ErrorCode, isErrorResponse, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse } from '../jsonrpc/types.js';
import type { Logger } from '../log.js';
import {
  GATEWAY_NAME,
  GATEWAY_VERSION,
  KIND_CAPABILITY,
  LATEST_PROTOCOL_VERSION,
  LIST_CHANGED,
  LIST_KINDS,
  LIST_METHODS,
  isSupportedVersion,
  type ListKind,
} from '../mcp/protocol.js';
import type { ServerConfig } from '../config/types.js';
import type { Transport } from '../transport.js';
import { StdioTransport } from './stdio-transport.js';
import { createHttpTransport } from './http-auto.js';

export type ServerState = 'connecting' | 'ready' | 'failed' | 'disabled' | 'closed';

export type ServerLists = Record<ListKind, Record<string, any>[]>;

export interface ServerConnectionEvents {
  /** State or lists changed; `kinds` lists the lists that were (re)fetched. */
  onChange?: (connection: ServerConnection, kinds: readonly ListKind[]) => void;
  /**
   * A notification the catalog does not consume (logging, resource updates, ...). `owner` is the
   * request context it belongs to, when the transport could tell.
   */
  onNotification?: (connection: ServerConnection, notification: JsonRpcNotification, owner?: unknown) => void;
  /** A request from the server (sampling, elicitation, roots, ping). */
  onRequest?: (connection: ServerConnection, request: JsonRpcRequest, context: IncomingContext) => Promise<Record<string, any>>;
}

export interface ServerConnectionOptions {
  maxMessageBytes?: number;
  /** Client capabilities we declare to the server (default: none). */
  clientCapabilities?: Record<string, any>;
  /** Fetch the lists at connect and on list_changed (default true; per-session connections don't). */
  fetchLists?: boolean;
  /** Owner of every server request on this connection (a per-session connection's session). */
  owner?: unknown;
}

/** Pages fetched per list at most: a guard against a server whose cursors never end. */
const MAX_PAGES = 10_000;

export class ServerConnection {
  state: ServerState = 'connecting';
  /** Why the server is failed or disabled, for logs, `check` and error messages. */
  problem?: string;
  protocolVersion?: string;
  capabilities: Record<string, any> = {};
  serverInfo?: { name?: string; version?: string };
  instructions?: string;
  lists: ServerLists = { tools: [], prompts: [], resources: [], resourceTemplates: [] };
  /**
   * Whether the lists belong in the catalog: true once a connect succeeded, and still true after
   * the server dies, so its tools stay visible and calls get a clear "unavailable" error.
   */
  listed = false;
  /** Which transport HTTP `auto` settled on, for display. */
  transportKind: string;

  private peer?: Peer;
  private transport?: Transport;
  private readonly refetching = new Map<ListKind, Promise<void>>();
  private readonly refetchAgain = new Set<ListKind>();

  constructor(
    readonly config: ServerConfig,
    private readonly logger: Logger,
    private readonly events: ServerConnectionEvents = {},
    private readonly options: ServerConnectionOptions = {},
  ) {
    this.transportKind = config.kind === 'stdio' ? 'stdio' : config.transport;
    if (!config.enabled) {
      this.state = 'disabled';
      this.problem = 'disabled in the config';
    }
  }

  get name(): string {
    return this.config.name;
  }

  /** Connects, handshakes and fetches every list. Never rejects: failure is a state. */
  async connect(): Promise<void> {
    if (this.state === 'disabled') return;
    this.state = 'connecting';
    const started = Date.now();
    let deadline: NodeJS.Timeout | undefined;
    try {
      const limit = this.config.startupTimeoutMs;
      const expired = new Promise<never>((_, reject) => {
        deadline = setTimeout(
          () => reject(new GatewayError('SERVER_TIMEOUT', `did not finish starting within ${limit / 1000}s`, { server: this.name })),
          limit,
        );
      });
      const lists = this.options.fetchLists === false ? [] : LIST_KINDS;
      await Promise.race([this.open().then(() => this.fetchLists(lists)), expired]);
      clearTimeout(deadline);
      this.state = 'ready';
      this.listed = this.options.fetchLists !== false;
      for (const kind of this.refetchAgain) this.refetch(kind);
      this.refetchAgain.clear();
      this.logger.debug({ ms: Date.now() - started }, 'ready');
      this.events.onChange?.(this, LIST_KINDS);
    } catch (err) {
      clearTimeout(deadline);
      this.fail(err);
      await this.peer?.close().catch(() => {});
    }
  }

  /**
   * Forwards a request. Resolves with the server's raw response (a JSON-RPC error stays a
   * response); rejects with a GatewayError when the server cannot be reached in time.
   */
  forward(method: string, params: Record<string, any> | undefined, options: RequestOptions = {}): Promise<JsonRpcResponse> {
    if (this.state !== 'ready' || !this.peer) {
      return Promise.reject(this.unavailable());
    }
    if (options.timeoutMs === undefined) options.timeoutMs = this.config.timeoutMs;
    return this.peer.requestRaw(method, params, options);
  }

  /** Forwards a request; resolves with the result, throws RpcError for the server's error. */
  async request(method: string, params?: Record<string, any>, options: RequestOptions = {}): Promise<Record<string, any>> {
    const response = await this.forward(method, params, options);
    if (isErrorResponse(response)) throw new RpcError(response.error.code, response.error.message, response.error.data);
    return response.result;
  }

  notify(method: string, params?: Record<string, any>): void {
    if (this.state === 'ready') this.peer?.notify(method, params).catch(() => {});
  }

  async close(): Promise<void> {
    if (this.state === 'disabled') return;
    this.state = 'closed';
    await this.peer?.close().catch(() => {});
  }

  unavailable(): GatewayError {
    const why = this.problem ? `: ${this.problem}` : this.state === 'connecting' ? ': still connecting' : '';
    return new GatewayError('SERVER_UNAVAILABLE', `server "${this.name}" is unavailable${why}`, { server: this.name });
  }

  private createTransport(): Transport {
    const c = this.config;
    if (c.kind === 'stdio') {
      return new StdioTransport({ command: c.command, args: c.args, env: c.env, cwd: c.cwd, logger: this.logger, maxMessageBytes: this.options.maxMessageBytes });
    }
    return createHttpTransport({ url: c.url, headers: c.headers, transport: c.transport, logger: this.logger, maxMessageBytes: this.options.maxMessageBytes });
  }

  private async open(): Promise<void> {
    const transport = this.createTransport();
    this.transport = transport;
    const peer = new Peer(
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
        onClose: (reason) => this.closed(reason),
      },
      this.name,
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
      if (err instanceof RemoteError) throw new GatewayError('PROTOCOL_ERROR', `initialize failed: ${err.message}`, { server: this.name });
      throw err;
    }
    if (!isSupportedVersion(init.protocolVersion)) {
      throw new GatewayError('PROTOCOL_MISMATCH', `server answered protocol version ${JSON.stringify(init.protocolVersion)}, which the gateway does not speak`, {
        server: this.name,
      });
    }
    this.protocolVersion = init.protocolVersion;
    this.capabilities = init.capabilities ?? {};
    this.serverInfo = init.serverInfo;
    this.instructions = typeof init.instructions === 'string' && init.instructions.trim() ? init.instructions : undefined;
    if ('kind' in transport && typeof (transport as any).kind === 'string') this.transportKind = (transport as any).kind;
    transport.setProtocolVersion?.(init.protocolVersion);
    await peer.notify('notifications/initialized');
  }

  /** Fetches every page of the given lists that the server's capabilities offer. */
  private async fetchLists(kinds: readonly ListKind[]): Promise<void> {
    await Promise.all(kinds.map(async (kind) => {
      this.lists[kind] = this.capabilities[KIND_CAPABILITY[kind]] ? await this.fetchAll(kind) : [];
    }));
  }

  private async fetchAll(kind: ListKind): Promise<Record<string, any>[]> {
    const { method, key } = LIST_METHODS[kind];
    const items: Record<string, any>[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      let result: Record<string, any>;
      try {
        // At start-up the overall startupTimeout bounds this; later, each page gets the request timeout.
        const timeoutMs = this.state === 'ready' ? this.config.timeoutMs : this.config.startupTimeoutMs;
        result = await this.peer!.request(method, cursor === undefined ? undefined : { cursor }, { timeoutMs });
      } catch (err) {
        // Templates are optional even for servers with resources; older servers answer -32601.
        if (kind === 'resourceTemplates' && err instanceof RemoteError) return items;
        throw new GatewayError('PROTOCOL_ERROR', `${method} failed: ${describeError(err)}`, { server: this.name, cause: err });
      }
      const batch = result[key];
      if (Array.isArray(batch)) for (const item of batch) if (item && typeof item === 'object') items.push(item);
      const next = result.nextCursor;
      if (typeof next !== 'string' || next === '' || seen.has(next)) return items;
      seen.add(next);
      cursor = next;
    }
    this.logger.warn({ method }, `stopped after ${MAX_PAGES} pages`);
    return items;
  }

  private receiveNotification(n: JsonRpcNotification, owner?: unknown): void {
    const kinds = LIST_CHANGED[n.method];
    if (kinds) {
      if (this.options.fetchLists === false) return;
      // A change announced while we connect may have raced our first fetch: fetch again once ready.
      for (const kind of kinds) this.refetch(kind);
      return;
    }
    this.events.onNotification?.(this, n, owner ?? this.options.owner);
  }

  /** Refetches one list; a burst of list_changed while a fetch runs causes one more fetch, not many. */
  private refetch(kind: ListKind): void {
    if (this.state !== 'ready' && this.state !== 'connecting') return;
    if (this.refetching.has(kind) || this.state === 'connecting') {
      this.refetchAgain.add(kind);
      return;
    }
    const run = this.fetchLists([kind]).then(
      () => this.events.onChange?.(this, [kind]),
      (err) => this.logger.warn({ err: describeError(err) }, `refetching ${kind} failed`),
    );
    this.refetching.set(kind, run);
    void run.finally(() => {
      this.refetching.delete(kind);
      if (this.refetchAgain.delete(kind) && this.state === 'ready') this.refetch(kind);
    });
  }

  private fail(err: unknown, keepLists = false): void {
    this.state = 'failed';
    this.problem = describeError(err);
    if (!keepLists) {
      this.listed = false;
      this.lists = { tools: [], prompts: [], resources: [], resourceTemplates: [] };
    }
    this.logger.error({ problem: this.problem }, 'server failed');
    this.events.onChange?.(this, LIST_KINDS);
  }

  private closed(reason?: Error): void {
    if (this.state === 'closed' || this.state === 'failed') return;
    if (this.state === 'connecting') return; // connect() reports it through its own rejection
    this.fail(reason ?? new Error('connection closed'), true);
  }
}
