// Request deadlines on one coarse wheel instead of a setTimeout per request: arming and disarming
// a deadline is a slot taken and cleared, and one interval (running while deadlines exist, and
// until the first tick that finds none) expires what is due. Timeouts are seconds long, so a tick
// of TICK_MS is precision enough; the wheel's clock (`now`) is the tick's, which spares a
// Date.now() per request too. The interval outlives the last deadline by up to a tick so that one
// request at a time (each answered long before the next tick) does not start and stop a timer
// per request: at concurrency 1 that was two timer-list updates per call.

import { Slots } from './churn.js';

/** Granularity of deadlines: a deadline fires within two ticks after it is due. */
export const TICK_MS = 10;
/** A tick this late means the interval no longer runs. */
const STALE_MS = 1000;

export interface Deadline {
  /** When it is due, on the wheel's clock. */
  at: number;
  fire(): void;
  /** Where the wheel put it while armed (the wheel's own bookkeeping). */
  slot?: number;
}

export class DeadlineWheel {
  /** The armed deadlines, each at its `slot`. Not a Set: see churn.ts. */
  private readonly armed = new Slots<Deadline>();
  private timer?: NodeJS.Timeout;
  /** The timer functions the interval was made with (a test's fake clock swaps the globals). */
  private madeWith?: typeof setInterval;
  private clearWith: typeof clearInterval = clearInterval;
  private lastTick = Date.now();
  /** No armed deadline is due before this. A bound, not exact: a removal leaves it where it was. */
  private earliest = Infinity;

  // Date.now looked up at each call, not captured: a test's fake clock applies.
  constructor(private readonly clock: () => number = () => Date.now()) {}

  /** The wheel's clock: exact while idle, the last tick's time while deadlines are running. */
  now(): number {
    return this.timer === undefined ? this.clock() : this.lastTick;
  }

  add(d: Deadline): void {
    if (d.slot !== undefined) this.remove(d);
    // No interval, one made with other timer functions than today's (a test installed or removed a
    // fake clock), or a tick overdue by far (the interval is gone: a test cleared the timers): start anew.
    if (this.timer === undefined || this.madeWith !== setInterval || this.clock() - this.lastTick > STALE_MS) this.start();
    d.slot = this.armed.add(d);
    if (d.at < this.earliest) this.earliest = d.at;
  }

  remove(d: Deadline): void {
    const slot = d.slot;
    if (slot === undefined) return;
    d.slot = undefined;
    // The interval stops at its next tick if nothing is armed by then.
    this.armed.remove(slot, d);
  }

  /** Deadlines armed now. */
  get size(): number {
    return this.armed.size;
  }

  private start(): void {
    this.stop();
    this.lastTick = this.clock();
    this.madeWith = setInterval;
    this.clearWith = clearInterval;
    this.timer = setInterval(() => this.tick(), TICK_MS);
    // Deadlines never keep the process alive on their own.
    this.timer.unref();
  }

  private stop(): void {
    if (this.timer !== undefined) this.clearWith(this.timer);
    this.timer = undefined;
    this.earliest = Infinity;
  }

  /**
   * Fires what is due, earliest first. Most ticks compare one number: requests are answered long
   * before their deadlines, so a walk over the armed ones happens about once per timeout length
   * (or once per tick while deadlines really are expiring).
   */
  private tick(): void {
    const now = (this.lastTick = this.clock());
    if (this.armed.size === 0) return this.stop();
    // A deadline is set on the wheel's clock, which runs up to a tick behind the real one: it is
    // due only once more than a tick has passed beyond its `at`, so it never fires early in real time.
    const past = now - TICK_MS;
    if (past <= this.earliest) return;
    const due: Deadline[] = [];
    let earliest = Infinity;
    for (const d of this.armed.values()) {
      if (d.at < past) {
        this.armed.remove(d.slot!);
        d.slot = undefined;
        due.push(d);
      } else if (d.at < earliest) earliest = d.at;
    }
    this.earliest = earliest;
    if (this.armed.size === 0) this.stop();
    due.sort((a, b) => a.at - b.at);
    for (const d of due) d.fire();
  }
}

/** One wheel for the process: every Peer's deadlines share its single interval. */
export const deadlines = new DeadlineWheel();
