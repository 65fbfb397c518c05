// Bytes the gateway holds for clients at once: a request from the moment it is admitted until it
// is answered, and an answer until it is written out. Each session has a budget whose parent is
// its principal's (HTTP) or the whole gateway's, whose parent is the gateway's: one session, one
// client of many sessions, cannot take it all, and all together cannot exhaust memory.
// Over a budget, work is refused at once (LIMIT_EXCEEDED), never queued.

import { GatewayError, type LimitScope } from '../errors.js';

export class ByteBudget {
  used = 0;

  constructor(
    readonly limit: number,
    /** What this budget is of, for messages: "this session", "the gateway". */
    readonly label: string,
    /** The limit's config key, for messages. */
    readonly key: string,
    readonly scope: LimitScope,
    readonly parent?: ByteBudget,
    /** Called when the last byte held is given back (a principal's budget is then forgotten). */
    private readonly onIdle?: () => void,
  ) {}

  /**
   * Takes `bytes` here and in every parent, or nothing at all. Returns the budget that had no room
   * (this one or a parent), or undefined on success.
   */
  take(bytes: number): ByteBudget | undefined {
    if (this.used + bytes > this.limit) return this;
    const full = this.parent?.take(bytes);
    if (full) return full;
    this.used += bytes;
    return undefined;
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
    this.parent?.give(bytes);
    if (this.used === 0) this.onIdle?.();
  }
}

/** The error for a budget that had no room: HTTP faces answer 429 for a session's, 503 for the gateway's. */
export function overBudget(full: ByteBudget, bytes: number): GatewayError {
  return new GatewayError('LIMIT_EXCEEDED', `${full.label} already holds ${full.used} of ${full.limit} bytes in flight; ${bytes} more do not fit (${full.key})`, {
    retryAfterMs: 1000,
    limit: full.scope,
  });
}
