// The SSE side of Streamable HTTP for one session: reading POST response streams, resuming them
// via GET + Last-Event-ID when the server closes early (2025-11-25 polling), and keeping the
// standalone GET stream open with bounded backoff. Invariant: every loop stops once host.closed.

import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { GatewayError, describeError } from '../errors.js';
import type { JsonRpcId } from '../protocol/jsonrpc.js';
import { requestWithAuth } from './http-authorized.js';
import { consumeSse } from './http-sse-reader.js';
import { SSE_HEADERS_TIMEOUT_MS, discardBody, mediaType, statusError, type HttpLogger, type HttpTransportOptions } from './http-common.js';

/** Resuming a POST's stream: reconnections in a row that bring nothing before giving up. */
const MAX_RESUME_ATTEMPTS = 5;
const DEFAULT_RETRY_MS = 1000;
const MAX_BACKOFF_MS = 30_000;

/** What the transport lends the reader; the reader owns no resources of its own. */
export interface SseReaderContext {
  readonly url: string;
  readonly shownUrl: string;
  readonly agent: Dispatcher;
  /** The server's OAuth state, when it has one: the GET carries its token too. */
  readonly auth: HttpTransportOptions['auth'];
  /** Aborted by close(): ends streams, requests and retry waits. */
  readonly signal: AbortSignal;
  readonly maxBytes: number;
  readonly log?: HttpLogger;
  readonly closed: boolean;
  readonly sessionId: string | undefined;
  headers(extra: Record<string, string>): Record<string, string>;
  captureSession(res: { headers: Dispatcher.ResponseData['headers'] }): void;
  sessionExpired(cause: Error): void;
  /** Hands the text's messages up; returns the ids of the responses among them, for response matching. */
  deliver(data: string | readonly Buffer[], relatedTo?: JsonRpcId): JsonRpcId[];
  reportError(err: Error): void;
  /** One request can no longer be answered (its stream ended for good, or its answer was dropped). */
  failRequest(id: JsonRpcId, err: Error): void;
}

/** Cursor of one logical SSE stream across reconnections. */
interface StreamCursor {
  lastEventId?: string;
  retryMs?: number;
  /** For a POST stream: the request whose response completes the stream. */
  awaitingId?: JsonRpcId;
  answered: boolean;
  /** The latest connection delivered at least one event (resets the failure count). */
  progressed: boolean;
}

// The resume and reconnect loops are async loops over plain awaits, not rxjs retry pipelines:
// their state (last event id, the server's retry, failures reset by progress) is read and written
// between attempts, which a loop shows in order and an operator chain would hide in closures.
export class StreamableSseReader {
  constructor(private readonly host: SseReaderContext) {}

  /** Consumes a POST's SSE response in the background until its request is answered. */
  async followPostStream(body: Readable, awaitingId: JsonRpcId | undefined): Promise<void> {
    const host = this.host;
    const cursor: StreamCursor = { awaitingId, answered: false, progressed: false };
    try {
      await this.pump(body, cursor);
      if (awaitingId === undefined || cursor.answered) return;
      if (cursor.lastEventId === undefined) {
        const msg = `the server's SSE stream for this request ended before its response and cannot be resumed`;
        this.giveUp(awaitingId, new GatewayError('CONNECTION_CLOSED', msg));
        return;
      }
      let failures = 0;
      while (!cursor.answered && !host.closed) {
        if (failures >= MAX_RESUME_ATTEMPTS) {
          const msg = `gave up resuming the server's SSE stream for this request after ${failures} attempts`;
          this.giveUp(awaitingId, new GatewayError('CONNECTION_CLOSED', msg));
          return;
        }
        // The spec says MUST respect `retry` before reconnecting.
        await sleep(cursor.retryMs ?? DEFAULT_RETRY_MS, undefined, { signal: host.signal });
        const outcome = await this.openGet(cursor);
        if (outcome === 'stop') {
          if (!cursor.answered) this.giveUp(awaitingId, new GatewayError('CONNECTION_CLOSED', "the server's SSE stream for this request cannot be resumed"));
          return;
        }
        failures = outcome === 'streamed' && cursor.progressed ? 0 : failures + 1;
      }
    } catch (err) {
      if (!host.closed) {
        const e = err instanceof Error ? err : new Error(String(err));
        host.reportError(e);
        if (!cursor.answered && awaitingId !== undefined) host.failRequest(awaitingId, e);
      }
    }
  }

  private giveUp(awaitingId: JsonRpcId, err: GatewayError): void {
    this.host.reportError(err);
    this.host.failRequest(awaitingId, err);
  }

