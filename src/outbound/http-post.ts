// One POST to an MCP server over HTTP, through undici's dispatch API rather than request(). The
// common answer (a JSON body, an empty 202) is collected into the Buffers it arrives in: no body
// stream, no async iterator, no AbortSignal listener per request. Measured on a remote echo
// server (bench path sb-remote), request() with a signal and `for await` over its body cost
// ~13 µs of CPU a call more than this. A 2xx SSE answer still becomes a stream, read as before.
// Invariants: every body is bounded (maxBytes; past it the request is aborted); every POST in
// flight is aborted by abortAll() (close); a response is settled exactly once.

import { Readable } from 'node:stream';
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { Slots } from '../jsonrpc/churn.js';
import { textOf } from '../jsonrpc/ndjson.js';
import type { ServerAuth } from './auth/types.js';
import { withAuth } from './http-authorized.js';
import { discardBody, excerptOf, headerValue, mediaType, statusErrorOf } from './http-common.js';

export interface PostResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  /** The whole body, as read (every answer but a 2xx SSE stream); empty when it was over maxBytes. */
  chunks: Buffer[];
  /** Bytes in `chunks`. */
  size: number;
  /** The body was over maxBytes: the request was aborted and `chunks` dropped. */
  tooLarge: boolean;
  /** The body broke off after the status came (the connection dropped): what was read is not an answer. */
  cutShort?: Error;
  /** A 2xx `text/event-stream` answer: its body, read as it arrives. */
  stream?: Readable;
}

export interface PostOptions {
  headers: Record<string, string>;
  body: string;
  headersTimeout: number;
  maxBytes: number;
  /** Receives the function that aborts this POST (closing its answer's stream, if any). */
  onStart?: (abort: (reason: Error) => void) => void;
}

/** POSTs to one URL on one undici dispatcher (an Agent's keep-alive pool). */
export class HttpPoster {
  private readonly origin: string;
  private readonly path: string;
  /** POSTs in flight (see jsonrpc/churn.ts for why not a Set). */
  private readonly inflight = new Slots<PostExchange>();

  constructor(
    private readonly dispatcher: Dispatcher,
    url: string,
  ) {
    const u = new URL(url);
    this.origin = u.origin;
    this.path = `${u.pathname}${u.search}`;
  }

  /**
   * Sends one POST. With `auth`, the server's token is added and its challenges answered by
   * sending again (withAuth); a refusal that new credentials cannot fix comes back as it is.
   */
  post(options: PostOptions, auth?: ServerAuth): Promise<PostResponse> {
    if (auth === undefined) return this.dispatchPost(options);
    return withAuth(auth, (token) => this.dispatchPost({ ...options, headers: { ...options.headers, ...token } }), releasePost);
  }

  private dispatchPost(options: PostOptions): Promise<PostResponse> {
    return new Promise<PostResponse>((resolve, reject) => {
      const exchange = new PostExchange(options.maxBytes, resolve, reject, (x) => this.inflight.remove(x.slot, x));
      exchange.slot = this.inflight.add(exchange);
      options.onStart?.((reason) => exchange.abort(reason));
      this.dispatcher.dispatch(
        { origin: this.origin, path: this.path, method: 'POST', headers: options.headers, body: options.body, headersTimeout: options.headersTimeout, bodyTimeout: 0 },
        exchange,
      );
    });
  }

  /** Aborts every POST in flight (the transport is closing). */
  abortAll(reason: Error): void {
    for (const x of this.inflight.values()) x.abort(reason);
  }
}

/** One POST's handler: collects the body, or feeds it to a stream for an SSE answer. */
class PostExchange implements Dispatcher.DispatchHandler {
  slot = -1;
  private controller: Dispatcher.DispatchController | undefined;
  private abortReason: Error | undefined;
  private response: PostResponse | undefined;
  private settled = false;
  private done = false;

  constructor(
    private readonly maxBytes: number,
    private readonly resolve: (r: PostResponse) => void,
    private readonly reject: (e: Error) => void,
    private readonly release: (x: PostExchange) => void,
  ) {}

  abort(reason: Error): void {
    if (this.done) return;
    this.abortReason ??= reason;
    // Not yet on a socket: aborted as soon as undici hands it over.
    this.controller?.abort(reason);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.abortReason !== undefined) controller.abort(this.abortReason);
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    if (statusCode < 200) return; // 1xx: the answer is still to come
    const response: PostResponse = { statusCode, headers, chunks: [], size: 0, tooLarge: false };
    this.response = response;
    if (statusCode < 300 && mediaType(headers) === 'text/event-stream') {
      response.stream = new Readable({
        // Backpressure: undici stops reading the socket while the stream's buffer is full.
        read: () => controller.resume(),
        destroy: (err, callback) => {
          if (!this.done) controller.abort(err ?? new Error('the SSE stream was closed'));
          callback(err);
        },
      });
      this.settle();
      return;
    }
    const length = Number(headerValue(headers, 'content-length'));
    if (length > this.maxBytes) this.overLimit(controller);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    const response = this.response;
    if (response === undefined) return;
    if (response.stream !== undefined) {
      if (!response.stream.push(chunk)) controller.pause();
      return;
    }
    if (response.tooLarge) return;
    response.size += chunk.length;
    if (response.size > this.maxBytes) return this.overLimit(controller);
    response.chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.finish();
    const stream = this.response?.stream;
    if (stream !== undefined) stream.push(null);
    else this.settle();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.finish();
    const response = this.response;
    if (response?.stream !== undefined) {
      response.stream.destroy(error);
      return;
    }
    // Once the status is known the POST has an outcome: over the limit (tooLarge), or cut short.
    if (response !== undefined) {
      if (!response.tooLarge) response.cutShort = error;
      return this.settle();
    }
    if (!this.settled) {
      this.settled = true;
      this.reject(error);
    }
  }

  /** Over maxBytes: nothing more is read; the caller hears tooLarge. */
  private overLimit(controller: Dispatcher.DispatchController): void {
    const response = this.response!;
    response.tooLarge = true;
    response.chunks = [];
    this.settle();
    controller.abort(new Error('the answer is over the size limit'));
  }

  private settle(): void {
    if (this.settled) return;
    this.settled = true;
    if (this.response !== undefined) this.resolve(this.response);
    else this.reject(new Error('the server closed the exchange without a response'));
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.release(this);
  }
}

/** An error status as HTTP_ERROR, with the start of its body (as statusError does for request()). */
export function postStatusError(method: string, url: string, res: PostResponse): Error {
  const excerpt = res.size === 0 ? '' : excerptOf(textOf([Buffer.concat(res.chunks).subarray(0, 512)]));
  return statusErrorOf(method, url, res.statusCode, excerpt);
}

/** Discards what a response still holds: its stream, if it is one (a collected body is just dropped). */
export function releasePost(res: PostResponse): void {
  if (res.stream !== undefined) discardBody(res.stream);
}
