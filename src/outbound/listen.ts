// A 2026-07-28 connection's notification stream: one long-lived `subscriptions/listen` request
// (no timeout; on HTTP its SSE answer) asking for the list changes and resource updates we want.
// Changing what we want opens a new stream and closes the old one only once the new one is
// acknowledged, so nothing is missed; notifications are taken from one stream at a time (by the
// subscription id they carry), so nothing arrives twice. A stream that ends on its own is opened
// again after a pause that grows while it keeps failing.

import { isJsonObject, type JsonObject } from '../protocol/json.js';
import { Cancellation } from '../jsonrpc/cancellation.js';
import type { Peer } from '../jsonrpc/peer.js';
import type { Logger } from '../log.js';
import { ErrorCode, isErrorResponse, type JsonRpcId, type JsonRpcNotification, type JsonRpcResponse } from '../protocol/jsonrpc.js';
import { META } from '../protocol/stateless.js';

/** The `notifications` filter of a listen request. */
export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

export interface ListenHost<O> {
  readonly logger: Logger;
  /** The peer of a ready connection, else undefined (nothing is opened then). */
  peer(): Peer<O> | undefined;
  /** What to listen for now; undefined when there is nothing to ask for. */
  filter(): ListenFilter | undefined;
  /** The request's params with the connection's envelope. */
  params(filter: ListenFilter): JsonObject;
}

/** The listen stream a notification is tagged with (its `_meta` subscription id), if any. */
function tagOf(params: JsonObject | undefined): unknown {
  const meta = params?._meta;
  return isJsonObject(meta) ? meta[META.subscriptionId] : undefined;
}

export const ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

class Stream {
  id?: JsonRpcId;
  acked = false;
  ended = false;
  /** Replaced by a newer stream before it was acknowledged: its waiters follow that one. */
  superseded = false;
  readonly cancellation = new Cancellation();
  readonly ready: Promise<void>;
  resolve!: () => void;
  reject!: (err: Error) => void;

  constructor(readonly key: string) {
    this.ready = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Nobody may be waiting for this one (a re-listen after a reconnect).
    this.ready.catch(() => {});
  }
}

export class Listener<O> {
  private current?: Stream;
  /** The stream being replaced: its notifications count until the current one is acknowledged. */
  private previous?: Stream;
  private retryTimer?: NodeJS.Timeout;
  private retryMs = FIRST_RETRY_MS;
  /** The server answered listen with "no such method": do not ask again on this peer. */
  private unsupported = false;

  constructor(private readonly host: ListenHost<O>) {}

  /** Requests in flight that are listen streams (not counted against the per-server call limit). */
  get inFlight(): number {
    return (this.current && !this.current.ended ? 1 : 0) + (this.previous && !this.previous.ended ? 1 : 0);
  }

  /**
   * Makes the stream ask for the host's current filter: nothing to do when it already does, else
   * a new stream. Resolves once the stream asking for it is acknowledged; rejects if it ends first.
   */
  refresh(): Promise<void> {
    const filter = this.host.filter();
    const key = filter === undefined ? '' : JSON.stringify(filter);
    const cur = this.current;
    if (cur && !cur.ended && cur.key === key) return cur.ready;
    if (filter === undefined) {
      this.end(this.current);
      this.end(this.previous);
      this.current = this.previous = undefined;
      return Promise.resolve();
    }
    const peer = this.host.peer();
    if (!peer || this.unsupported) return Promise.resolve();
    clearTimeout(this.retryTimer);
    const stream = new Stream(key);
    if (cur && !cur.ended) {
      if (cur.acked) {
        // The stream in charge keeps delivering until this one is acknowledged.
        this.end(this.previous);
        this.previous = cur;
      } else {
        // Never acknowledged: nothing to hand over; whoever waits for it waits for this one.
        cur.superseded = true;
        this.end(cur);
        stream.ready.then(cur.resolve, cur.reject);
      }
    }
    this.current = stream;
    peer.requestRaw('subscriptions/listen', this.host.params(filter), { cancellation: stream.cancellation, onId: (id) => (stream.id = id) }).then(
      (answer) => this.ended(stream, answer as JsonRpcResponse),
      (err: Error) => this.ended(stream, undefined, err),
    );
    return stream.ready;
  }

  /**
   * Whether the connection should act on a notification: acknowledgements and stream teardowns
   * are handled here; a tagged notification counts only from the stream in charge.
   */
  accept(n: JsonRpcNotification): boolean {
    const params = n.params;
    if (n.method === ACKNOWLEDGED) {
      const stream = this.byId(tagOf(params));
      if (stream && !stream.acked) this.acknowledged(stream);
      return false;
    }
    if (n.method === 'notifications/cancelled') {
      // The server tore a listen stream down (stdio).
      const stream = this.byId(params?.requestId);
      if (!stream) return true;
      stream.cancellation.cancel();
      return false;
    }
    const tag = tagOf(params);
    if (tag === undefined) return true;
    const cur = this.current;
    if (cur?.id === tag) return true;
    return this.previous?.id === tag && !cur?.acked;
  }

  /** The connection dropped or closed: its streams went with it; nothing is retried. */
  stop(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.end(this.current);
    this.end(this.previous);
    this.current = this.previous = undefined;
    this.unsupported = false;
    this.retryMs = FIRST_RETRY_MS;
  }

  private byId(id: unknown): Stream | undefined {
    if (id === undefined) return undefined;
    if (this.current?.id === id) return this.current;
    if (this.previous?.id === id) return this.previous;
    return undefined;
  }

  private acknowledged(stream: Stream): void {
    stream.acked = true;
    this.retryMs = FIRST_RETRY_MS;
    stream.resolve();
    if (stream === this.current && this.previous) {
      this.end(this.previous);
      this.previous = undefined;
    }
  }

  /** Closes a stream of ours: the Peer tells the server (stdio) or closes the HTTP stream. */
  private end(stream: Stream | undefined): void {
    if (!stream || stream.ended) return;
    stream.ended = true;
    stream.cancellation.cancel();
    if (!stream.superseded) stream.reject(new Error('listen stream closed'));
  }

  /** The listen request is over: by our doing, the server's, or the connection's end. */
  private ended(stream: Stream, answer?: JsonRpcResponse, err?: Error): void {
    const ours = stream.ended;
    stream.ended = true;
    if (this.previous === stream) this.previous = undefined;
    if (ours || this.current !== stream) return;
    const why = err?.message ?? (answer && isErrorResponse(answer) ? `${answer.error.code} ${answer.error.message}` : 'the server ended it');
    stream.reject(new Error(`listen stream ended before it was acknowledged: ${why}`));
    if (answer && isErrorResponse(answer) && (answer.error.code === ErrorCode.MethodNotFound || answer.error.code === ErrorCode.InvalidParams)) {
      this.unsupported = true;
      this.host.logger.warn({ error: answer.error.code }, 'server refused subscriptions/listen: no list_changed or resource updates from it');
      return;
    }
    const peer = this.host.peer();
    if (!peer || peer.isClosed) return;
    this.host.logger.info({ why, retryInMs: this.retryMs }, 'listen stream ended; opening it again');
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.current === stream) void this.refresh().catch(() => {});
    }, this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }
}
