// Request deadlines on one coarse wheel instead of a setTimeout per request: arming and disarming
// a deadline is a Set insert and delete, and one interval (running only while deadlines exist)
// expires what is due. Timeouts are seconds long, so a tick of TICK_MS is precision enough; the
// wheel's clock (`now`) is the tick's, which spares a Date.now() per request too.

/** Granularity of deadlines: a deadline fires within two ticks after it is due (tick alignment). */
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
  /** slot (a tick's number) → the deadlines due in it. */
  private readonly buckets = new Map<number, Set<Deadline>>();
  private armed = 0;
  private timer?: NodeJS.Timeout;
  private lastTick = Date.now();
  /** The first slot not yet run. */
  private nextSlot = 0;

  // Date.now looked up at each call, not captured: a test's fake clock applies.
  constructor(private readonly clock: () => number = () => Date.now()) {}

  /** The wheel's clock: exact while idle, the last tick's time while deadlines are running. */
  now(): number {
    return this.timer === undefined ? this.clock() : this.lastTick;
  }

  add(d: Deadline): void {
    if (d.slot !== undefined) this.remove(d);
    // A tick overdue by far means the interval is gone (a test swapped its timers): start anew.
    if (this.armed++ === 0 || this.clock() - this.lastTick > STALE_MS) this.start();
    // A deadline already due goes to the next slot to run.
    const slot = Math.max(this.nextSlot, Math.ceil(d.at / TICK_MS));
    let bucket = this.buckets.get(slot);
    if (!bucket) this.buckets.set(slot, (bucket = new Set()));
    bucket.add(d);
    d.slot = slot;
  }

  remove(d: Deadline): void {
    const slot = d.slot;
    if (slot === undefined) return;
    d.slot = undefined;
    const bucket = this.buckets.get(slot)!;
    bucket.delete(d);
    if (bucket.size === 0) this.buckets.delete(slot);
    if (--this.armed === 0) this.stop();
  }

  /** Deadlines armed now. */
  get size(): number {
    return this.armed;
  }

  private start(): void {
    clearInterval(this.timer);
    this.lastTick = this.clock();
    // Slots left from before a restart are still due: run from the oldest of them.
    let first = Math.floor(this.lastTick / TICK_MS);
    for (const slot of this.buckets.keys()) first = Math.min(first, slot);
    this.nextSlot = first;
    this.timer = setInterval(() => this.tick(), TICK_MS);
    // Deadlines never keep the process alive on their own.
    this.timer.unref();
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Runs every slot up to now (one, unless the event loop was late). */
  private tick(): void {
    const now = (this.lastTick = this.clock());
    const upTo = Math.floor(now / TICK_MS);
    const due: Deadline[] = [];
    for (; this.nextSlot <= upTo; this.nextSlot++) {
      const bucket = this.buckets.get(this.nextSlot);
      if (!bucket) continue;
      this.buckets.delete(this.nextSlot);
      for (const d of bucket) {
        d.slot = undefined;
        due.push(d);
      }
      this.armed -= bucket.size;
    }
    if (this.armed === 0) this.stop();
    for (const d of due) d.fire();
  }
}

/** One wheel for the process: every Peer's deadlines share its single interval. */
export const deadlines = new DeadlineWheel();
