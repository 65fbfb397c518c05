// A vocabulary filed under look-up keys (trigrams, deletion neighbours), following the index's
// adds and deletes of terms: a term is filed once, under each of its distinct keys, and unfiled
// from all of them when deleted. A key's list holds each filed term once.

export class Filing {
  private readonly terms = new Set<string>();
  private readonly filed = new Map<string, string[]>();

  /** Files `term` under `keys()` (distinct keys); true when it was new (a term held already is left as it is). */
  add(term: string, keys: () => Iterable<string>): boolean {
    if (this.terms.has(term)) return false;
    this.terms.add(term);
    for (const key of keys()) {
      const list = this.filed.get(key);
      if (list === undefined) this.filed.set(key, [term]);
      else list.push(term);
    }
    return true;
  }

  /** Unfiles `term` from `keys()`; true when it was filed. */
  delete(term: string, keys: () => Iterable<string>): boolean {
    if (!this.terms.delete(term)) return false;
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
    return this.terms.has(term);
  }

  /** The terms filed under `key` (do not modify). */
  under(key: string): readonly string[] {
    return this.filed.get(key) ?? NONE;
  }
}

const NONE: readonly string[] = [];
