// Related words from general word vectors (vectors.ts): the indexed terms nearest a query word by
// cosine. The indexed terms that have a vector are kept as one unit-row matrix, rebuilt lazily after
// the index changes; a look-up scans it once. Never returns the word itself nor a term without a vector.

import type { WordVectors } from './vectors.js';

export class RelatedWords {
  private terms: string[] = [];
  private matrix = new Float32Array(0);
  private builtAt = -1;

  constructor(private readonly table: WordVectors) {}

  rank(term: string): number {
    return this.table.rank(term);
  }

  /**
   * Up to `limit` indexed terms whose cosine with `term` is at least `min`, best first (ties by
   * term). `vocabulary` lists the index's terms and `version` changes whenever they may have.
   */
  nearest(term: string, min: number, limit: number, vocabulary: () => Iterable<string>, version: number): [string, number][] {
    const q = this.table.vector(term);
    if (q === undefined || limit <= 0) return [];
    if (version !== this.builtAt) this.build(vocabulary(), version);
    const dims = this.table.dims;
    const m = this.matrix;
    const found: [string, number][] = [];
    let floor = min;
    for (let i = 0, at = 0; i < this.terms.length; i++, at += dims) {
      let dot = 0;
      for (let d = 0; d < dims; d++) dot += q[d]! * m[at + d]!;
      if (dot < floor) continue;
      const t = this.terms[i]!;
      if (t === term) continue;
      found.push([t, dot]);
      // Keep the list short: past 4×limit, drop to the best `limit` and raise the floor.
      if (found.length >= 4 * limit) {
        found.sort(order);
        found.length = limit;
        floor = Math.max(min, found[limit - 1]![1]);
      }
    }
    found.sort(order);
    return found.slice(0, limit);
  }

  /** Like nearest, over a fixed list of terms (scanned with their vectors cached per list). */
  nearestIn(term: string, min: number, limit: number, list: readonly string[]): [string, number][] {
    let other = this.fixed.get(list);
    if (other === undefined) {
      other = new RelatedWords(this.table);
      this.fixed.set(list, other);
    }
    return other.nearest(term, min, limit, () => list, 0);
  }

  private readonly fixed = new WeakMap<readonly string[], RelatedWords>();

  private build(vocabulary: Iterable<string>, version: number): void {
    const terms: string[] = [];
    const rows: Float32Array[] = [];
    for (const t of vocabulary) {
      const v = this.table.vector(t);
      if (v !== undefined) {
        terms.push(t);
        rows.push(v);
      }
    }
    const dims = this.table.dims;
    const m = new Float32Array(terms.length * dims);
    rows.forEach((v, i) => m.set(v, i * dims));
    this.terms = terms;
    this.matrix = m;
    this.builtAt = version;
  }
}

const order = (a: readonly [string, number], b: readonly [string, number]): number => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
