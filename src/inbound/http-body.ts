// Reads a POST body into one Buffer under a byte limit enforced while it streams: arriving bytes
// are counted and reading stops at the first byte over, so an oversized body is never buffered
// whole. (The caller checks a declared Content-Length before calling, to refuse without reading.)
// Listeners are module-level functions with the state hung off the request: the hot path
// allocates no closures per POST.

import type { IncomingMessage } from 'node:http';

/** The body, or why there is none: over the limit, or the client went away mid-body. */
export type BodyOutcome = Buffer | 'too-large' | 'aborted';

interface PendingBody {
  chunks: Buffer[];
  size: number;
  limit: number;
  ctx: unknown;
  done: (ctx: any, outcome: BodyOutcome) => void;
}

const kPending = Symbol('switchboard.pendingBody');
type Reading = IncomingMessage & { [kPending]?: PendingBody };

/**
 * Collects `req`'s body and calls `done(ctx, outcome)` exactly once. After 'too-large' the request
 * is paused with the rest unread; the caller should answer with `Connection: close`.
 */
export function readBody<C>(req: IncomingMessage, limit: number, ctx: C, done: (ctx: C, outcome: BodyOutcome) => void): void {
  (req as Reading)[kPending] = { chunks: [], size: 0, limit, ctx, done };
  req.on('data', onData);
  req.on('end', onEnd);
  // Node emits 'error' (ECONNRESET) then 'close' when the client aborts mid-body; either one settles.
  req.on('error', onAbort);
  req.on('close', onAbort);
}

function settle(req: Reading, outcome: BodyOutcome): void {
  const pending = req[kPending];
  if (pending === undefined) return;
  req[kPending] = undefined;
  req.off('data', onData);
  req.off('end', onEnd);
  req.off('error', onAbort);
  req.off('close', onAbort);
  pending.done(pending.ctx, outcome);
}

function onData(this: Reading, chunk: Buffer): void {
  const pending = this[kPending]!;
  pending.size += chunk.length;
  if (pending.size > pending.limit) {
    pending.chunks.length = 0;
    // Stop pulling bytes off the socket; the 413 goes out with Connection: close.
    this.pause();
    settle(this, 'too-large');
    return;
  }
  pending.chunks.push(chunk);
}

function onEnd(this: Reading): void {
  const pending = this[kPending];
  if (pending === undefined) return;
  const { chunks, size } = pending;
  // Most bodies arrive in one chunk: skip the copy then.
  settle(this, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
}

function onAbort(this: Reading): void {
  settle(this, 'aborted');
}
