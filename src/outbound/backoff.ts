// When to try a server again: exponential backoff with jitter, a cap, and a crash-loop limit.
// Failures count until a connection stays up for `stableMs`; a server that keeps dying right
// after it starts is a crash loop, and after `maxFailures` of those the gateway stops trying.

export interface BackoffPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
  /** Consecutive failures (without a stable run in between) before giving up. */
  maxFailures: number;
  /** A connection up this long resets the failure count. */
  stableMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialDelayMs: 500, maxDelayMs: 30_000, maxFailures: 10, stableMs: 30_000 };

export class Backoff {
  private failures = 0;
  private upSince?: number;

  constructor(
    private readonly policy: BackoffPolicy,
    private readonly random: () => number = Math.random,
    private readonly now: () => number = Date.now,
  ) {}

  /** The connection is up. */
  up(): void {
    this.upSince = this.now();
  }

  /**
   * The connection failed or dropped: the delay before the next try, or undefined when the
   * crash-loop limit is reached.
   */
  failed(): number | undefined {
    if (this.upSince !== undefined && this.now() - this.upSince >= this.policy.stableMs) this.failures = 0;
    this.upSince = undefined;
    this.failures++;
    if (this.failures > this.policy.maxFailures) return undefined;
    const base = Math.min(this.policy.maxDelayMs, this.policy.initialDelayMs * 2 ** (this.failures - 1));
    // ±20% jitter, so servers that died together don't come back in lockstep.
    return Math.round(base * (0.8 + 0.4 * this.random()));
  }

  get failureCount(): number {
    return this.failures;
  }

  reset(): void {
    this.failures = 0;
    this.upSince = undefined;
  }
}
