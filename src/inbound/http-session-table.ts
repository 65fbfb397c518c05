// The HTTP endpoint's sessions: those addressable by Mcp-Session-Id, those still initializing,
// the cap on how many exist at once (all together, and per principal), and the idle sweep that
// ends sessions nobody uses (no request in flight, no open GET stream, no work for
// sessionIdleTimeout, or the shorter streamlessSessionIdleTimeout for a session that never opened
// a GET stream: a CLI client that left without DELETE; a ping is not work). Bounded by design:
// an initialize beyond a cap ends an idle session to make room, or is refused; it is never queued.

import type { SessionEntry } from './http-session.js';
import type { Holding, Principals } from './principals.js';

/** Why an initialize was not let in: its principal's share is busy, or every session is. */
export type Admission = 'ok' | 'share' | 'full';

export class SessionTable {
  readonly byId = new Map<string, SessionEntry>();
  /** Sessions whose initialize is still running: not addressable yet, but close() must end them. */
  readonly initializing = new Set<SessionEntry>();
  private sweeper: NodeJS.Timeout | undefined;

  /** Sessions this replica holds at most: limits.maxSessions, or its part of it (splitAmong). */
  max: number;

  constructor(
    /** limits.maxSessions, for the whole gateway. */
    readonly configuredMax: number,
    readonly idleTimeoutMs: number,
    private readonly onExpired: (entry: SessionEntry) => void,
    /** Who holds what; its shares bound the sessions of one principal. */
    readonly principals: Principals,
    /** A session ended to make room for another: `why` says whose limit. */
    private readonly onShed: (entry: SessionEntry, why: string) => void,
    /** The idle timeout of a session that never opened a GET stream (at most idleTimeoutMs). */
    readonly streamlessIdleTimeoutMs = idleTimeoutMs,
  ) {
    this.max = configuredMax;
    // A quarter of the timeout (at most a minute) keeps an idle session at most 25% past its time.
    const every = Math.max(250, Math.min(60_000, Math.floor(Math.min(idleTimeoutMs, streamlessIdleTimeoutMs) / 4)));
    this.sweeper = setInterval(() => this.sweep(Date.now()), every);
    this.sweeper.unref();
  }

  get size(): number {
    return this.byId.size;
  }

  /**
   * Whether a session of `holder` may start now, after making room: at its share, its own
   * idlest session ends; with every session taken, idle ones expire, then the idlest session of
   * the principal to shed first (anonymous, then holding the most) ends, if it holds more than
   * `holder` does.
   */
  admit(holder: Holding, now: number): Admission {
    if (holder.sessions >= this.principals.shares.sessions) {
      const own = this.idlest((h) => h === holder);
      if (own === undefined) return 'share';
      this.end(own, 'its principal is at its share (limits.perPrincipal.sessions)');
    }
    if (this.byId.size + this.initializing.size < this.max) return 'ok';
    this.sweep(now);
    if (this.byId.size + this.initializing.size < this.max) return 'ok';
    const victim = this.idlest((h) => h !== holder && ((h.anonymous && !holder.anonymous) || h.sessions > holder.sessions));
    if (victim === undefined) return 'full';
    this.end(victim, 'every session is taken (limits.maxSessions) and its principal holds the most');
    return 'ok';
  }

  /** `replicas` share the gateway's sessions (limits.maxSessions) and the principals' streams, calls and bytes. */
  splitAmong(replicas: number): void {
    this.max = Math.max(1, Math.floor(this.configuredMax / replicas));
    this.principals.split(replicas);
  }

  /**
   * `holder` holds its whole share across the cluster (counted in the store): one of its sessions
   * here with nothing in flight ends to make room. False when it has none here.
   */
  shedOwn(holder: Holding): boolean {
    const own = this.idlest((h) => h === holder);
    if (own === undefined) return false;
    this.end(own, 'its principal is at its share across the replicas (limits.perPrincipal.sessions)');
    return true;
  }

  /** The idle time after which `entry` is ended. */
  timeoutOf(entry: SessionEntry): number {
    return entry.hadGetStream ? this.idleTimeoutMs : Math.min(this.idleTimeoutMs, this.streamlessIdleTimeoutMs);
  }

  /**
   * Sessions by whether their client is there now: live with a request in flight or an open GET
   * stream; idle otherwise (it may come back, or may have left without a DELETE).
   */
  activity(): { live: number; idle: number } {
    let live = 0;
    for (const entry of this.byId.values()) if (entry.busy || entry.hasOpenGetStream()) live++;
    return { live, idle: this.byId.size - live };
  }

  /** Ends every session idle for longer than its timeout. */
  sweep(now: number): void {
    for (const entry of this.byId.values()) {
      if (entry.idleSince(now) >= this.timeoutOf(entry)) {
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

  private end(entry: SessionEntry, why: string): void {
    this.byId.delete(entry.id);
    this.onShed(entry, why);
    entry.terminate();
  }

  /**
   * Among sessions with nothing in flight whose holder `eligible` admits: of the holder to shed
   * first, the one without a GET stream before one with, then the one that worked least recently.
   */
  private idlest(eligible: (h: Holding) => boolean): SessionEntry | undefined {
    let best: SessionEntry | undefined;
    for (const entry of this.byId.values()) {
      const h = entry.holder;
      if (h === undefined || !eligible(h) || entry.busy) continue;
      if (best === undefined || before(entry, best)) best = entry;
    }
    return best;
  }
}

function before(a: SessionEntry, b: SessionEntry): boolean {
  const ha = a.holder!;
  const hb = b.holder!;
  if (ha !== hb) {
    if (ha.anonymous !== hb.anonymous) return ha.anonymous;
    if (ha.sessions !== hb.sessions) return ha.sessions > hb.sessions;
  }
  const sa = a.hasOpenGetStream();
  if (sa !== b.hasOpenGetStream()) return !sa;
  return a.lastWork < b.lastWork;
}
