// An inverted index with per-field term frequencies and BM25F scoring, updated in place:
// add/delete touch only the document's own terms. Scores never depend on insertion order (terms
// are visited in a fixed order, integer sums are exact), so an index built by any sequence of
// updates ranks exactly like a fresh build of the same documents.

import { before } from './top.js';
import { PrefixVocabulary } from './morphology.js';
import { SpellingIndex } from './spelling.js';
import { GramIndex } from './ngrams.js';
import { GroupLengths } from './lengths.js';
import type { SearchHit } from './types.js';

export interface FieldParams {
  /** Weight of a term occurrence in this field, relative to others. */
  weight: number;
  /** Length normalisation, 0 (none) to 1 (full). */
  b: number;
  /**
   * Share (0–1) of the average length that comes from the document's group (geometric mix with
   * the whole index's): 0 compares a document with all others, 1 with its group's only.
   */
  groupNorm?: number;
}

/** One query concept: a word and its other forms or corrections; a document scores by the best of them. */
export type Concept = ReadonlyArray<readonly [term: string, weight: number]>;

interface Posting {
  ids: Int32Array;
  tf: Float32Array;
  n: number;
}

export class InvertedIndex {
  private readonly fields: number;
  private readonly weights: Float64Array;
  private readonly bs: Float64Array;
  private readonly groupNorms: Float64Array;
  private groupOf: (string | undefined)[] = [];
  private readonly groupLengths: GroupLengths;
  private readonly slotOf = new Map<string, number>();
  private keys: (string | undefined)[] = [];
  private docTerms: (string[] | undefined)[] = [];
  private free: number[] = [];
  private lens: Float64Array[];
  private norms: Float64Array[];
  private readonly totals: number[];
  private normsDirty = true;
  private readonly postings = new Map<string, Posting>();
  private readonly vocabulary = new PrefixVocabulary();
  private readonly spelling = new SpellingIndex();
  private readonly grams = new GramIndex();
  private acc = new Float64Array(0);
  private best = new Float64Array(0);
  private seen = new Uint32Array(0);
  private seenConcept = new Uint32Array(0);
  private epoch = 0;

  /**
   * `lookups`: keep the vocabulary's forms, spelling and trigram indexes (forms(), corrections(),
   * similar()); an index that never asks them (the plain baseline) saves their upkeep.
   */
  constructor(
    fields: readonly FieldParams[],
    private readonly k1 = 1.2,
    private readonly lookups = true,
  ) {
    this.fields = fields.length;
    this.weights = Float64Array.from(fields.map((f) => f.weight));
    this.bs = Float64Array.from(fields.map((f) => f.b));
    this.groupNorms = Float64Array.from(fields.map((f) => f.groupNorm ?? 0));
    this.groupLengths = new GroupLengths(fields.length);
    this.lens = fields.map(() => new Float64Array(0));
    this.norms = fields.map(() => new Float64Array(0));
    this.totals = fields.map(() => 0);
  }

  get size(): number {
    return this.slotOf.size;
  }

  has(key: string): boolean {
    return this.slotOf.has(key);
  }

  /**
   * Adds or replaces a document; `terms[f]` are its terms in field f (repeats count); `group`
   * (its server) is what fields with a groupNorm normalise its lengths against in part.
   */
  set(key: string, terms: readonly (readonly string[])[], group?: string): void {
    this.delete(key);
    const slot = this.free.length > 0 ? this.free.pop()! : this.grow();
    this.slotOf.set(key, slot);
    this.keys[slot] = key;
    this.groupOf[slot] = group;
    if (group !== undefined)
      this.groupLengths.add(
        group,
        terms.map((t) => t.length),
      );
    // Counts per distinct term, flat (term i, field f at i*F+f): no small typed arrays per term.
    const F = this.fields;
    const index = new Map<string, number>();
    const counts: number[] = [];
    for (let f = 0; f < F; f++) {
      const list = terms[f] ?? [];
      this.lens[f]![slot] = list.length;
      this.totals[f]! += list.length;
      for (const t of list) {
        let i = index.get(t);
        if (i === undefined) {
          i = index.size;
          index.set(t, i);
          for (let k = 0; k < F; k++) counts.push(0);
        }
        counts[i * F + f]! += 1;
      }
    }
    for (const [t, i] of index) this.post(t, slot, counts, i * F);
    this.docTerms[slot] = [...index.keys()];
    this.normsDirty = true;
  }

