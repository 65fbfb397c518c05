// The HTTP endpoint's sessions: those addressable by Mcp-Session-Id, those still initializing,
// the cap on how many exist at once, and the idle sweep that ends sessions nobody uses (no
// request in flight, no open GET stream, nothing for sessionIdleTimeout). Bounded by design:
// an initialize beyond the cap is refused, never queued.

import type { SessionEntry } from './http-session.js';

export class SessionTable {
  readonly byId = new Map<string, SessionEntry>();
  /** Sessions whose initialize is still running: not addressable yet, but close() must end them. */
  readonly initializing = new Set<SessionEntry>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    readonly max: number,
    readonly idleTimeoutMs: number,
    private readonly onExpired: (entry: SessionEntry) => void,
  ) {
    // A quarter of the timeout (at most a minute) keeps an idle session at most 25% past its time.
    const every = Math.max(250, Math.min(60_000, Math.floor(idleTimeoutMs / 4)));
    this.sweeper = setInterval(() => this.sweep(Date.now()), every);
    this.sweeper.unref();
  }

  get size(): number {
    return this.byId.size;
  }

  /** Whether one more session may start (after ending the ones that idled out). */
  hasRoom(now: number): boolean {
    if (this.byId.size + this.initializing.size < this.max) return true;
    this.sweep(now);
    return this.byId.size + this.initializing.size < this.max;
  }

  /** Ends every session idle for longer than the timeout. */
  sweep(now: number): void {
    for (const entry of this.byId.values()) {
      if (entry.idleSince(now) >= this.idleTimeoutMs) {
        this.byId.delete(entry.id);
        this.onExpired(entry);
      }
    }
  }

  /** Stops the sweeper and ends every session. */
  terminateAll(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    for (const entry of this.byId.values()) entry.terminate();
    for (const entry of this.initializing) entry.terminate();
    this.byId.clear();
    this.initializing.clear();
  }
}
