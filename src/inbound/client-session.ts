// One connected client. Owns the MCP lifecycle on the inbound side (initialize, negotiated
// revision, client capabilities, log level), dispatches requests to handlers, tracks in-flight
// requests for cancellation, relays server requests to the client, and turns every failure into
// a JSON-RPC error at this one boundary.

import { randomUUID } from 'node:crypto';
import { GatewayError, RefusalError, RpcError, describeError } from '../errors.js';
import { ErrorCode, classify, errorResponse, type JsonRpcId, type JsonRpcMessage, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse } from '../protocol/jsonrpc.js';
import { KINDS, LIST_KINDS, type ListKind } from '../protocol/mcp.js';
import { viewFor, type CatalogView } from '../catalog/view.js';
import type { ClientProfile } from '../config/types.js';
import { RequestsToClient } from './requests-to-client.js';
import { missingCapability } from '../protocol/capabilities.js';
import { Cancellation } from '../jsonrpc/cancellation.js';
import { ChurnMap } from '../jsonrpc/churn.js';
import type { RequestContext } from './context.js';
import type { Router } from '../router/router.js';
import type { Session } from '../router/session.js';
import type { EndpointSession } from './session-opener.js';
import type { ByteBudget } from './budget.js';
import { isRawResponse } from '../jsonrpc/raw.js';
import { spliceId } from '../jsonrpc/raw-splice.js';
import type { Reply } from './session-opener.js';
import { initializeResult, negotiateVersion, servedList } from './served.js';
import { MRTR_METHODS } from '../protocol/stateless.js';
import { answerRound, type Round } from './bridged-request.js';
import type { CallShare, Handler, HttpHeaders, ToolFinding } from './context.js';
import { StatelessClient, admit, answerIn, errorIn, inEra, isAnswer, methodNotFound, refusal } from './stateless-request.js';
import { handlerFor } from './handlers/index.js';
import { LOG_LEVELS, passesLevel } from '../protocol/mcp.js';
import type { Listen } from './listen.js';
import { type JsonObject, isJsonObject, valueAt } from '../protocol/json.js';
import type { SessionMessage, SessionRecord } from '../state/store.js';

import type { SessionFields } from './session-opener.js';

export class ClientSession implements EndpointSession, Session {
  /** Random, or the id of the session restored from its record (set before the router sees it). */
  id: string = randomUUID();
  protocolVersion: string | undefined;
  clientCapabilities: JsonObject = {};
  clientInfo?: JsonObject;
  logLevel: string | undefined;
  private initialized = false;
  private closed = false;
  /** Keyed by the client's id; on a stateless session (ids of many clients) by a number of ours. */
  private readonly inFlight = new ChurnMap<JsonRpcId, Cancellation>(); // not a Map: see jsonrpc/churn.ts
  private nextKey = 0;
  /** Nested calls of code-mode runs in flight (each run is itself one of inFlight). */
  private nestedCalls = 0;
  private readonly toClient = new RequestsToClient();

  /** Open subscriptions/listen streams (2026-07-28): each hears list changes through this session's view. */
  readonly listens = new Set<Listen>();

  /** Per kind, the hash of the list this client last saw: list_changed only when its view changed. */
  private readonly seen = new Map<ListKind, string>();

  /** Whom the endpoint authenticated for this session, when narrower than its profile (see EndpointSession). */
  principal?: string;
  /** The user per-user servers' credentials belong to (see Session.user); set by the face. */
  user?: string;

  /** Resource URIs the client subscribed to, as it named them (for its record in the state store). */
  readonly subscribed = new Set<string>();
  /** With sessions shared by replicas: where answers and cancellations for another replica's requests go. */
  elsewhere?: (message: SessionMessage) => void;

  /** This session is shared by replicas; this one is `replica` (in the ids of requests it sends the client). */
  joinCluster(replica: string, elsewhere: (message: SessionMessage) => void): void {
    this.toClient.prefix = `sb-${replica}-`;
    this.elsewhere = elsewhere;
  }

