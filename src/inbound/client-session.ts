// One connected client. Owns the MCP lifecycle on the inbound side (initialize, negotiated
// revision, client capabilities, log level), dispatches requests to handlers, tracks in-flight
// requests for cancellation, relays server requests to the client, and turns every failure into
// a JSON-RPC error at this one boundary.

import { randomUUID } from 'node:crypto';
import { GatewayError, RpcError, describeError } from '../errors.js';
import {
  ErrorCode,
  classify,
  errorResponse,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from '../protocol/jsonrpc.js';
import { KINDS, LIST_KINDS, type ListKind } from '../protocol/mcp.js';
import { viewFor, type CatalogView } from '../catalog/view.js';
import type { ClientProfile } from '../config/types.js';
import { RequestsToClient, missingCapability } from './requests-to-client.js';
import { Cancellation } from '../jsonrpc/cancellation.js';
import type { RequestContext } from './context.js';
import type { Router } from '../router/router.js';
import type { Session } from '../router/session.js';
import type { EndpointSession } from './session-opener.js';
import type { ByteBudget } from './budget.js';
import { isRawResponse, spliceId } from '../jsonrpc/raw.js';
import type { Reply } from './session-opener.js';
import { handlers } from './handlers/index.js';
import { servedList } from './handlers/list.js';
import { initializeResult, negotiateVersion } from './handlers/lifecycle.js';


export class ClientSession implements EndpointSession, Session {
  readonly id = randomUUID();
  protocolVersion: string | undefined;
  clientCapabilities: Record<string, any> = {};
  clientInfo?: { name?: string; version?: string };
  logLevel: string | undefined;
  private initialized = false;
  private closed = false;
  private readonly inFlight = new Map<JsonRpcId, Cancellation>();
  private readonly toClient = new RequestsToClient();

  /** Per kind, the hash of the list this client last saw: list_changed only when its view changed. */
  private readonly seen = new Map<ListKind, string>();

  constructor(
    private readonly router: Router,
    private readonly push: (message: JsonRpcMessage) => void,
    /** Bytes this client's requests and answers may hold in the gateway (parent: the gateway's). */
    readonly budget: ByteBudget,
    public profile?: ClientProfile,
    /** Called after each request finishes (a graceful shutdown waits for the last one). */
    private readonly onSettled?: () => void,
  ) {}

  /**
   * The profile's rules changed (a config reload): this session sees the new view from now on,
   * and hears list_changed if that view differs from what it saw. A removed token is refused by
   * the HTTP endpoint itself.
   */
  updateProfile(profile: ClientProfile): void {
    this.profile = profile;
    this.notifyListChanged(LIST_KINDS);
  }

  /** The catalog as this client's profile sees it. */
  get view(): CatalogView {
    return viewFor(this.router.catalog, this.profile);
  }

  handle(message: JsonRpcMessage, related?: (message: JsonRpcMessage) => void): Promise<Reply | undefined> {
    switch (classify(message)) {
      case 'request':
        return this.router.observer.request(this, message as JsonRpcRequest, () => this.handleRequest(message as JsonRpcRequest, related));
      case 'notification':
        this.handleNotification(message as JsonRpcNotification);
        return Promise.resolve(undefined);
      case 'response':
        if (!this.toClient.settle(message as JsonRpcResponse)) this.router.logger.debug({ session: this.id }, 'response to nothing we asked; ignored');
        return Promise.resolve(undefined);
      default: {
        const id = (message as any)?.id;
        const validId = typeof id === 'string' || typeof id === 'number' ? id : null;
        return Promise.resolve(errorResponse(validId, ErrorCode.InvalidRequest, 'Invalid JSON-RPC message'));
      }
    }
  }

  /** Tells the client which lists changed, once per notification method. */
  notifyListChanged(kinds: readonly ListKind[]): void {
    if (!this.initialized || this.closed) return;
    // Only what this client would see differently: a change outside its profile's view, or to a
    // tool its search mode does not list, is none of its business.
    const view = this.view;
    kinds = kinds.filter((k) => {
      const hash = servedList(view, k).hash;
      const changed = this.seen.get(k) !== hash;
      this.seen.set(k, hash);
      return changed;
    });
    const methods = new Set(kinds.map((k) => KINDS[k].listChanged));
    for (const method of methods) this.push({ jsonrpc: '2.0', method });
  }

  send(notification: JsonRpcNotification): void {
    if (this.initialized && !this.closed) this.push(notification);
  }

  requestClient(method: string, params: Record<string, any> | undefined, via?: (m: JsonRpcMessage) => void, signal?: AbortSignal): Promise<Record<string, any>> {
    if (this.closed) return Promise.reject(new RpcError(ErrorCode.InternalError, 'the client session has ended'));
    const missing = missingCapability(this.clientCapabilities, method, params);
    if (missing) {
      // What an MCP client answers for a capability it did not declare.
      return Promise.reject(new RpcError(ErrorCode.MethodNotFound, `the client did not declare the ${missing} capability`));
    }
    return this.toClient.request(via ?? this.push, method, params, signal);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const cancellation of this.inFlight.values()) cancellation.cancel();
    this.inFlight.clear();
    this.toClient.closeAll();
    this.router.release(this);
  }

  private async handleRequest(request: JsonRpcRequest, related?: (message: JsonRpcMessage) => void): Promise<Reply> {
    const { id, method } = request;
    if (method === 'initialize') return this.initialize(request);
    const handler = handlers.get(method);
    if (!handler) return errorResponse(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
    const maxCalls = this.router.config.limits.maxCallsPerSession;
    if (this.inFlight.size >= maxCalls) {
      return this.errorFor(id, method, new GatewayError('LIMIT_EXCEEDED', `this session already has ${maxCalls} requests in flight (limits.maxCallsPerSession)`, { retryAfterMs: 1000, limit: 'session' }));
    }
    const cancellation = new Cancellation();
    this.inFlight.set(id, cancellation);
    const params = request.params ?? {};
    const token = params._meta?.progressToken;
    const context: RequestContext = {
      router: this.router,
      session: this,
      view: this.view,
      cancellation,
      related,
      protocolVersion: this.protocolVersion ?? '2025-03-26',
      progress:
        related && (typeof token === 'string' || typeof token === 'number')
          ? (p) => related({ jsonrpc: '2.0', method: 'notifications/progress', params: { ...p, progressToken: token } })
          : undefined,
    };
    try {
      const result = await handler(params, context);
      // The server's own answer as text: the client's id spliced in, nothing else touched.
      if (isRawResponse(result)) return { text: spliceId(result, id), id, isError: result.isError };
      return { jsonrpc: '2.0', id, result };
    } catch (err) {
      return this.errorFor(id, method, err);
    } finally {
      this.inFlight.delete(id);
      this.onSettled?.();
    }
  }

  /** Requests being handled now. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  private initialize(request: JsonRpcRequest): JsonRpcResponse {
    const p = request.params ?? {};
    this.protocolVersion = negotiateVersion(p.protocolVersion);
    this.clientCapabilities = p.capabilities ?? {};
    this.clientInfo = p.clientInfo;
    for (const k of LIST_KINDS) this.seen.set(k, servedList(this.view, k).hash);
    return { jsonrpc: '2.0', id: request.id, result: initializeResult(this.router, this.protocolVersion, this.view) };
  }

  private handleNotification(n: JsonRpcNotification): void {
    switch (n.method) {
      case 'notifications/initialized':
        this.initialized = true;
        return;
      case 'notifications/cancelled': {
        const id = n.params?.requestId;
        if (id !== undefined) this.inFlight.get(id)?.cancel();
        return;
      }
      case 'notifications/roots/list_changed':
        this.router.rootsChanged(this);
        return;
      default:
        // Unknown notifications are ignored, as JSON-RPC requires.
        return;
    }
  }

  /** Called by the logging/setLevel handler. */
  setLogLevel(level: string): void {
    this.logLevel = level;
  }

  private errorFor(id: JsonRpcId, method: string, err: unknown): JsonRpcResponse {
    if (err instanceof RpcError) return errorResponse(id, err.code, err.message, err.data);
    if (err instanceof GatewayError) {
      const e = err.toJsonRpc();
      this.router.logger.warn({ method, code: err.code, server: err.server }, err.message);
      return errorResponse(id, e.code, e.message, e.data);
    }
    this.router.logger.error({ method, err: describeError(err) }, 'handler failed');
    return errorResponse(id, ErrorCode.InternalError, `Internal error: ${describeError(err)}`);
  }
}
