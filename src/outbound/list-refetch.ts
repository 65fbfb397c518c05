// Refetching a server's lists when it announces a change, paced per list: one fetch at a time,
// at least `minMs` after the previous one ended, and while announcements keep arriving sooner than
// that the gap doubles (up to `maxMs`); a list quiet for a whole gap starts again at `minMs`.
// Invariant (kept from the unpaced version): the last announcement is always followed by a fetch
// that starts after it, so the catalog ends up with what the server said last.

import type { ListKind } from '../protocol/mcp.js';

export interface RefetchHost {
  /** 'wait' while connecting (fetched once ready), 'go' when ready, 'drop' when there is no server to ask. */
  readiness(): 'wait' | 'go' | 'drop';
  fetch(kind: ListKind): Promise<void>;
  fetched(kind: ListKind): void;
  failed(kind: ListKind, err: unknown): void;
  /** The pacing in force (limits.listRefetchInterval, listRefetchMaxInterval), read at each announcement. */
  pacing(): { minMs: number; maxMs: number };
}

/** Time as the refetcher sees it: the real one, or a fake in tests. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

interface Slot {
  running: boolean;
  /** A change was announced that no started fetch has seen yet. */
  due: boolean;
  timer?: unknown;
  /** When the last fetch ended (undefined: never fetched on an announcement). */
  lastEnd?: number;
  /** The gap the next fetch keeps after the last one. */
  gap: number;
}

export class ListRefetcher {
  private readonly slots = new Map<ListKind, Slot>();
  private waiters: (() => void)[] = [];

  constructor(
    private readonly host: RefetchHost,
    private readonly clock: Clock = systemClock,
  ) {}

  /** A change announced for `kind`. */
  request(kind: ListKind): void {
    const readiness = this.host.readiness();
    if (readiness === 'drop') return;
    const slot = this.slot(kind);
    slot.due = true;
    if (readiness === 'wait' || slot.running || slot.timer !== undefined) return;
    this.schedule(kind, slot);
  }

  /** The connection is ready: the changes announced while it was being made are fetched now (paced). */
  resume(): void {
    for (const [kind, slot] of this.slots) if (slot.due && !slot.running && slot.timer === undefined) this.schedule(kind, slot);
  }

  /** Resolves once no refetch is in flight or (while `ready`) due. */
  settled(ready: boolean): Promise<void> {
    if (this.idle(ready)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Lets every waiter go and cancels what is scheduled (the connection closes). */
  release(): void {
    for (const slot of this.slots.values()) {
      if (slot.timer !== undefined) this.clock.clearTimeout(slot.timer);
      slot.timer = undefined;
      slot.due = false;
    }
    this.wake();
  }

  /** Milliseconds the next fetch of `kind` would wait now (for tests and status). */
  gapOf(kind: ListKind): number | undefined {
    return this.slots.get(kind)?.gap;
  }

  private slot(kind: ListKind): Slot {
    let slot = this.slots.get(kind);
    if (!slot) this.slots.set(kind, (slot = { running: false, due: false, gap: 0 }));
    return slot;
  }

  private schedule(kind: ListKind, slot: Slot): void {
    const { minMs, maxMs } = this.host.pacing();
    const since = slot.lastEnd === undefined ? Infinity : this.clock.now() - slot.lastEnd;
    if (since >= Math.max(slot.gap, minMs)) {
      // Quiet for a whole gap (or never fetched): the pace starts over.
      slot.gap = minMs;
      this.start(kind, slot);
      return;
    }
    // Announced again before the gap ran out: wait it out, and keep a longer one next time.
    const wait = Math.max(slot.gap, minMs) - since;
    slot.gap = Math.min(Math.max(maxMs, minMs), Math.max(slot.gap, minMs) * 2);
    slot.timer = this.clock.setTimeout(() => {
      slot.timer = undefined;
      const readiness = this.host.readiness();
      if (readiness === 'go') this.start(kind, slot);
      else if (readiness === 'drop') slot.due = false;
      // 'wait': resume() schedules it once the connection is ready.
      if (readiness !== 'go') this.wake();
    }, wait);
  }

  private start(kind: ListKind, slot: Slot): void {
    slot.due = false;
    slot.running = true;
    this.host
      .fetch(kind)
      .then(
        () => this.host.fetched(kind),
        (err: unknown) => this.host.failed(kind, err),
      )
      .finally(() => {
        slot.running = false;
        slot.lastEnd = this.clock.now();
        if (slot.due) {
          slot.due = false;
          this.request(kind);
        }
        this.wake();
      });
  }

  private idle(ready: boolean): boolean {
    for (const slot of this.slots.values()) if (slot.running || (ready && slot.due)) return false;
    return true;
  }

  private wake(): void {
    let running = false;
    for (const slot of this.slots.values()) running ||= slot.running || slot.timer !== undefined;
    if (!running) for (const done of this.waiters.splice(0)) done();
  }
}
