// Streamable HTTP client transport (MCP 2025-03-26 … 2025-11-25): one POST per message (SSE answers
// read by StreamableSseReader), session and version headers, DELETE on close. Invariants: send()
// settles once the POST's JSON answer is read or its SSE stream has begun; every stream, timer and
// socket dies with close().

import { setMaxListeners } from 'node:events';
import { Agent, type Dispatcher } from 'undici';
import { GatewayError, describeError } from '../errors.js';
import { ErrorCode, classify, errorResponse, type JsonRpcId, type JsonRpcMessage } from '../protocol/jsonrpc.js';
import { NO_SINK, type Transport, type TransportSink } from '../transport.js';
import { serializeMessage, textOf } from '../jsonrpc/ndjson.js';
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_MESSAGE_BYTES,
  headerValue,
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
import { requestWithAuth } from './http-authorized.js';
import { HttpPoster, postStatusError, releasePost, type PostResponse } from './http-post.js';
import { StreamableSseReader } from './http-streamable-sse.js';
import { sseText } from './http-sse-reader.js';
import { traceHeaders } from './observing.js';

const DELETE_TIMEOUT_MS = 2000;
/** Visible ASCII only (spec): anything else could smuggle header syntax. */
const SESSION_ID_RE = /^[\x21-\x7e]+$/;

export class StreamableHttpTransport implements Transport {
  readonly kind = 'streamable-http' as const;
  /** Where what the pipe carries goes (given to start). */
  private sink: TransportSink = NO_SINK;

  private readonly url: string;
  private readonly shownUrl: string;
  private readonly baseHeaders: Record<string, string>;
  private readonly log?: HttpLogger;
  private readonly maxBytes: number;
  private readonly maxDepth: number | undefined;
  private readonly refusals: Refusals;
  private readonly headersTimeout: number;
  private readonly auth: HttpTransportOptions['auth'];
  private readonly agent: Agent;
  /** The POSTs (every message): aborted all at once by close(). */
  private readonly poster: HttpPoster;
  /** Aborted by close(): cancels every stream, resume loop and retry wait. */
  private readonly closing = new AbortController();
  private readonly reader: StreamableSseReader;
  private sessionId?: string;
  private protocolVersion?: string;
  private getStreamStarted = false;
  private closed = false;
  private closePromise?: Promise<void>;

  constructor(options: HttpTransportOptions) {
    this.url = options.url;
    this.shownUrl = redactUrl(options.url);
    this.baseHeaders = lowerCaseHeaders(options.headers);
    this.log = options.logger;
    this.maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.maxDepth = options.maxDepth;
    this.refusals = {
      onerror: (e) => this.reportError(e),
      failRequest: (id, e) => this.failRequest(id, e),
      refuseRequest: (id, e) => void this.send(errorResponse(id, ErrorCode.InvalidRequest, e.message)).catch(() => {}),
    };
    this.headersTimeout = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
    this.auth = options.auth;
    // Many calls are multiplexed on one server: keep-alive, no pipelining (a slow response must
    // not hold up the ones queued behind it), and room for the long-lived SSE streams.
    this.agent = new Agent({
      connections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
      pipelining: 1,
      keepAliveTimeout: 10_000,
    });
    this.poster = new HttpPoster(this.agent, this.url);
    // Every open SSE stream listens on this signal; dozens at once are normal, not a leak.
    setMaxListeners(0, this.closing.signal);
    const self = this;
    this.reader = new StreamableSseReader({
      url: this.url,
      shownUrl: this.shownUrl,
      agent: this.agent,
      auth: this.auth,
      signal: this.closing.signal,
      maxBytes: this.maxBytes,
      log: this.log,
      get closed() {
        return self.closed;
      },
      get sessionId() {
        return self.sessionId;
      },
      headers: (extra) => this.headers(extra),
      captureSession: (res) => this.captureSession(res),
      sessionExpired: (cause) => this.sessionExpired(cause),
      deliver: (text, relatedTo) => this.deliver(text, relatedTo),
      reportError: (err) => this.reportError(err),
      failRequest: (id, err) => this.failRequest(id, err),
    });
  }