  delete(key: string): boolean {
    const slot = this.slotOf.get(key);
    if (slot === undefined) return false;
    for (const t of this.docTerms[slot]!) this.unpost(t, slot);
    const group = this.groupOf[slot];
    if (group !== undefined)
      this.groupLengths.remove(
        group,
        this.lens.map((l) => l[slot]!),
      );
    this.groupOf[slot] = undefined;
    for (let f = 0; f < this.fields; f++) {
      this.totals[f]! -= this.lens[f]![slot]!;
      this.lens[f]![slot] = 0;
    }
    this.slotOf.delete(key);
    this.keys[slot] = undefined;
    this.docTerms[slot] = undefined;
    this.free.push(slot);
    this.normsDirty = true;
    return true;
  }

  /** Indexed terms that are another form of `term` (see morphology.ts). */
  forms(term: string): string[] {
    return this.vocabulary.forms(term);
  }

  /** Indexed terms nearest a misspelt `term` (see spelling.ts). */
  corrections(term: string): string[] {
    return this.spelling.nearest(term);
  }

  /** Indexed terms sharing character trigrams with `term` (see ngrams.ts), best first. */
  similar(term: string, min: number, limit: number): [string, number][] {
    return this.grams.similar(term, min, limit);
  }

  /** Number of documents holding the term (its document frequency). */
  df(term: string): number {
    return this.postings.get(term)?.n ?? 0;
  }

  /**
   * BM25F: per concept, the best of its terms' `weight × idf × tf'/(k1 + tf')`, summed over
   * concepts; idf is that of the concept's first term (the user's word); tf' is the
   * field-weighted, length-normalised term frequency. Returns the `depth`
   * best accepted documents, best first, ties by key. Work past scoring is per kept document,
   * not per matching one: at 50,000 tools a common word matches thousands.
   */
  search(concepts: readonly Concept[], depth: number, accept?: (key: string) => boolean): SearchHit[] {
    if (depth <= 0 || this.slotOf.size === 0) return [];
    if (this.normsDirty) this.computeNorms();
    const touched: number[] = [];
    const n = this.slotOf.size;
    const runEpoch = this.nextEpoch();
    for (const concept of concepts) {
      const conceptEpoch = this.nextEpoch();
      const members: number[] = [];
      // Every term of a concept stands for the user's word, so each carries that word's rarity
      // (as Lucene's synonym queries do): "repo" is no weaker a request because tools say
      // "repositories". A word no tool uses counts as used once.
      const df = Math.max(1, this.postings.get(concept[0]?.[0] ?? '')?.n ?? 0);
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (const [t, w] of concept) {
        const p = this.postings.get(t);
        if (p !== undefined) this.scorePosting(p, w * idf, conceptEpoch, members);
      }
      for (const slot of members) {
        if (this.seen[slot] !== runEpoch) {
          this.seen[slot] = runEpoch;
          this.acc[slot] = 0;
          touched.push(slot);
        }
        this.acc[slot]! += this.best[slot]!;
      }
    }
    return this.top(touched, depth, accept);
  }

  /** Bounded insertion into a sorted window: most documents fail the threshold test at once. */
  private top(slots: readonly number[], depth: number, accept?: (key: string) => boolean): SearchHit[] {
    const keys = this.keys;
    const acc = this.acc;
    const win: number[] = [];
    let floorScore = -Infinity;
    let floorKey = '';
    for (const slot of slots) {
      const score = acc[slot]!;
      if (!(score > 0)) continue;
      if (win.length === depth && (score < floorScore || (score === floorScore && keys[slot]! >= floorKey))) continue;
      const key = keys[slot]!;
      if (accept !== undefined && !accept(key)) continue;
      let i = win.length;
      while (i > 0 && before(score, key, acc[win[i - 1]!]!, keys[win[i - 1]!]!)) i--;
      win.splice(i, 0, slot);
      if (win.length > depth) win.pop();
      if (win.length === depth) {
        const last = win[depth - 1]!;
        floorScore = acc[last]!;
        floorKey = keys[last]!;
      }
    }
    return win.map((slot) => ({ key: keys[slot]!, score: acc[slot]! }));
  }

