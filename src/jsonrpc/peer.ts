// One side of a JSON-RPC conversation over a Transport: allocates our request ids, keeps the
// pending map, applies timeouts and cancellation, routes progress by token, and hands incoming
// requests and notifications to the owner. Plain Maps and Promises: this is the hot path.
// Invariant: every pending entry ends exactly once (response, timeout, abort or close).

import { GatewayError, RpcError, describeError, toJsonRpcError } from '../errors.js';
import type { Cancellation } from './cancellation.js';
import { ChurnMap } from './churn.js';
import { deadlines, type Deadline } from './deadlines.js';
import { DEFAULT_MAX_DEPTH } from './parse.js';
import { scanResponse, type RawResponse } from './raw.js';
import { SENT, type Transport, type TransportSink } from '../transport.js';
import type { JsonObject } from '../protocol/json.js';
import {
  ErrorCode,
  classify,
  errorResponse,
  isErrorResponse,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcParams,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcResult,
} from '../protocol/jsonrpc.js';

export interface RequestOptions<O = never> {
  /** Milliseconds without an answer (or progress, when resetOnProgress) before we give up. */
  timeoutMs?: number;
  /** Reset the timeout when progress arrives, but never past maxTotalMs. */
  resetOnProgress?: boolean;
  maxTotalMs?: number;
  /** Cancels the request: the other side is told with notifications/cancelled. */
  cancellation?: Cancellation;
  /**
   * Accept the answer as the text the other side sent (a RawResponse), when it is a plain response
   * the scan can vouch for: the caller passes it on with its own id spliced in, never parsing it.
   */
  raw?: boolean;
  /** Receives `notifications/progress` params for this request (token already ours). */
  onProgress?: (params: JsonRpcParams) => void;
  /**
   * Who this request is for (the router's RequestOwner: a session and its request's channel).
   * Requests and notifications the other side sends while this one is pending can be attributed
   * to it. The Peer never looks inside.
   */
  owner?: O;
  /**
   * Told the id the request goes out with, before it is sent: for a request the other side later
   * refers to by its id (a 2026-07-28 listen stream tags its notifications with it).
   */
  onId?: (id: JsonRpcId) => void;
}

/** What the owner of an incoming request learns besides the request. */
export interface IncomingContext<O = never> {
  /** The owner of our request the message was related to, when that can be told. */
  owner?: O;
  /** Aborted when the other side cancels its request. */
  signal: AbortSignal;
}

interface Pending<O> {
  id: JsonRpcId;
  resolve(response: PeerAnswer): void;
  reject(error: Error): void;
  method: string;
  deadline?: Deadline;
  started: number;
  options?: RequestOptions<O>;
  progressToken?: string;
  offCancel?: () => void;
}

export interface PeerHandlers<O = never> {
  /** An incoming request. Resolve with a result; throw RpcError (relayed as it is) or GatewayError for an error. */
  onRequest?: (request: JsonRpcRequest, context: IncomingContext<O>) => Promise<JsonRpcResult>;
  /** `owner` is set only when the transport said which of our requests the message belongs to. */
  onNotification?: (notification: JsonRpcNotification, owner?: O) => void;
  /** A message that made no sense (unknown response id, invalid envelope). */
  onProtocolError?: (problem: string) => void;
  onClose?: (reason?: Error) => void;
}

/** What a request resolves with: the response, or (with `raw`) its text and where its id is. */
export type PeerAnswer = JsonRpcResponse | RawResponse;

export class Peer<O = never> {
  private nextId = 1;
  /** Pending requests that accept a raw answer: while none does, texts are not even scanned. */
  private rawWanted = 0;
  // ChurnMaps, not Maps: entries come and go with every message (see churn.ts).
  private readonly pending = new ChurnMap<JsonRpcId, Pending<O>>();
  private readonly progress = new ChurnMap<string, Pending<O>>();
  /** Requests the other side sent us that are still being handled, for its cancellations. */
  private readonly incoming = new ChurnMap<JsonRpcId, AbortController>();
  private closed = false;
  /** What the transport delivers to: made once, given to its start(). */
  private readonly sink: TransportSink;
  /** Label for error messages: the server's name. */
  readonly label: string;

