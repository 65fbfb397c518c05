// ChurnMap and Slots: they behave as a Map does (model-based property test), and — the reason
// they exist — a value removed from one is not kept alive by it. The second half measures what
// young-generation collections promote while entries churn through a container that is itself in
// the old generation, as the gateway's long-lived tables of requests in flight are.
import v8 from 'node:v8';
import vm from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChurnMap, Slots } from '../../../src/jsonrpc/churn.js';

describe('ChurnMap', () => {
  it('answers every operation as a Map does (property)', () => {
    const key = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constantFrom('a', 'b', 'sb-1', ''));
    const op = fc.oneof(
      fc.record({ op: fc.constant('set' as const), key, value: fc.integer() }),
      fc.record({ op: fc.constant('delete' as const), key }),
      fc.record({ op: fc.constant('clear' as const) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const model = new Map<string | number, { v: number }>();
        const map = new ChurnMap<string | number, { v: number }>();
        for (const o of ops) {
          if (o.op === 'set') {
            const value = { v: o.value };
            model.set(o.key, value);
            map.set(o.key, value);
          } else if (o.op === 'delete') {
            expect(map.delete(o.key)).toBe(model.delete(o.key));
          } else {
            model.clear();
            map.clear();
          }
          expect(map.size).toBe(model.size);
        }
        for (const k of [...model.keys(), 'absent', 99]) {
          expect(map.get(k)).toBe(model.get(k));
          expect(map.has(k)).toBe(model.has(k));
        }
        expect(new Set(map.values())).toEqual(new Set(model.values()));
        expect(new Map(map.entries())).toEqual(model);
      }),
    );
  });
});

describe('Slots', () => {
  it('reuses freed slots, grows past its capacity and keeps every value at its slot', () => {
    const slots = new Slots<{ n: number }>(2);
    const values = Array.from({ length: 9 }, (_, n) => ({ n }));
    const at = values.map((v) => slots.add(v));
    expect(new Set(at).size).toBe(9);
    values.forEach((v, i) => {
      expect(slots.get(at[i]!)).toBe(v);
    });
    expect(slots.remove(at[3]!)).toBe(values[3]);
    const again = { n: 100 };
    expect(slots.add(again)).toBe(at[3]);
    expect(slots.size).toBe(9);
    expect(slots.values()).toContain(again);
    expect(slots.values()).not.toContain(values[3]);
  });

  it('removes a slot only when it still holds the value expected there', () => {
    const slots = new Slots<object>();
    const first = {};
    const slot = slots.add(first);
    slots.remove(slot);
    const second = {};
    expect(slots.add(second)).toBe(slot);
    // The first holder removing "its" slot again must not take the second's value away.
    expect(slots.remove(slot, first)).toBeUndefined();
    expect(slots.get(slot)).toBe(second);
    expect(slots.remove(slot, second)).toBe(second);
  });
});

describe('what churn leaves for the garbage collector', () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;
  const oldGeneration = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_used_size;

  interface Container {
    set(key: number, value: unknown): unknown;
    delete(key: number): unknown;
  }

  /** Bytes added to the old generation while 4,000 values of 16 KB pass through, 32 at a time. */
  function promotedWhileChurning(make: () => Container): number {
    const run = (container: Container) => {
      const live: number[] = [];
      for (let id = 0; id < 4000; id++) {
        container.set(id, { payload: new Array(2000).fill(id) });
        live.push(id);
        if (live.length > 32) container.delete(live.shift()!);
      }
      for (const id of live) container.delete(id);
    };
    run(make()); // compiled and warm before the measured run
    const container = make();
    gc();
    gc(); // the container, like the gateway's, now lives in the old generation
    const before = oldGeneration();
    run(container);
    gc({ type: 'minor' });
    gc({ type: 'minor' });
    return oldGeneration() - before;
  }

  it('a ChurnMap in the old generation lets removed values die young', () => {
    // 64 MB pass through; what stays is the index's dead hash tables (keys only), well under 4 MB.
    expect(promotedWhileChurning(() => new ChurnMap<number, unknown>())).toBeLessThan(4_000_000);
  });

  it('a Map in the old generation still promotes removed values (why ChurnMap exists; if this fails, V8 changed and churn.ts can go)', () => {
    expect(promotedWhileChurning(() => new Map<number, unknown>())).toBeGreaterThan(6_000_000);
  });
});