  private scorePosting(p: Posting, factor: number, conceptEpoch: number, members: number[]): void {
    const F = this.fields;
    const k1 = this.k1;
    const { ids, tf } = p;
    for (let i = 0; i < p.n; i++) {
      const slot = ids[i]!;
      let wtf = 0;
      for (let f = 0; f < F; f++) {
        const c = tf[i * F + f]!;
        if (c !== 0) wtf += c * this.norms[f]![slot]!;
      }
      const s = (factor * wtf) / (k1 + wtf);
      if (this.seenConcept[slot] !== conceptEpoch) {
        this.seenConcept[slot] = conceptEpoch;
        this.best[slot] = s;
        members.push(slot);
      } else if (s > this.best[slot]!) {
        this.best[slot] = s;
      }
    }
  }

  private computeNorms(): void {
    const n = this.slotOf.size;
    for (let f = 0; f < this.fields; f++) {
      const avg = n > 0 ? this.totals[f]! / n : 0;
      const w = this.weights[f]!;
      const b = this.bs[f]!;
      const lens = this.lens[f]!;
      const norm = this.norms[f]!;
      const g = this.groupNorms[f]!;
      for (let slot = 0; slot < this.keys.length; slot++) {
        const group = this.groupOf[slot];
        const own = g > 0 && group !== undefined ? this.groupLengths.average(group, f) : 0;
        const a = own > 0 && avg > 0 ? avg ** (1 - g) * own ** g : avg;
        norm[slot] = a > 0 ? w / (1 - b + (b * lens[slot]!) / a) : w;
      }
    }
    this.normsDirty = false;
  }

  private nextEpoch(): number {
    if (this.epoch >= 0xfffffff0) {
      this.seen.fill(0);
      this.seenConcept.fill(0);
      this.epoch = 0;
    }
    return ++this.epoch;
  }

  private grow(): number {
    const slot = this.keys.length;
    this.keys.push(undefined);
    this.docTerms.push(undefined);
    this.groupOf.push(undefined);
    if (slot >= this.acc.length) {
      const cap = Math.max(64, this.acc.length * 2);
      this.acc = resize(this.acc, cap);
      this.best = resize(this.best, cap);
      this.seen = resizeU32(this.seen, cap);
      this.seenConcept = resizeU32(this.seenConcept, cap);
      this.lens = this.lens.map((a) => resize(a, cap));
      this.norms = this.norms.map((a) => resize(a, cap));
    }
    return slot;
  }

  private post(term: string, slot: number, counts: readonly number[], from: number): void {
    const F = this.fields;
    let p = this.postings.get(term);
    if (p === undefined) {
      this.postings.set(term, (p = { ids: new Int32Array(4), tf: new Float32Array(4 * F), n: 0 }));
      if (this.lookups) {
        this.vocabulary.add(term);
        this.spelling.add(term);
        this.grams.add(term);
      }
    }
    if (p.n === p.ids.length) {
      const ids = new Int32Array(p.ids.length * 2);
      ids.set(p.ids);
      const tf = new Float32Array(ids.length * F);
      tf.set(p.tf);
      p.ids = ids;
      p.tf = tf;
    }
    p.ids[p.n] = slot;
    for (let f = 0; f < F; f++) p.tf[p.n * F + f] = counts[from + f]!;
    p.n++;
  }

  private unpost(term: string, slot: number): void {
    const p = this.postings.get(term);
    if (p === undefined) return;
    const i = p.ids.subarray(0, p.n).indexOf(slot);
    if (i < 0) return;
    const last = p.n - 1;
    const F = this.fields;
    // Order inside a posting list does not matter: swap the last entry into the hole.
    p.ids[i] = p.ids[last]!;
    p.tf.copyWithin(i * F, last * F, last * F + F);
    p.n = last;
    if (p.n === 0) {
      this.postings.delete(term);
      if (this.lookups) {
        this.vocabulary.delete(term);
        this.spelling.delete(term);
        this.grams.delete(term);
      }
    }
  }
}

function resize(a: Float64Array, cap: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(cap);
  b.set(a);
  return b;
}

function resizeU32(a: Uint32Array, cap: number): Uint32Array<ArrayBuffer> {
  const b = new Uint32Array(cap);
  b.set(a);
  return b;
}
