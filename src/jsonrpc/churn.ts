// Containers for what comes and goes with every message (requests in flight, their deadlines),
// built so that a removed entry is referenced by nothing at all.
//
// Why not Map and Set: V8 rehashes a Map's table into a fresh one every few dozen deletions, and
// the table it leaves behind keeps pointing at the entries it held (iterators may still walk it)
// until the next full collection. Once a long-lived Map's table has been promoted to the old
// generation — one quiet moment is enough, and it then stays there — every rehash leaves such a
// table in the old generation, and each young-generation collection must keep alive, and then
// promote, whatever those dead tables point at: the in-flight requests of that moment with their
// promises, messages and answers. Under load that was a fifth of everything the gateway
// allocated, and scavenges five times their cost (bench/NOTES.md, "nepotism"). Here the one store
// that references a value is an array we own: a removed value's cell is cleared, and an array
// that is outgrown is wiped before it is dropped. Keys may still sit in dead Map tables; they are
// numbers and short strings, which reference nothing.

/** Values at stable slot numbers, with a free list: add and remove are O(1). */
export class Slots<T> {
  private items: (T | undefined)[];
  /** Free slot numbers (numbers only: nothing for a dead copy to keep alive). */
  private readonly free: number[] = [];
  /** Slots ever used: items beyond it have never held a value. */
  private used = 0;
  private count = 0;

  constructor(capacity = 16) {
    this.items = new Array<T | undefined>(capacity).fill(undefined);
  }

  get size(): number {
    return this.count;
  }

  /** Stores `value`; returns its slot number, valid until removed. */
  add(value: T): number {
    let slot = this.free.pop();
    if (slot === undefined) {
      if (this.used === this.items.length) this.grow();
      slot = this.used++;
    }
    this.items[slot] = value;
    this.count++;
    return slot;
  }

  get(slot: number): T | undefined {
    return this.items[slot];
  }

  /** Clears a slot (only if it holds `expected`, when given); returns what it held. */
  remove(slot: number, expected?: T): T | undefined {
    const value = this.items[slot];
    if (value === undefined || (expected !== undefined && value !== expected)) return undefined;
    this.items[slot] = undefined;
    this.free.push(slot);
    this.count--;
    return value;
  }

  /** The values, as an array of their own (safe to modify the slots while walking it). */
  values(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.used; i++) {
      const value = this.items[i];
      if (value !== undefined) out.push(value);
    }
    return out;
  }

  clear(): void {
    this.items.fill(undefined, 0, this.used);
    this.free.length = 0;
    this.used = 0;
    this.count = 0;
  }

  private grow(): void {
    const old = this.items;
    const items = new Array<T | undefined>(old.length * 2).fill(undefined);
    for (let i = 0; i < old.length; i++) items[i] = old[i];
    // The dropped array may already be in the old generation: it must not keep values alive.
    old.fill(undefined);
    this.items = items;
  }
}

/** A Map for entries that churn: keys index slots, the values live in Slots. */
export class ChurnMap<K, V> {
  private readonly index = new Map<K, number>();
  private readonly slots = new Slots<V>();

  get size(): number {
    return this.slots.size;
  }

  get(key: K): V | undefined {
    const slot = this.index.get(key);
    return slot === undefined ? undefined : this.slots.get(slot);
  }

  has(key: K): boolean {
    return this.index.has(key);
  }

  set(key: K, value: V): this {
    const slot = this.index.get(key);
    if (slot !== undefined) this.slots.remove(slot);
    this.index.set(key, this.slots.add(value));
    return this;
  }

  delete(key: K): boolean {
    const slot = this.index.get(key);
    if (slot === undefined) return false;
    this.index.delete(key);
    this.slots.remove(slot);
    return true;
  }

  /** The values, as an array of their own. */
  values(): V[] {
    return this.slots.values();
  }

  /** [key, value] pairs, as an array of their own. */
  entries(): [K, V][] {
    const out: [K, V][] = [];
    for (const [key, slot] of this.index) out.push([key, this.slots.get(slot)!]);
    return out;
  }

  clear(): void {
    this.index.clear();
    this.slots.clear();
  }
}
