// Legacy HTTP+SSE client transport (MCP 2024-11-05): one long GET stream carries every server
// message after an initial `endpoint` event; each client message is a POST to that endpoint.
// Invariants: the endpoint is same-origin with the SSE URL; the end of the stream ends the pipe.

import { setMaxListeners } from 'node:events';
import { Agent, type Dispatcher } from 'undici';
import { GatewayError, describeError } from '../errors.js';
import { ErrorCode, errorResponse, type JsonRpcMessage } from '../protocol/jsonrpc.js';
import { NO_SINK, type Transport, type TransportSink } from '../transport.js';
import { responseIdInHead, serializeMessage } from '../jsonrpc/ndjson.js';
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_MESSAGE_BYTES,
  lowerCaseHeaders,
  mediaType,
  discardBody,
  networkError,
  parseMessages,
  redactUrl,
  statusError,
  type HttpLogger,
  type HttpTransportOptions,
  type Refusals,
} from './http-common.js';
import { consumeSse, sseText } from './http-sse-reader.js';
import { requestWithAuth } from './http-authorized.js';
import { HttpPoster, postStatusError, releasePost, type PostResponse } from './http-post.js';
import { traceHeaders } from './observing.js';

export interface LegacySseTransportOptions extends HttpTransportOptions {
  /** How long start() waits for the `endpoint` event (and the GET's headers). Default 10 s. */
  endpointTimeoutMs?: number;
}

const DEFAULT_ENDPOINT_TIMEOUT_MS = 10_000;

export class LegacySseTransport implements Transport {
  readonly kind = 'sse' as const;
  /** Where what the pipe carries goes (given to start). */
  private sink: TransportSink = NO_SINK;

  private readonly url: URL;
  private readonly shownUrl: string;
  private readonly baseHeaders: Record<string, string>;
  private readonly log?: HttpLogger;
  private readonly maxBytes: number;
  private readonly maxDepth: number | undefined;
  private readonly refusals: Refusals;
  private readonly headersTimeout: number;
  private readonly endpointTimeout: number;
  private readonly agent: Agent;
  private readonly auth: HttpTransportOptions['auth'];
  private readonly closing = new AbortController();
  private endpoint?: URL;
  /** POSTs to the endpoint the server named: aborted all at once by close(). */
  private poster?: HttpPoster;
  private started = false;
  private closed = false;
  private closePromise?: Promise<void>;

  constructor(options: LegacySseTransportOptions) {
    this.url = new URL(options.url);
    this.shownUrl = redactUrl(this.url);
    this.baseHeaders = lowerCaseHeaders(options.headers);
    this.log = options.logger;
    this.maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.maxDepth = options.maxDepth;
    this.refusals = {
      onerror: (e) => this.reportError(e),
      failRequest: (id, e) => {
        if (!this.closed) this.sink.fail(id, e);
      },
      refuseRequest: (id, e) => void this.send(errorResponse(id, ErrorCode.InvalidRequest, e.message)).catch(() => {}),
    };
    this.headersTimeout = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
    this.auth = options.auth;
    this.endpointTimeout = options.endpointTimeoutMs ?? DEFAULT_ENDPOINT_TIMEOUT_MS;
    this.agent = new Agent({
      connections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
      pipelining: 1,
      keepAliveTimeout: 10_000,
    });
    setMaxListeners(0, this.closing.signal);
  }

