// MemoryStore's short-lived values and topics (issue 33: single-use connect links, pending connect
// flows, "a user connected" signals). Stores sharing maps (two replicas in one process) share
// these too. Bounded by time: expired entries go when read, and in one sweep whenever the map has
// doubled since the last one, so keys never read again do not pile up.

export class MemoryValues {
  readonly values = new Map<string, { value: string; expiresAt: number }>();
  readonly topics = new Map<string, Set<() => void>>();
  private sweepAt = 1024;

  constructor(private readonly now: () => number) {}

  /** The maps of `other`, as a second replica in the same process. */
  static sharing(other: MemoryValues, now: () => number): MemoryValues {
    const v = new MemoryValues(now);
    (v as { values: MemoryValues['values'] }).values = other.values;
    (v as { topics: MemoryValues['topics'] }).topics = other.topics;
    return v;
  }

  takeOnce(key: string, ttlMs: number): boolean {
    if (this.read(key) !== undefined) return false;
    this.put(key, '1', ttlMs);
    return true;
  }

  put(key: string, value: string, ttlMs: number): void {
    this.values.set(key, { value, expiresAt: this.now() + ttlMs });
    if (this.values.size >= this.sweepAt) this.sweep();
  }

  take(key: string): string | undefined {
    const value = this.read(key);
    this.values.delete(key);
    return value;
  }

  signal(topic: string): void {
    for (const listener of [...(this.topics.get(topic) ?? [])]) listener();
  }

  listen(topic: string, listener: () => void): () => void {
    let set = this.topics.get(topic);
    if (set === undefined) this.topics.set(topic, (set = new Set()));
    // Wrapped: the same function listening twice is two listeners, each stopped once.
    const own = () => listener();
    set.add(own);
    return () => {
      set.delete(own);
      if (set.size === 0 && this.topics.get(topic) === set) this.topics.delete(topic);
    };
  }

  private read(key: string): string | undefined {
    const kept = this.values.get(key);
    if (kept === undefined) return undefined;
    if (kept.expiresAt > this.now()) return kept.value;
    this.values.delete(key);
    return undefined;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, kept] of this.values) if (kept.expiresAt <= now) this.values.delete(key);
    this.sweepAt = Math.max(1024, this.values.size * 2);
  }
}
