// ListRefetcher: one fetch per list at a time, exactly one more for any number of changes announced
// meanwhile, changes announced while connecting fetched once ready, and settled() waiting for all;
// paced on a fake clock: a minimum gap between fetches of one list, doubling while announcements
// keep coming (up to the max), back to the minimum after a quiet gap, and the last announcement
// always followed by a fetch that starts after it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ListRefetcher, type Clock, type RefetchHost } from '../../../src/outbound/list-refetch.js';
import type { ListKind } from '../../../src/protocol/mcp.js';

/** Time that moves only when told to; timers fire in order as it passes them. */
class FakeClock implements Clock {
  time = 0;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private ids = 0;
  now = () => this.time;
  setTimeout = (fn: () => void, ms: number) => {
    const id = ++this.ids;
    this.timers.push({ at: this.time + ms, fn, id });
    return id;
  };
  clearTimeout = (id: unknown) => {
    this.timers = this.timers.filter((t) => t.id !== id);
  };
  get pending(): number {
    return this.timers.length;
  }
  /** Moves to the earliest timer and fires it. */
  runNext(): void {
    const next = [...this.timers].sort((a, b) => a.at - b.at)[0];
    if (next) this.advance(next.at - this.time);
  }
  /** Moves to `ms` later, firing each timer due on the way (at its own time). */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.time = next.at;
      next.fn();
    }
    this.time = end;
  }
}

const MIN = 1000;
const MAX = 30_000;

function host(readiness: ReturnType<RefetchHost['readiness']> = 'go') {
  const started: { kind: ListKind; at: number }[] = [];
  const finish: (() => void)[] = [];
  const fetched: ListKind[] = [];
  const clock = new FakeClock();
  const h: RefetchHost & { state: ReturnType<RefetchHost['readiness']> } = {
    state: readiness,
    readiness: () => h.state,
    fetch: (kind: ListKind) => {
      started.push({ kind, at: clock.time });
      return new Promise<void>((resolve) => finish.push(resolve));
    },
    fetched: (kind: ListKind) => void fetched.push(kind),
    failed: () => {},
    pacing: () => ({ minMs: MIN, maxMs: MAX }),
  };
  /** Ends the oldest fetch in flight and lets its continuations run. */
  const ended: number[] = [];
  const endOne = async () => {
    finish.shift()!();
    ended.push(clock.time);
    await new Promise((r) => setImmediate(r));
  };
  const kinds = () => started.map((s) => s.kind);
  return { h, clock, started, ended, kinds, fetched, endOne, inFlight: () => finish.length };
}

describe('ListRefetcher', () => {
  it('fetches once more, once, for any number of changes announced while a fetch runs', async () => {
    const { h, clock, kinds, fetched, endOne } = host();
    const r = new ListRefetcher(h, clock);
    r.request('tools');
    r.request('tools');
    r.request('tools');
    r.request('prompts');
    expect(kinds()).toEqual(['tools', 'prompts']);
    await endOne();
    // The next fetch of tools keeps the minimum gap after the last one ended.
    expect(kinds()).toEqual(['tools', 'prompts']);
    clock.advance(MIN);
    expect(kinds()).toEqual(['tools', 'prompts', 'tools']);
    await endOne();
    await endOne();
    expect(kinds()).toHaveLength(3);
    expect(fetched).toEqual(['tools', 'prompts', 'tools']);
  });

  it('holds changes announced while connecting until resume(), and drops them when not connected', async () => {
    const { h, clock, kinds } = host('wait');
    const r = new ListRefetcher(h, clock);
    r.request('resources');
    expect(kinds()).toEqual([]);
    h.state = 'go';
    r.resume();
    expect(kinds()).toEqual(['resources']);
    h.state = 'drop';
    r.request('tools');
    expect(kinds()).toEqual(['resources']);
  });

  it('settles only when nothing is in flight or due', async () => {
    const { h, clock, endOne } = host();
    const r = new ListRefetcher(h, clock);
    await r.settled(true);
    r.request('tools');
    r.request('tools');
    let settled = false;
    void r.settled(true).then(() => (settled = true));
    await endOne();
    expect(settled).toBe(false);
    clock.advance(MIN);
    await endOne();
    expect(settled).toBe(true);
  });

  it('doubles the gap while announcements keep coming, up to the max, and starts over after a quiet gap', async () => {
    const { h, clock, started, endOne } = host();
    const r = new ListRefetcher(h, clock);
    // A storm: the server announces again right after every fetch it serves.
    r.request('tools');
    for (let i = 0; i < 8; i++) {
      await endOne();
      r.request('tools');
      clock.runNext();
    }
    const gaps = started.slice(1).map((s, i) => s.at - started[i]!.at);
    expect(gaps).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    await endOne();
    // Quiet for longer than the gap: the next announcement is fetched at once, and the pace is back to the minimum.
    clock.advance(MAX);
    const before = started.length;
    r.request('tools');
    expect(started).toHaveLength(before + 1);
    expect(r.gapOf('tools')).toBe(MIN);
  });

  it('paces each list on its own', async () => {
    const { h, clock, kinds, endOne } = host();
    const r = new ListRefetcher(h, clock);
    r.request('tools');
    await endOne();
    r.request('tools');
    r.request('prompts');
    expect(kinds()).toEqual(['tools', 'prompts']);
  });

  it('release() cancels what is scheduled and lets waiters go', async () => {
    const { h, clock, kinds, endOne } = host();
    const r = new ListRefetcher(h, clock);
    r.request('tools');
    await endOne();
    r.request('tools');
    expect(clock.pending).toBe(1);
    let settled = false;
    void r.settled(true).then(() => (settled = true));
    r.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(true);
    expect(clock.pending).toBe(0);
    clock.advance(MAX);
    expect(kinds()).toEqual(['tools']);
  });

  it('always follows the last announcement with a fetch that starts after it, whatever the timing', async () => {
    // Any interleaving of announcements, time passing and fetches ending: once everything has run
    // out, some fetch started at or after the last announcement, and never two at once.
    const step = fc.oneof(fc.constant({ op: 'announce' as const }), fc.record({ op: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 40_000 }) }), fc.constant({ op: 'end' as const }));
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps) => {
        const { h, clock, started, ended, endOne, inFlight } = host();
        const r = new ListRefetcher(h, clock);
        let last = -1;
        for (const s of steps) {
          if (s.op === 'announce') {
            last = clock.time;
            r.request('tools');
          } else if (s.op === 'wait') clock.advance(s.ms);
          else if (inFlight() > 0) await endOne();
          expect(inFlight()).toBeLessThanOrEqual(1);
        }
        // Run out: end what is in flight, let every timer fire.
        for (let i = 0; i < 100 && (inFlight() > 0 || clock.pending > 0); i++) {
          if (inFlight() > 0) await endOne();
          clock.advance(MAX);
        }
        if (last >= 0) expect(started.some((s) => s.at >= last)).toBe(true);
        // Each fetch after the first starts at least the minimum gap after the one before ended.
        for (let i = 1; i < started.length; i++) expect(started[i]!.at - ended[i - 1]!).toBeGreaterThanOrEqual(MIN);
      }),
      { numRuns: 200 },
    );
  });
});
