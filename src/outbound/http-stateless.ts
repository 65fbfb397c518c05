// Streamable HTTP client transport of MCP 2026-07-28 (stateless): every request is its own POST,
// with MCP-Protocol-Version, Mcp-Method, Mcp-Name and Mcp-Param-* headers; the answer is a JSON
// body or an SSE stream scoped to that request. No session, no GET stream, no DELETE, no resuming.
// Invariants: closing a request's stream is its cancellation (notifications/cancelled is never
// POSTed); a 4xx carrying a JSON-RPC error answers the request it was sent for; every stream and
// socket dies with close(); a server that refuses connections has gone away (the sink's close, with a reason).

import type { Readable } from 'node:stream';
import { Agent } from 'undici';
import { GatewayError, describeError } from '../errors.js';
import { ChurnMap } from '../jsonrpc/churn.js';
import { serializeMessage, textOf } from '../jsonrpc/ndjson.js';
import { classify, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from '../protocol/jsonrpc.js';
import { NO_SINK, type Transport, type TransportSink } from '../transport.js';
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_MESSAGE_BYTES,
  discardBody,
  lowerCaseHeaders,
  mediaType,
  messageTooLarge,
  networkError,
  parseMessages,
  redactUrl,
  type HttpLogger,
  type HttpTransportOptions,
  type Refusals,
} from './http-common.js';
import { consumeSse, sseText } from './http-sse-reader.js';
import { HttpPoster, postStatusError, type PostResponse } from './http-post.js';
import { paramHeaderValues, standardHeaders, type ParamHeader } from './mcp-headers.js';
import { traceHeaders } from './observing.js';

export interface StatelessHttpTransportOptions extends HttpTransportOptions {
  /** The revision of every request: the MCP-Protocol-Version header (the body's _meta says the same). */
  protocolVersion: string;
  /** A tool's `x-mcp-header` parameters, for the Mcp-Param-* headers of its calls. */
  paramHeaders?: (tool: string) => readonly ParamHeader[] | undefined;
}

/** Network failures that mean nothing listens there any more (not a hiccup of one request). */
const GONE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH']);

export class StatelessHttpTransport implements Transport {
  readonly kind = 'streamable-http' as const;
  /** Where what the pipe carries goes (given to start). */
  private sink: TransportSink = NO_SINK;

  private readonly shownUrl: string;
  private readonly baseHeaders: Record<string, string>;
  private readonly log?: HttpLogger;
  private readonly maxBytes: number;
  private readonly refusals: Refusals;
  private readonly agent: Agent;
  /** Our requests whose POST is open, by id: aborting one closes its stream, which cancels it. */
  private readonly inflight = new ChurnMap<JsonRpcId, OwnPost>(); // not a Map: see jsonrpc/churn.ts
  /** Every POST: aborted all at once by close(). */
  private readonly poster: HttpPoster;
  private closed = false;
  private closePromise?: Promise<void>;

  constructor(private readonly options: StatelessHttpTransportOptions) {
    this.shownUrl = redactUrl(options.url);
    this.baseHeaders = lowerCaseHeaders(options.headers);
    this.log = options.logger;
    this.maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.refusals = {
      onerror: (e) => this.reportError(e),
      failRequest: (id, e) => this.failRequest(id, e),
      // Servers of this revision send no requests; one that does gets nothing back.
      refuseRequest: () => {},
    };
    this.agent = new Agent({ connections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS, pipelining: 1, keepAliveTimeout: 10_000 });
    this.poster = new HttpPoster(this.agent, options.url);
  }