  /** Nothing to open: the first POST (initialize) is the first contact. */
  async start(sink: TransportSink): Promise<void> {
    this.sink = sink;
  }

  /** The session id the server assigned, if any (for logs and checks). */
  get session(): string | undefined {
    return this.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    if (!this.getStreamStarted && !this.closed) {
      this.getStreamStarted = true;
      void this.reader.runGetStream();
    }
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.closed) throw new GatewayError('CONNECTION_CLOSED', `transport to ${this.shownUrl} is closed`);
    const sentSession = this.sessionId;
    const body = serializeMessage(message);
    const extra = traceHeaders(message);
    let res: PostResponse;
    try {
      res = await this.poster.post({ headers: this.postHeaders(extra), body, headersTimeout: this.headersTimeout, maxBytes: this.maxBytes }, this.auth);
    } catch (err) {
      if (this.closed) throw new GatewayError('CONNECTION_CLOSED', `transport to ${this.shownUrl} closed`);
      throw networkError('POST', this.shownUrl, err);
    }
    this.captureSession(res);
    if (res.statusCode >= 300) {
      const err = postStatusError('POST', this.shownUrl, res);
      if (res.statusCode === 404 && sentSession !== undefined) this.sessionExpired(err);
      throw err;
    }
    const type = mediaType(res.headers);
    const awaitingId = classify(message) === 'request' ? (message as { id: JsonRpcId }).id : undefined;
    if (res.statusCode === 202 || res.statusCode === 204 || type === '') {
      releasePost(res); // a 202 that still opened a stream: nothing on it is ours to read
      // A request accepted with no body will never be answered on this POST.
      if (awaitingId !== undefined && res.statusCode !== 202) this.failRequest(awaitingId, new GatewayError('PROTOCOL_ERROR', `POST ${this.shownUrl} answered a request with no body`));
      return;
    }
    // An SSE answer is read in the background: send() is settled, messages arrive through the sink.
    if (res.stream !== undefined) {
      void this.reader.followPostStream(res.stream, awaitingId);
    } else if (type === 'application/json') {
      this.readJson(res, awaitingId);
    } else {
      const err = new GatewayError('PROTOCOL_ERROR', `POST ${this.shownUrl}: unexpected content-type ${type}`);
      this.reportError(err);
      if (awaitingId !== undefined) this.failRequest(awaitingId, err);
    }
  }

  /** One request can no longer be answered: the layer above fails it now, with this error. */
  private failRequest(id: JsonRpcId, err: Error): void {
    if (!this.closed) this.sink.fail(id, err);
  }

  close(): Promise<void> {
    this.closePromise ??= this.shutdown(true, undefined);
    return this.closePromise;
  }

  private async shutdown(endSession: boolean, reason: Error | undefined): Promise<void> {
    this.closed = true;
    this.closing.abort();
    this.poster.abortAll(new GatewayError('CONNECTION_CLOSED', `transport to ${this.shownUrl} closed`));
    if (endSession && this.sessionId !== undefined) {
      // Tells the server it may free the session; 405 (not supported) and failures don't matter.
      try {
        const res = await requestWithAuth(
          this.auth,
          this.url,
          {
            method: 'DELETE',
            dispatcher: this.agent,
            headers: this.headers(),
            signal: AbortSignal.timeout(DELETE_TIMEOUT_MS),
            headersTimeout: DELETE_TIMEOUT_MS,
            bodyTimeout: DELETE_TIMEOUT_MS,
          },
          0,
        );
        await res.body.dump();
      } catch (err) {
        this.log?.debug({ url: this.shownUrl, err: describeError(err) }, 'session DELETE failed');
      }
    }
    await this.agent.destroy().catch(() => {});
    this.sink.close(reason);
  }

  /** A 404 on our session id: the server ended it. The pipe is gone; the layer above reconnects. */
  private sessionExpired(cause: Error): void {
    if (this.closePromise) return;
    this.log?.warn({ url: this.shownUrl }, 'MCP session expired (HTTP 404)');
    const reason = new GatewayError('CONNECTION_CLOSED', `session expired at ${this.shownUrl} (HTTP 404)`, { cause });
    this.closePromise = this.shutdown(false, reason);
  }

  /** A POST's headers, built in one object (this runs for every message). */
  private postHeaders(trace: Record<string, string> | undefined): Record<string, string> {
    const h: Record<string, string> = { ...this.baseHeaders, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (this.sessionId !== undefined) h['mcp-session-id'] = this.sessionId;
    if (this.protocolVersion !== undefined) h['mcp-protocol-version'] = this.protocolVersion;
    if (trace !== undefined) Object.assign(h, trace);
    return h;
  }

  private headers(extra?: Record<string, string>): Record<string, string> {
    const h: Record<string, string> = { ...this.baseHeaders };
    if (this.sessionId !== undefined) h['mcp-session-id'] = this.sessionId;
    if (this.protocolVersion !== undefined) h['mcp-protocol-version'] = this.protocolVersion;
    return { ...h, ...extra };
  }

  /** Takes the session id from any response (normally the initialize answer). */
  private captureSession(res: { headers: Dispatcher.ResponseData['headers'] }): void {
    const id = headerValue(res.headers, 'mcp-session-id');
    if (id === undefined || id === this.sessionId) return;
    if (!SESSION_ID_RE.test(id)) {
      this.reportError(new GatewayError('PROTOCOL_ERROR', 'server sent an invalid Mcp-Session-Id; ignored'));
      return;
    }
    this.sessionId = id;
  }

  /** Hands one text's messages up (as text first: see TransportSink.text); returns the ids of the responses among them. */
  private deliver(data: string | readonly Buffer[], relatedTo?: JsonRpcId): JsonRpcId[] {
    const taken = this.sink.text?.(data, relatedTo);
    if (taken !== undefined) return [taken];
    return this.deliverParsed(sseText(data), relatedTo);
  }

  private deliverParsed(text: string, relatedTo?: JsonRpcId): JsonRpcId[] {
    const answered: JsonRpcId[] = [];
    for (const msg of parseMessages(text, this.maxDepth, this.refusals)) {
      if (classify(msg) === 'response') answered.push((msg as { id: JsonRpcId }).id);
      try {
        this.sink.message(msg, relatedTo);
      } catch (err) {
        // A throwing handler must not end the stream the next messages arrive on.
        this.reportError(err instanceof Error ? err : new Error(String(err)));
      }
    }
    return answered;
  }

  private reportError(err: Error): void {
    if (!this.closed) this.sink.error(err);
  }

  /** A JSON answer, already read whole: its bytes are offered as they came (see deliverBytes). */
  private readJson(res: PostResponse, awaitingId: JsonRpcId | undefined): void {
    // The JSON body was the only place its answer could come: without it the call is over.
    const failed = (e: Error) => {
      this.reportError(e);
      if (awaitingId !== undefined) this.failRequest(awaitingId, e);
    };
    if (res.tooLarge) return failed(messageTooLarge(this.maxBytes));
    if (res.cutShort !== undefined) return failed(networkError('POST', this.shownUrl, res.cutShort));
    const answered = this.deliverBytes(res.chunks, res.size);
    // A JSON answer that answers nothing (garbage, another id) will not be followed by one.
    if (awaitingId !== undefined && !answered.includes(awaitingId)) failed(new GatewayError('PROTOCOL_ERROR', `POST ${this.shownUrl}: the JSON body was not the answer to this request`));
  }

  /**
   * A body's bytes, offered to the Peer undecoded (a response it passes on, as from a stdio
   * server), else decoded and parsed. Returns the ids of the responses among its messages.
   */
  private deliverBytes(chunks: Buffer[], size: number): JsonRpcId[] {
    if (size === 0) return [];
    const taken = this.sink.text?.(chunks);
    if (taken !== undefined) return [taken];
    const text = textOf(chunks);
    return text.trim() === '' ? [] : this.deliverParsed(text);
  }
}