  /** The standalone GET stream for server-initiated messages, reopened until close(). */
  async runGetStream(): Promise<void> {
    const host = this.host;
    const cursor: StreamCursor = { answered: false, progressed: false };
    let failures = 0;
    try {
      while (!host.closed) {
        const outcome = await this.openGet(cursor);
        if (outcome === 'stop') return;
        failures = outcome === 'streamed' && cursor.progressed ? 0 : failures + 1;
        // After a clean poll the server's retry is obeyed as is; failures back off from it.
        const base = cursor.retryMs ?? DEFAULT_RETRY_MS;
        const delay = failures === 0 ? base : Math.min(base * 2 ** (failures - 1), MAX_BACKOFF_MS);
        await sleep(delay, undefined, { signal: host.signal });
      }
    } catch (err) {
      if (!host.closed) host.reportError(err instanceof Error ? err : new Error(String(err)));
    }
  }

  /**
   * Reads one SSE connection into the cursor. Returns when the body ends or drops (a drop is
   * just an end: the caller may resume); rethrows only after close(), so callers stop.
   */
  private async pump(body: Readable, cursor: StreamCursor): Promise<void> {
    const host = this.host;
    cursor.progressed = false;
    try {
      await consumeSse(body, host.maxBytes, {
        onEvent: (ev) => {
          cursor.progressed = true;
          if (ev.id !== undefined) cursor.lastEventId = ev.id;
          // Empty data: a 2025-11-25 priming event, only there to hand us an id.
          if (ev.data === '' || (ev.event !== undefined && ev.event !== 'message')) return;
          for (const id of host.deliver(ev.data, cursor.awaitingId)) if (id === cursor.awaitingId) cursor.answered = true;
        },
        onRetry: (ms) => (cursor.retryMs = ms),
        onerror: (e) => host.reportError(e),
        onTooLarge: (e) => {
          host.reportError(e);
          // On a request's own stream the dropped event was, all but certainly, its answer.
          if (cursor.awaitingId !== undefined && !cursor.answered) {
            cursor.answered = true;
            host.failRequest(cursor.awaitingId, e);
          }
        },
      });
    } catch (err) {
      if (host.closed) throw err;
      host.log?.debug({ url: host.shownUrl, err: describeError(err) }, 'SSE connection dropped');
    } finally {
      discardBody(body);
    }
  }

  /**
   * One GET connection (fresh, or resuming with Last-Event-ID), pumped to its end.
   * 'stop': retrying is pointless (405, a client error, session gone); 'failed': retry later.
   */
  private async openGet(cursor: StreamCursor): Promise<'streamed' | 'failed' | 'stop'> {
    const host = this.host;
    const sentSession = host.sessionId;
    const extra: Record<string, string> = { accept: 'text/event-stream' };
    if (cursor.lastEventId !== undefined) extra['last-event-id'] = cursor.lastEventId;
    let res: Dispatcher.ResponseData;
    try {
      res = await requestWithAuth(host.auth, host.url, {
        method: 'GET',
        dispatcher: host.agent,
        headers: host.headers(extra),
        signal: host.signal,
        headersTimeout: SSE_HEADERS_TIMEOUT_MS,
        // A quiet stream is normal (no server notifications for hours); close() ends it.
        bodyTimeout: 0,
      });
    } catch (err) {
      if (host.closed) return 'stop';
      host.log?.debug({ url: host.shownUrl, err: describeError(err) }, 'GET stream failed to connect');
      return 'failed';
    }
    host.captureSession(res);
    if (res.statusCode === 405) {
      res.body.dump().catch(() => {});
      host.log?.debug({ url: host.shownUrl }, 'server offers no GET stream (405)');
      return 'stop';
    }
    if (res.statusCode >= 300) {
      const err = await statusError('GET', host.shownUrl, res);
      if (res.statusCode === 404 && sentSession !== undefined) {
        host.sessionExpired(err);
        return 'stop';
      }
      // 409: the server still holds our previous GET stream; 408/429/5xx: transient.
      const transient = [408, 409, 429].includes(res.statusCode) || res.statusCode >= 500;
      if (!transient) host.reportError(err);
      return transient ? 'failed' : 'stop';
    }
    if (mediaType(res.headers) !== 'text/event-stream') {
      discardBody(res.body);
      host.reportError(new GatewayError('PROTOCOL_ERROR', `GET ${host.shownUrl}: expected text/event-stream`));
      return 'stop';
    }
    host.log?.debug({ url: host.shownUrl, resuming: cursor.lastEventId !== undefined }, 'SSE GET stream open');
    await this.pump(res.body, cursor);
    return 'streamed';
  }
}