  constructor(
    private readonly transport: Transport,
    private readonly handlers: PeerHandlers<O>,
    label: string,
    /** limits.maxDepth, for raw answers (parsed messages were bounded by the transport). */
    private readonly maxDepth = DEFAULT_MAX_DEPTH,
  ) {
    this.label = label;
    this.sink = {
      text: (text, relatedTo) => this.receiveText(text, relatedTo),
      message: (m, relatedTo) => this.receive(m, relatedTo),
      close: (reason) => this.closeWith(reason),
      error: (err) => handlers.onProtocolError?.(describeError(err)),
      fail: (id, err) => this.fail(id, err),
    };
  }

  /** Starts the transport, delivering to this Peer from now on. */
  start(): Promise<void> {
    return this.transport.start(this.sink);
  }

  /** Fails one pending request at once (the transport knows it cannot be answered any more). */
  private fail(id: JsonRpcId, err: Error): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.finish(id, entry);
    entry.reject(this.named(err));
  }

  get isClosed(): boolean {
    return this.closed;
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * Sends a request; resolves with the other side's response (result or error) — as text when
   * `options.raw` and the text allows — and rejects on a gateway failure.
   */
  requestRaw(method: string, params: JsonRpcParams | undefined, options?: RequestOptions<O>): Promise<PeerAnswer> {
    if (this.closed) {
      return Promise.reject(new GatewayError('CONNECTION_CLOSED', `connection to ${this.label} is closed`, { server: this.label }));
    }
    if (options?.cancellation?.aborted) {
      return Promise.reject(new GatewayError('CANCELLED', `request to ${this.label} was cancelled`, { server: this.label }));
    }
    const id = this.nextId++;
    options?.onId?.(id);
    return new Promise<PeerAnswer>((resolve, reject) => {
      const entry: Pending<O> = { id, resolve, reject, method, started: deadlines.now(), options };
      if (options?.raw) this.rawWanted++;
      if (options?.onProgress) {
        const token = `${this.label}-p${id}`;
        entry.progressToken = token;
        this.progress.set(token, entry);
        // The client's _meta is spread as it came (a JSON object; anything else as before).
        params = { ...params, _meta: { ...(params?._meta as JsonObject | undefined), progressToken: token } };
      }
      this.pending.set(id, entry);
      if (options?.timeoutMs) this.arm(id, entry, options.timeoutMs);
      if (options?.cancellation) entry.offCancel = options.cancellation.onCancel(() => this.cancel(id, 'cancelled by the client'));
      const message: JsonRpcRequest = params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
      const sent = this.transport.send(message);
      // Queued at once (stdio): nothing can fail later, no handler to attach per request.
      if (sent !== SENT) {
        sent.catch((err: unknown) => {
          if (this.pending.get(id) === entry) {
            this.finish(id, entry);
            reject(this.named(err));
          }
        });
      }
    });
  }

  /** A transport's failure as a GatewayError that names the server, as every gateway error must. */
  private named(err: unknown): GatewayError {
    if (err instanceof GatewayError && err.server !== undefined) return err;
    const code = err instanceof GatewayError ? err.code : 'CONNECTION_CLOSED';
    return new GatewayError(code, `${this.label}: ${describeError(err)}`, { server: this.label, cause: err });
  }

  /** Sends a request; resolves with the result, rejects with RpcError (the other side's error, as it is) for an error response. */
  async request(method: string, params?: JsonRpcParams, options?: RequestOptions<O>): Promise<JsonRpcResult> {
    const response = (await this.requestRaw(method, params, options?.raw ? { ...options, raw: false } : options)) as JsonRpcResponse;
    if (isErrorResponse(response)) throw RpcError.of(response.error);
    return response.result;
  }

  notify(method: string, params?: JsonRpcParams): Promise<void> {
    if (this.closed) return Promise.resolve();
    const message: JsonRpcNotification = params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    return this.transport.send(message);
  }

  /** Rejects everything pending and closes the transport. */
  async close(): Promise<void> {
    this.closeWith(undefined);
    await this.transport.close();
  }

  private arm(id: JsonRpcId, entry: Pending<O>, ms: number): void {
    const now = deadlines.now();
    const max = entry.options?.maxTotalMs;
    if (max !== undefined) ms = Math.min(ms, Math.max(0, entry.started + max - now));
    if (entry.deadline) deadlines.remove(entry.deadline);
    entry.deadline = { at: now + ms, fire: () => this.timeout(id, entry) };
    deadlines.add(entry.deadline);
  }

  private timeout(id: JsonRpcId, entry: Pending<O>): void {
    if (this.pending.get(id) !== entry) return;
    this.finish(id, entry);
    const seconds = ((deadlines.now() - entry.started) / 1000).toFixed(1);
    // The spec asks the requester to tell the receiver to stop working on it.
    this.notify('notifications/cancelled', { requestId: id, reason: `timed out after ${seconds}s` }).catch(() => {});
    entry.reject(new GatewayError('SERVER_TIMEOUT', `${this.label} did not answer ${entry.method} within ${seconds}s`, { server: this.label }));
  }

  private cancel(id: JsonRpcId, reason: string): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.finish(id, entry);
    this.notify('notifications/cancelled', { requestId: id, reason }).catch(() => {});
    entry.reject(new GatewayError('CANCELLED', `request to ${this.label} was cancelled`, { server: this.label }));
  }

  private finish(id: JsonRpcId, entry: Pending<O>): void {
    this.pending.delete(id);
    if (entry.deadline) deadlines.remove(entry.deadline);
    if (entry.options?.raw) this.rawWanted--;
    if (entry.progressToken) this.progress.delete(entry.progressToken);
    if (entry.offCancel) entry.offCancel();
  }

  private receive(message: JsonRpcMessage, relatedTo?: JsonRpcId): void {
    // After close() the other side may still be talking (a child answers before it sees its
    // stdin end): everything it was asked has already been failed here, so nothing it says counts.
    if (this.closed) return;
    switch (classify(message)) {
      case 'response':
        return this.receiveResponse(message as JsonRpcResponse);
      case 'request':
        return this.receiveRequest(message as JsonRpcRequest, relatedTo);
      case 'notification':
        return this.receiveNotification(message as JsonRpcNotification, relatedTo);
      default:
        this.handlers.onProtocolError?.('invalid JSON-RPC message');
        this.failInvalidAnswer(message);
    }
  }

  /**
   * An invalid message that carries a result or an error for one of our pending requests (a
   * `method` beside its `result`, an error without a code…) is dropped, and that request fails
   * now, naming the server, instead of waiting out its timeout.
   */
  private failInvalidAnswer(message: unknown): void {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return;
    const m = message as Record<string, unknown>;
    const id = m.id;
    if (!('result' in m || 'error' in m) || (typeof id !== 'string' && typeof id !== 'number')) return;
    const entry = this.pending.get(id);
    if (!entry) return;
    this.finish(id, entry);
    const why = 'method' in m ? `a "method" beside its ${'result' in m ? 'result' : 'error'}` : 'not a valid JSON-RPC response';
    entry.reject(new GatewayError('PROTOCOL_ERROR', `${this.label} answered ${entry.method} with an invalid message (${why}); dropped`, { server: this.label }));
  }

  /**
   * A text the transport offers before parsing it: taken as it is when it answers a request that
   * accepts a raw answer (see jsonrpc/raw.ts); anything else is left to the transport to parse.
   */
  private receiveText(text: string | readonly Buffer[], _relatedTo?: JsonRpcId): JsonRpcId | undefined {
    if (this.rawWanted === 0) return undefined;
    const r = scanResponse(typeof text === 'string' ? Buffer.from(text, 'utf8') : text, this.maxDepth);
    if (r === undefined || r === 'too-deep') return undefined;
    const entry = this.pending.get(r.id);
    if (!entry?.options?.raw) return undefined;
    this.finish(r.id, entry);
    entry.resolve(r);
    return r.id;
  }

  private receiveResponse(response: JsonRpcResponse): void {
    const id = response.id;
    const entry = id === null ? undefined : this.pending.get(id);
    if (!entry) {
      // Late answers to timed-out or cancelled requests land here too: the spec says ignore them.
      this.handlers.onProtocolError?.(`response for unknown id ${JSON.stringify(id)}`);
      return;
    }
    this.finish(id!, entry);
    entry.resolve(response);
  }

  /**
   * The owner of the request a message belongs to: told by the transport (HTTP response streams),
   * else the one owner of everything in flight. Undefined when several owners could be meant.
   */
  private ownerOf(relatedTo: JsonRpcId | undefined): O | undefined {
    if (relatedTo !== undefined) return this.pending.get(relatedTo)?.options?.owner;
    let owner: O | undefined;
    for (const entry of this.pending.values()) {
      const o = entry.options?.owner;
      if (o === undefined) continue;
      if (owner !== undefined && o !== owner) return undefined;
      owner = o;
    }
    return owner;
  }

  private receiveNotification(notification: JsonRpcNotification, relatedTo?: JsonRpcId): void {
    if (notification.method === 'notifications/cancelled') {
      const id = notification.params?.requestId;
      // Requests are held by their id, a string or a number: anything else names none.
      const controller = typeof id === 'string' || typeof id === 'number' ? this.incoming.get(id) : undefined;
      if (controller) {
        controller.abort();
        return;
      }
    }
    if (notification.method === 'notifications/progress') {
      const token = notification.params?.progressToken;
      const entry = typeof token === 'string' ? this.progress.get(token) : undefined;
      if (entry) {
        const o = entry.options!;
        if (o.resetOnProgress && entry.deadline && o.timeoutMs) this.arm(entry.id, entry, o.timeoutMs);
        o.onProgress!(notification.params!);
        return;
      }
    }
    this.handlers.onNotification?.(notification, this.ownerOf(relatedTo));
  }

  private receiveRequest(request: JsonRpcRequest, relatedTo?: JsonRpcId): void {
    const handle = this.handlers.onRequest;
    if (!handle) {
      if (request.method === 'ping') {
        this.transport.send({ jsonrpc: '2.0', id: request.id, result: {} }).catch(() => {});
        return;
      }
      this.transport.send(errorResponse(request.id, ErrorCode.MethodNotFound, `method not found: ${request.method}`)).catch(() => {});
      return;
    }
    const controller = new AbortController();
    this.incoming.set(request.id, controller);
    handle(request, { owner: this.ownerOf(relatedTo), signal: controller.signal })
      .then(
        (result) => {
          // A request the other side cancelled gets no answer (the spec says the receiver SHOULD not respond).
          if (!controller.signal.aborted) return this.transport.send({ jsonrpc: '2.0', id: request.id, result });
        },
        (err: unknown) => {
          if (controller.signal.aborted) return;
          const error = toJsonRpcError(err);
          return this.transport.send(errorResponse(request.id, error.code, error.message, error.data));
        },
      )
      .catch(() => {})
      .finally(() => this.incoming.delete(request.id));
  }

  private closeWith(reason: Error | undefined): void {
    if (this.closed) return;
    this.closed = true;
    for (const controller of this.incoming.values()) controller.abort();
    this.incoming.clear();
    const why = reason ? `: ${describeError(reason)}` : '';
    for (const [id, entry] of this.pending.entries()) {
      this.finish(id, entry);
      // The reason's detail (a process's stderr) is what tells the operator why: keep it.
      const detail = reason instanceof GatewayError ? reason.detail : undefined;
      entry.reject(new GatewayError('CONNECTION_CLOSED', `connection to ${this.label} closed while ${entry.method} was in flight${why}`, { server: this.label, detail }));
    }
    this.handlers.onClose?.(reason);
  }
}
