// One Server-Sent Events response. Each JSON-RPC message becomes `event: message`. It carries an
// SSE id only when the event was stored first (sendEvent: a state store keeps the session's events
// for Last-Event-ID); without a store there is nothing to replay, and clients that saw ids would
// retry in vain (the SDK client does). Writes after the client left or after end() are dropped
// and reported as `false`, never thrown: a vanished client is normal on long-lived streams.

import type { Slots } from '../jsonrpc/churn.js';
import { bufferBytes, pieceMode, writePiece } from '../jsonrpc/wire-bytes.js';
import type { ServerResponse } from 'node:http';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';
import { serializeMessage } from '../jsonrpc/ndjson.js';

/**
 * A client this far behind is not reading; dropping its stream beats buffering without bound.
 * (Pushed messages then wait in the session backlog for the next GET.)
 */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

const CR = 13;
const SPACE = 32;

/** `chunk` with every CR made a space (a copy only when it has one). */
function withoutCr<C extends Buffer | string>(chunk: C): C {
  if (typeof chunk === 'string') return (chunk.includes('\r') ? chunk.replaceAll('\r', ' ') : chunk) as C;
  if (!chunk.includes(CR)) return chunk;
  const copy = Buffer.from(chunk);
  for (let at = copy.indexOf(CR); at !== -1; at = copy.indexOf(CR, at + 1)) copy[at] = SPACE;
  return copy as C;
}

/** A message passed through as chunks, as one line of text to store (CRs made spaces, see sendChunks). */
export function chunksText(chunks: readonly (Buffer | string)[]): string {
  // Concatenated before decoding: a character may straddle two buffers.
  return withoutCr(Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c))).toString('utf8'));
}

export class SseStream {
  private closed = false;
  /** Where the registry keeps this stream while it is open. */
  private slot: number | undefined;

  /**
   * Writes the SSE headers (once; they leave with the first event or comment) and joins
   * `registry`, the streams the endpoint pings to keep idle ones alive through proxies (Slots, not
   * a Set: a POST's stream comes and goes with its request, see jsonrpc/churn.ts).
   */
  constructor(
    private readonly res: ServerResponse,
    readonly streamId: string,
    sessionId: string | undefined,
    private readonly registry: Slots<SseStream>,
    private readonly maxBufferedBytes = MAX_BUFFERED_BYTES,
  ) {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      // Reverse proxies such as nginx buffer responses unless told otherwise.
      'X-Accel-Buffering': 'no',
      // Stateless requests (2026-07-28) have no session to name.
      ...(sessionId === undefined ? {} : { 'Mcp-Session-Id': sessionId }),
    });
    this.slot = registry.add(this);
    res.once('close', () => this.markClosed());
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** Sends one message; false when the stream is gone (the caller decides whether that matters). */
  send(message: JsonRpcMessage): boolean {
    // JSON.stringify escapes CR and LF, so the payload is always a single `data:` line.
    return this.write(`event: message\ndata: ${serializeMessage(message)}\n\n`);
  }

  /**
   * Sends one message already serialised (a server's answer passed through, jsonrpc/raw.ts). Its
   * bytes hold no LF (they were one line), but a CR is a line end to SSE too: a server that put a
   * raw CR in its answer could end our `data:` line and forge events of its own. Outside strings a
   * CR is JSON whitespace, inside one it is invalid JSON either way, so it becomes a space.
   */
  sendChunks(chunks: readonly (Buffer | string)[]): boolean {
    if (!this.writable()) return false;
    if (chunks.length === 1 && typeof chunks[0] === 'string') {
      this.res.write(`event: message\ndata: ${withoutCr(chunks[0])}\n\n`);
      return true;
    }
    const mode = pieceMode(this.res, bufferBytes(chunks));
    this.res.cork();
    this.res.write('event: message\ndata: ');
    for (const chunk of chunks) writePiece(this.res, withoutCr(chunk), mode);
    this.res.write('\n\n');
    this.res.uncork();
    return true;
  }

  /**
   * Sends one stored event with its id (`data` one line of JSON; '' for a priming event, which
   * only tells the client where to resume from).
   */
  sendEvent(id: string, data: string): boolean {
    return this.write(data === '' ? `id: ${id}\ndata: \n\n` : `id: ${id}\nevent: message\ndata: ${data}\n\n`);
  }

  /** Sends one message already serialised (a stored event the store could not take: no id). */
  sendData(data: string): boolean {
    return this.write(`event: message\ndata: ${data}\n\n`);
  }

  /** Tells the client how soon to reconnect (then the caller ends the stream: SSE polling, drain). */
  retry(ms: number): boolean {
    return this.write(`retry: ${ms}\n\n`);
  }

  /** An SSE comment: ignored by clients, but it moves bytes (headers, keep-alive). */
  comment(text: string): boolean {
    return this.write(`: ${text}\n\n`);
  }

  /** Ends the response; idempotent. */
  end(): void {
    if (this.closed) return;
    this.markClosed();
    if (!this.res.writableEnded && !this.res.destroyed) this.res.end();
  }

  private write(chunk: string): boolean {
    if (!this.writable()) return false;
    this.res.write(chunk);
    return true;
  }

  /** Whether a write can go out now; a client too far behind loses its stream here. */
  private writable(): boolean {
    if (this.closed || this.res.destroyed || this.res.writableEnded) return false;
    if (this.res.writableLength > this.maxBufferedBytes) {
      this.markClosed();
      this.res.destroy();
      return false;
    }
    return true;
  }

  private markClosed(): void {
    this.closed = true;
    if (this.slot !== undefined) this.registry.remove(this.slot, this);
    this.slot = undefined;
  }
}