  /** Nothing to open: every request is its own POST. */
  async start(sink: TransportSink): Promise<void> {
    this.sink = sink;
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.closed) throw new GatewayError('CONNECTION_CLOSED', `transport to ${this.shownUrl} is closed`);
    const kind = classify(message);
    if (kind === 'notification' && (message as { method: string }).method === 'notifications/cancelled') {
      // On this transport the end of the request's stream is the cancellation.
      const id = (message as { params?: { requestId?: JsonRpcId } }).params?.requestId;
      if (id !== undefined) this.inflight.get(id)?.cancel();
      return;
    }
    // No other client notification exists on HTTP in this revision, and servers send no requests
    // to answer: there is nothing to POST.
    if (kind !== 'request') return;
    await this.post(message as JsonRpcRequest);
  }

  close(): Promise<void> {
    this.closePromise ??= this.shutdown(undefined);
    return this.closePromise;
  }

  private async shutdown(reason: Error | undefined): Promise<void> {
    this.closed = true;
    this.poster.abortAll(new GatewayError('CONNECTION_CLOSED', `transport to ${this.shownUrl} closed`));
    this.inflight.clear();
    await this.agent.destroy().catch(() => {});
    this.sink.close(reason);
  }

  private headersFor(message: JsonRpcRequest): Record<string, string> {
    const h: Record<string, string> = {
      ...this.baseHeaders,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': this.options.protocolVersion,
      ...standardHeaders(message.method, message.params),
      ...traceHeaders(message),
    };
    if (message.method === 'tools/call' && typeof message.params?.name === 'string') {
      const params = this.options.paramHeaders?.(message.params.name);
      if (params) Object.assign(h, paramHeaderValues(params, message.params.arguments));
    }
    return h;
  }

  private async post(message: JsonRpcRequest): Promise<void> {
    const id = message.id;
    const own = new OwnPost();
    this.inflight.set(id, own);
    const headers = this.headersFor(message);
    const body = serializeMessage(message);
    let res: PostResponse;
    try {
      res = await this.poster.post(
        { headers, body, headersTimeout: this.options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS, maxBytes: this.maxBytes, onStart: (abort) => own.started(abort) },
        this.options.auth,
      );
    } catch (err) {
      this.forget(id, own);
      if (this.closed) throw new GatewayError('CONNECTION_CLOSED', `transport to ${this.shownUrl} closed`);
      // Cancelled before the answer began: the Peer has already settled the request.
      if (own.cancelled) return;
      const e = networkError('POST', this.shownUrl, err);
      if (GONE.has((err as { code?: string })?.code ?? '')) void this.gone(e);
      throw e;
    }
    if (res.statusCode >= 400) {
      this.forget(id, own);
      this.refused(res, id);
      return;
    }
    if (res.stream !== undefined) {
      void this.followStream(res.stream, id, own);
      return;
    }
    this.forget(id, own);
    if (own.cancelled) return;
    if (mediaType(res.headers) === 'application/json') {
      this.readJson(res, id);
    } else {
      const type = mediaType(res.headers);
      this.failRequest(id, new GatewayError('PROTOCOL_ERROR', `POST ${this.shownUrl} answered a request with ${res.statusCode} and ${type ? `content-type ${type}` : 'no body'}`));
    }
  }

  /**
   * An error status. A JSON-RPC error in the body (-32022, -32020, -32601...) is the server's
   * answer to this request and is delivered as such; anything else (401, 403, 5xx, an HTML page)
   * rejects send() with the status, which callers (era detection, auth) branch on.
   */
  private refused(res: PostResponse, id: JsonRpcId): void {
    const status = res.statusCode;
    if (status === 401 || status === 403 || mediaType(res.headers) !== 'application/json' || res.cutShort !== undefined) {
      throw postStatusError('POST', this.shownUrl, res);
    }
    if (res.tooLarge) this.reportError(messageTooLarge(this.maxBytes));
    const text = res.tooLarge ? undefined : textOf(res.chunks);
    let body: any;
    try {
      body = text === undefined ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    const error = body?.error;
    if (typeof error?.code !== 'number' || typeof error?.message !== 'string' || (body.id !== id && body.id !== null && body.id !== undefined)) {
      throw new GatewayError('HTTP_ERROR', `POST ${this.shownUrl} → ${status}${text ? ` ${text.slice(0, 200)}` : ''}`, { status });
    }
    // An error without our id (JSON-RPC's null id for a request it could not read) still answers this POST.
    this.sink.message({ jsonrpc: '2.0', id, error }, id);
  }

  /** Reads a request's SSE stream to its end; without the answer by then, the request fails. */
  private async followStream(stream: Readable, id: JsonRpcId, own: OwnPost): Promise<void> {
    let answered = false;
    try {
      await consumeSse(stream, this.maxBytes, {
        onEvent: (ev) => {
          if (ev.data === '' || (ev.event !== undefined && ev.event !== 'message')) return;
          if (this.deliver(ev.data, id).includes(id)) answered = true;
        },
        onerror: (e) => this.reportError(e),
        onTooLarge: (e) => {
          this.reportError(e);
          // On a request's own stream the dropped event was, all but certainly, its answer.
          if (!answered) {
            answered = true;
            this.failRequest(id, e);
          }
        },
      });
    } catch (err) {
      if (this.closed || own.cancelled) return;
      this.log?.debug({ url: this.shownUrl, err: describeError(err) }, 'SSE response stream dropped');
    } finally {
      this.forget(id, own);
      discardBody(stream);
    }
    if (!answered && !own.cancelled) {
      this.failRequest(id, new GatewayError('CONNECTION_CLOSED', `the server's SSE stream for this request ended before its response (streams of this revision cannot be resumed)`));
    }
  }

  /** A JSON answer, read whole: its bytes are offered undecoded first (see TransportSink.text). */
  private readJson(res: PostResponse, id: JsonRpcId): void {
    const failed = (e: Error) => {
      this.reportError(e);
      this.failRequest(id, e);
    };
    if (res.tooLarge) return failed(messageTooLarge(this.maxBytes));
    if (res.cutShort !== undefined) return failed(networkError('POST', this.shownUrl, res.cutShort));
    const taken = res.size === 0 ? undefined : this.sink.text?.(res.chunks, id);
    if (taken === id) return;
    if (taken !== undefined || !this.deliverParsed(textOf(res.chunks), id).includes(id)) {
      failed(new GatewayError('PROTOCOL_ERROR', `POST ${this.shownUrl}: the JSON body was not the answer to this request`));
    }
  }

  /** Hands one text's messages up (as text first: see TransportSink.text); returns the ids of the responses among them. */
  private deliver(data: string | readonly Buffer[], relatedTo: JsonRpcId): JsonRpcId[] {
    const taken = this.sink.text?.(data, relatedTo);
    if (taken !== undefined) return [taken];
    return this.deliverParsed(sseText(data), relatedTo);
  }

  private deliverParsed(text: string, relatedTo: JsonRpcId): JsonRpcId[] {
    const answered: JsonRpcId[] = [];
    for (const msg of parseMessages(text, this.options.maxDepth, this.refusals)) {
      if (classify(msg) === 'response') answered.push((msg as { id: JsonRpcId }).id);
      try {
        this.sink.message(msg, relatedTo);
      } catch (err) {
        this.reportError(err instanceof Error ? err : new Error(String(err)));
      }
    }
    return answered;
  }

  private forget(id: JsonRpcId, own: OwnPost): void {
    if (this.inflight.get(id) === own) this.inflight.delete(id);
  }

  private failRequest(id: JsonRpcId, err: Error): void {
    if (!this.closed) this.sink.fail(id, err);
  }

  private reportError(err: Error): void {
    if (!this.closed) this.sink.error(err);
  }

  /** Nothing listens at the URL any more: the pipe is gone, and the layer above reconnects. */
  private gone(reason: Error): Promise<void> {
    if (this.closePromise) return this.closePromise;
    this.log?.warn({ url: this.shownUrl }, 'server unreachable');
    this.closePromise = this.shutdown(new GatewayError('CONNECTION_CLOSED', `server at ${this.shownUrl} is unreachable: ${reason.message}`, { cause: reason }));
    return this.closePromise;
  }
}

/** One request's POST, as far as cancelling it goes: the client's cancel closes its stream. */
class OwnPost {
  cancelled = false;
  private abort: ((reason: Error) => void) | undefined;

  /** The POST (or its retry with new credentials) is on its way: `abort` ends it. */
  started(abort: (reason: Error) => void): void {
    this.abort = abort;
    if (this.cancelled) abort(new GatewayError('CANCELLED', 'the request was cancelled'));
  }

  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.abort?.(new GatewayError('CANCELLED', 'the request was cancelled'));
  }
}
