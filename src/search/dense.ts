// Dense tool vectors from general word vectors (vectors.ts): a tool's vector is the SIF-weighted
// mean of its words' vectors (smooth inverse frequency: frequent English words count less), and a
// request's likewise; their cosine is a bounded signal beside the lexical score. Unit vectors only.

import type { WordVectors } from './vectors.js';

/** SIF's smoothing (Arora et al. 2017 use 1e-3 to 1e-4): a word of probability p weighs a / (a + p). */
const SIF_A = 1e-3;

export class DenseTools {
  private readonly vectors = new Map<string, Float32Array>();
  /** Zipf's normaliser for the table's ranks: p(rank r) ≈ 1 / ((r + 1) · H). */
  private readonly harmonic: number;

  constructor(private readonly table: WordVectors) {
    this.harmonic = Math.log(Math.max(2, table.size)) + 0.5772;
  }

  /** How much a term says, by how rare it is in general English (1 for a term the table ranks last). */
  weight(term: string): number {
    const r = this.table.rank(term);
    if (r < 0) return 0;
    const p = 1 / ((r + 1) * this.harmonic);
    return SIF_A / (SIF_A + p);
  }

  /** The unit weighted mean of the terms' vectors, or undefined when none has one. */
  embed(terms: Iterable<readonly [term: string, weight: number]>): Float32Array | undefined {
    const dims = this.table.dims;
    const sum = new Float32Array(dims);
    let any = false;
    for (const [t, w] of terms) {
      const v = this.table.vector(t);
      if (v === undefined || w <= 0) continue;
      const k = w * this.weight(t);
      for (let d = 0; d < dims; d++) sum[d]! += k * v[d]!;
      any = true;
    }
    if (!any) return undefined;
    let n = 0;
    for (let d = 0; d < dims; d++) n += sum[d]! * sum[d]!;
    n = Math.sqrt(n);
    if (n === 0) return undefined;
    for (let d = 0; d < dims; d++) sum[d]! /= n;
    return sum;
  }

  set(key: string, terms: Iterable<readonly [string, number]>): void {
    const v = this.embed(terms);
    if (v === undefined) this.vectors.delete(key);
    else this.vectors.set(key, v);
  }

  delete(key: string): void {
    this.vectors.delete(key);
  }

  /** Cosine of the tool's vector with a unit query vector; 0 when the tool has none. */
  cosine(key: string, q: Float32Array): number {
    const v = this.vectors.get(key);
    if (v === undefined) return 0;
    let dot = 0;
    for (let d = 0; d < q.length; d++) dot += q[d]! * v[d]!;
    return dot;
  }
}
