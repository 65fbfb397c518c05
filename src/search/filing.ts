// A vocabulary filed under look-up keys (trigrams, deletion neighbours), following the index's
// adds and deletes. Terms are counted: one added by two sources (a tool's text and an expansion
// table) stays filed until both have deleted it. A key's list holds each term once.

export class CountedFiling {
  private readonly count = new Map<string, number>();
  private readonly filed = new Map<string, string[]>();

  /** Counts `term`; files it under `keys()` (distinct keys) the first time only. True when it was new. */
  add(term: string, keys: () => Iterable<string>): boolean {
    const c = this.count.get(term) ?? 0;
    this.count.set(term, c + 1);
    if (c > 0) return false;
    for (const key of keys()) {
      const list = this.filed.get(key);
      if (list === undefined) this.filed.set(key, [term]);
      else list.push(term);
    }
    return true;
  }

  /** Uncounts `term`; unfiles it from `keys()` once nothing counts it. True when it went. */
  delete(term: string, keys: () => Iterable<string>): boolean {
    const c = this.count.get(term);
    if (c === undefined) return false;
    if (c > 1) {
      this.count.set(term, c - 1);
      return false;
    }
    this.count.delete(term);
    for (const key of keys()) {
      const list = this.filed.get(key);
      if (list === undefined) continue;
      const i = list.indexOf(term);
      if (i >= 0) {
        list[i] = list[list.length - 1]!;
        list.pop();
      }
      if (list.length === 0) this.filed.delete(key);
    }
    return true;
  }

  has(term: string): boolean {
    return this.count.has(term);
  }

  /** The terms filed under `key` (do not modify). */
  under(key: string): readonly string[] {
    return this.filed.get(key) ?? NONE;
  }
}

const NONE: readonly string[] = [];