  /** A client's answer: to a request of ours, or (shared sessions) to another replica's, passed on to it. */
  private answered(response: JsonRpcResponse): void {
    if (this.toClient.settle(response)) return;
    if (this.elsewhere !== undefined && this.toClient.elsewhere(response.id)) this.elsewhere({ kind: 'answer', message: response as unknown as JsonObject });
    else this.router.logger.debug({ session: this.id }, 'response to nothing we asked; ignored');
  }

  /** A message another replica passed on: an answer to a request of ours, or a cancellation of a request served here. */
  fromElsewhere(message: SessionMessage): void {
    if (message.kind === 'answer') this.toClient.settle(message.message as unknown as JsonRpcResponse);
    else if (message.kind === 'cancel') this.inFlight.get(message.requestId)?.cancel();
  }

  /** Told when the session's record changes (log level, subscriptions): the HTTP face stores it. */
  recordChanged?: (patch: Partial<SessionRecord>) => void;

  constructor(
    readonly router: Router,
    /** search_tools' engine (the app's ToolFinder). */
    readonly finder: ToolFinding,
    private readonly push: (message: JsonRpcMessage) => void,
    /** Bytes this client's requests and answers may hold in the gateway (parent: the gateway's). */
    readonly budget: ByteBudget,
    public profile?: ClientProfile,
    /** Called after each request finishes (a graceful shutdown waits for the last one). */
    private readonly onSettled?: () => void,
    /**
     * A stateless session serves the stateless-revision requests of every HTTP client of one
     * profile: nothing is pushed, ids are not unique, and the per-session call limit does not
     * apply (the gateway's and each server's limits still do).
     */
    readonly stateless = false,
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

  // As a stateful request's client (RequestClient): the session's own level and capabilities.
  hears(level: unknown): boolean {
    return passesLevel(level, this.logLevel);
  }
  get rootsFromConfig(): boolean {
    return this.clientCapabilities.roots === undefined;
  }
  readonly unaskable = undefined;

  /** The catalog as this client's profile sees it. */
  get view(): CatalogView {
    return viewFor(this.router.catalog, this.profile);
  }

  handle(message: JsonRpcMessage, related?: (message: JsonRpcMessage) => void, abort?: Cancellation, headers?: HttpHeaders, share?: CallShare): Promise<Reply | undefined> {
    switch (classify(message)) {
      case 'request':
        return this.router.observer.request(this, message as JsonRpcRequest, () => this.handleRequest(message as JsonRpcRequest, related, abort, headers, share), headers);
      case 'notification':
        this.handleNotification(message as JsonRpcNotification);
        return Promise.resolve(undefined);
      case 'response':
        this.answered(message as JsonRpcResponse);
        return Promise.resolve(undefined);
      default: {
        const id = valueAt(message, 'id');
        const validId = typeof id === 'string' || typeof id === 'number' ? id : null;
        return Promise.resolve(errorResponse(validId, ErrorCode.InvalidRequest, 'Invalid JSON-RPC message'));
      }
    }
  }

  /** Tells the client which lists changed, once per notification method. */
  notifyListChanged(kinds: readonly ListKind[]): void {
    if (this.closed) return;
    // Only what this client would see differently: a change outside its profile's view, or to a
    // tool its search mode does not list, is none of its business.
    const view = this.view;
    for (const stream of this.listens) stream.listsChanged(kinds, view);
    if (!this.initialized) return;
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

  requestClient(method: string, params: JsonObject | undefined, via?: (m: JsonRpcMessage) => void, signal?: AbortSignal): Promise<JsonObject> {
    if (this.closed) return Promise.reject(new RpcError(ErrorCode.InternalError, 'the client session has ended'));
    const missing = missingCapability(this.clientCapabilities, method, params);
    if (missing) {
      // What an MCP client answers for a capability it did not declare.
      return Promise.reject(new RpcError(ErrorCode.MethodNotFound, `the client did not declare the ${missing} capability`));
    }
    return this.toClient.request(via ?? this.push, method, params, signal);
  }

  /** The gateway is shutting down: listen streams answer their result and end. */
  endListens(): void {
    for (const stream of this.listens) stream.end();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const cancellation of this.inFlight.values()) cancellation.cancel();
    this.inFlight.clear();
    this.toClient.closeAll();
    this.router.release(this);
  }

  private async handleRequest(request: JsonRpcRequest, related?: (message: JsonRpcMessage) => void, abort?: Cancellation, headers?: HttpHeaders, share?: CallShare): Promise<Reply> {
    const { id, method } = request;
    const params: JsonObject = request.params ?? {};
    // The request's era, once: from here on the request is one model, its era only in `envelope`.
    const admitted = admit(id, method, params, this.stateless);
    if (admitted !== undefined && isAnswer(admitted)) return admitted;
    const envelope = admitted;
    if (method === 'initialize') return this.initialize(request);
    const handler = handlerFor(method, envelope !== undefined);
    if (!handler || !inEra(method, envelope)) return methodNotFound(id, method, envelope);
    const maxCalls = this.router.config.limits.maxCallsPerSession;
    if (!this.stateless && this.inFlight.size + this.nestedCalls >= maxCalls) {
      return this.errorFor(
        id,
        method,
        new GatewayError('LIMIT_EXCEEDED', `this session already has ${maxCalls} requests in flight (limits.maxCallsPerSession)`, { retryAfterMs: 1000, limit: 'session' }),
      );
    }
    if (envelope?.logLevel !== undefined && !this.initialized) this.wantLogLevel(envelope.logLevel);
    if (envelope !== undefined && MRTR_METHODS.has(method)) return this.handleRound({ id, method, params, envelope, related, abort, headers, share }, handler);
    const cancellation = new Cancellation();
    const key = this.stateless ? this.nextKey++ : id;
    this.inFlight.set(key, cancellation);
    const offAbort = abort?.onCancel(() => cancellation.cancel());
    // Any JSON value's field reads safely (undefined off a primitive): no check to add per request.
    const token = (params._meta as { progressToken?: unknown } | undefined)?.progressToken;
    const context: RequestContext = {
      gateway: this.router,
      connections: this.router.registry,
      sessionState: this.router.state,
      finder: this.finder,
      session: this,
      view: this.view,
      cancellation,
      related,
      requestId: id,
      envelope,
      client: envelope === undefined ? this : new StatelessClient(envelope),
      httpHeaders: headers,
      share,
      protocolVersion: envelope?.protocolVersion ?? this.protocolVersion ?? '2025-03-26',
      progress:
        related && (typeof token === 'string' || typeof token === 'number') ? (p) => related({ jsonrpc: '2.0', method: 'notifications/progress', params: { ...p, progressToken: token } }) : undefined,
    };
    try {
      const result = await handler(params, context);
      // The server's own answer as it came: the client's id spliced in, nothing else touched.
      if (isRawResponse(result)) return spliceId(result, id);
      return answerIn(id, method, result, envelope, this.profile !== undefined);
    } catch (err) {
      return errorIn(this.errorFor(id, method, err), envelope);
    } finally {
      offAbort?.();
      this.inFlight.delete(key);
      this.onSettled?.();
    }
  }

  /** One round of a stateless-revision call that may need the client's input (see bridged-request.ts). */
  private handleRound(round: Round, handler: Handler): Promise<Reply> {
    const track = (cancel: () => void) => {
      const key = this.stateless ? this.nextKey++ : round.id;
      const cancellation = new Cancellation();
      cancellation.onCancel(cancel);
      this.inFlight.set(key, cancellation);
      return () => {
        this.inFlight.delete(key);
        this.onSettled?.();
      };
    };
    return answerRound(this, handler, round, track, (err) => errorIn(this.errorFor(round.id, round.method, err), round.envelope));
  }

  /**
   * A stateless request asked for log lines at `level`: servers are told the most verbose level
   * any session wants (each line is still filtered per request). Only ever grows: a level is
   * not a session's state in this revision, so there is no moment to lower it.
   */
  private wantLogLevel(level: string): void {
    if (this.logLevel !== undefined && LOG_LEVELS.indexOf(level as never) >= LOG_LEVELS.indexOf(this.logLevel as never)) return;
    this.logLevel = level;
    void this.router.logLevelChanged().catch(() => {});
  }

  /** Requests being handled now. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /**
   * A nested call of a code-mode run takes one of this session's calls in flight, as a request
   * does (limits.maxCallsPerSession; a stateless session is exempt, as for its requests). False
   * when the session is at its limit.
   */
  takeNestedCall(): boolean {
    if (this.closed || (!this.stateless && this.inFlight.size + this.nestedCalls >= this.router.config.limits.maxCallsPerSession)) return false;
    this.nestedCalls++;
    return true;
  }

  nestedCallDone(): void {
    this.nestedCalls--;
  }

  private initialize(request: JsonRpcRequest): JsonRpcResponse {
    const p = request.params ?? {};
    this.protocolVersion = negotiateVersion(p.protocolVersion);
    // Not an object: no capability declared, as missingCapability and rendersApps read it anyway.
    this.clientCapabilities = isJsonObject(p.capabilities) ? p.capabilities : {};
    this.clientInfo = isJsonObject(p.clientInfo) ? p.clientInfo : undefined;
    for (const k of LIST_KINDS) this.seen.set(k, servedList(this.view, k).hash);
    return { jsonrpc: '2.0', id: request.id, result: initializeResult(this.router, this.router.registry, this.protocolVersion, this.view) };
  }

  private handleNotification(n: JsonRpcNotification): void {
    switch (n.method) {
      case 'notifications/initialized':
        this.initialized = true;
        return;
      case 'notifications/cancelled': {
        const id = n.params?.requestId;
        if (typeof id !== 'string' && typeof id !== 'number') return;
        const cancellation = this.inFlight.get(id);
        // Served by another replica, maybe: it cancels it if so.
        if (cancellation === undefined) this.elsewhere?.({ kind: 'cancel', requestId: id });
        else cancellation.cancel();
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
    this.recordChanged?.({ logLevel: level });
  }

  /** The subscribe handlers succeeded: `uri` (as the client named it) is held, or no longer. */
  noteSubscription(uri: string, held: boolean): void {
    if (held === this.subscribed.has(uri)) return;
    if (held) this.subscribed.add(uri);
    else this.subscribed.delete(uri);
    this.recordChanged?.({ subscriptions: [...this.subscribed] });
  }

  /** What a replica needs to serve this session (its record in the state store). */
  recordFields(): SessionFields {
    return {
      protocolVersion: this.protocolVersion ?? '2025-03-26',
      clientCapabilities: this.clientCapabilities,
      clientInfo: this.clientInfo,
      profile: this.profile?.name,
      logLevel: this.logLevel,
      subscriptions: [...this.subscribed],
    };
  }

  /**
   * Becomes the session `record` describes, initialized on another replica (or before this one
   * restarted): same id, revision, capabilities and level. Called before the router attaches it.
   */
  restore(record: SessionRecord): void {
    this.id = record.id;
    this.protocolVersion = record.protocolVersion;
    this.clientCapabilities = record.clientCapabilities;
    this.clientInfo = record.clientInfo;
    this.logLevel = record.logLevel;
    for (const uri of record.subscriptions) this.subscribed.add(uri);
    this.initialized = true;
    for (const k of LIST_KINDS) this.seen.set(k, servedList(this.view, k).hash);
    if (record.logLevel !== undefined) void this.router.logLevelChanged().catch(() => {});
  }

  /** Another replica changed the record: this copy follows (without telling the store again). */
  applyPatch(patch: Partial<SessionRecord>): void {
    if (patch.logLevel !== undefined && patch.logLevel !== this.logLevel) {
      this.logLevel = patch.logLevel;
      void this.router.logLevelChanged().catch(() => {});
    }
    if (patch.subscriptions !== undefined) {
      this.subscribed.clear();
      for (const uri of patch.subscriptions) this.subscribed.add(uri);
    }
  }

  private errorFor(id: JsonRpcId, method: string, err: unknown): JsonRpcResponse {
    if (err instanceof RefusalError) return refusal(id, err.data === undefined ? { code: err.code, message: err.message } : { code: err.code, message: err.message, data: err.data }, err.kind);
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