  /** Opens the GET stream and resolves once the server named its POST endpoint. */
  async start(sink: TransportSink): Promise<void> {
    if (this.started) throw new GatewayError('PROTOCOL_ERROR', 'LegacySseTransport already started');
    if (this.closed) throw new GatewayError('CONNECTION_CLOSED', `transport to ${this.shownUrl} is closed`);
    this.sink = sink;
    this.started = true;
    let timer: NodeJS.Timeout | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        timer = setTimeout(() => {
          reject(new GatewayError('PROTOCOL_ERROR', `GET ${this.shownUrl}: no endpoint event within ${this.endpointTimeout} ms`));
        }, this.endpointTimeout);
        void this.openStream(resolve, reject);
      });
    } catch (err) {
      // Free the half-open stream and socket; the caller sees start() reject, not the sink's close.
      this.closed = true;
      this.closing.abort();
      await this.agent.destroy().catch(() => {});
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  setProtocolVersion(): void {
    // 2024-11-05 has no version header.
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.closed) throw new GatewayError('CONNECTION_CLOSED', `transport to ${this.shownUrl} is closed`);
    if (!this.endpoint) throw new GatewayError('PROTOCOL_ERROR', `transport to ${this.shownUrl} is not started`);
    const shown = redactUrl(this.endpoint);
    const poster = this.poster!;
    const headers = { ...this.baseHeaders, 'content-type': 'application/json', ...traceHeaders(message) };
    const body = serializeMessage(message);
    let res: PostResponse;
    try {
      res = await poster.post({ headers, body, headersTimeout: this.headersTimeout, maxBytes: this.maxBytes }, this.auth);
    } catch (err) {
      if (this.closed) throw new GatewayError('CONNECTION_CLOSED', `transport to ${this.shownUrl} closed`);
      throw networkError('POST', shown, err);
    }
    if (res.statusCode >= 300) throw postStatusError('POST', shown, res);
    // Answers come on the SSE stream; the POST body (e.g. "Accepted") carries nothing.
    releasePost(res);
  }

  close(): Promise<void> {
    this.closePromise ??= this.finish(undefined);
    return this.closePromise;
  }

  private async finish(reason: Error | undefined): Promise<void> {
    this.closed = true;
    this.closing.abort();
    this.poster?.abortAll(new GatewayError('CONNECTION_CLOSED', `transport to ${this.shownUrl} closed`));
    await this.agent.destroy().catch(() => {});
    this.sink.close(reason);
  }

  private async openStream(resolve: () => void, reject: (e: Error) => void): Promise<void> {
    let res: Dispatcher.ResponseData;
    try {
      res = await requestWithAuth(this.auth, this.url.href, {
        method: 'GET',
        dispatcher: this.agent,
        headers: { ...this.baseHeaders, accept: 'text/event-stream' },
        signal: this.closing.signal,
        headersTimeout: this.endpointTimeout,
        bodyTimeout: 0,
      });
    } catch (err) {
      reject(networkError('GET', this.shownUrl, err));
      return;
    }
    if (res.statusCode >= 300) {
      reject(await statusError('GET', this.shownUrl, res));
      return;
    }
    if (mediaType(res.headers) !== 'text/event-stream') {
      discardBody(res.body);
      reject(new GatewayError('PROTOCOL_ERROR', `GET ${this.shownUrl}: expected text/event-stream, got ${mediaType(res.headers) || 'no content-type'}`));
      return;
    }
    let reason: Error;
    try {
      await consumeSse(res.body, this.maxBytes, {
        onEvent: (ev) => {
          if (ev.event === 'endpoint') this.onEndpoint(sseText(ev.data), resolve, reject);
          else if ((ev.event === undefined || ev.event === 'message') && ev.data !== '') this.deliver(ev.data);
        },
        onerror: (e) => this.reportError(e),
        // Every answer comes on this one stream: the dropped event's own id says whose it was.
        onTooLarge: (e, head) => {
          this.reportError(e);
          const id = head === undefined ? undefined : responseIdInHead(head);
          if (id !== undefined && !this.closed) this.sink.fail(id, e);
        },
      });
      reason = new GatewayError('CONNECTION_CLOSED', `SSE stream from ${this.shownUrl} ended`);
    } catch (err) {
      reason = new GatewayError('CONNECTION_CLOSED', `SSE stream from ${this.shownUrl} failed: ${describeError(err)}`, {
        cause: err,
      });
    } finally {
      discardBody(res.body);
    }
    // Before the endpoint, this rejects start(); after it, the pipe is gone (no-op if settled).
    reject(reason);
    if (this.endpoint && !this.closed) this.closePromise ??= this.finish(reason);
  }

  private onEndpoint(data: string, resolve: () => void, reject: (e: Error) => void): void {
    if (this.endpoint) {
      this.log?.debug({ url: this.shownUrl }, 'ignoring a repeated endpoint event');
      return;
    }
    let endpoint: URL;
    try {
      endpoint = new URL(data.trim(), this.url);
    } catch {
      reject(new GatewayError('PROTOCOL_ERROR', `GET ${this.shownUrl}: endpoint event is not a URL`));
      return;
    }
    // Security: a server must not redirect our messages (and configured credentials) elsewhere.
    if (endpoint.origin !== this.url.origin) {
      reject(new GatewayError('PROTOCOL_ERROR', `GET ${this.shownUrl}: endpoint ${redactUrl(endpoint)} is not same-origin; refused`));
      return;
    }
    this.endpoint = endpoint;
    this.poster = new HttpPoster(this.agent, endpoint.href);
    this.log?.debug({ url: this.shownUrl, endpoint: redactUrl(endpoint) }, 'legacy SSE endpoint received');
    resolve();
  }

  /** Offers an event's data up undecoded first (see TransportSink.text), else parses and delivers it. */
  private deliver(data: string | readonly Buffer[]): void {
    if (this.sink.text?.(data) !== undefined) return;
    for (const msg of parseMessages(sseText(data), this.maxDepth, this.refusals)) {
      try {
        this.sink.message(msg);
      } catch (err) {
        this.reportError(err instanceof Error ? err : new Error(String(err)));
      }
    }
  }

  private reportError(err: Error): void {
    if (!this.closed) this.sink.error(err);
  }
}
