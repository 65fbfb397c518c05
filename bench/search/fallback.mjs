// What to answer when a request matches nothing: each candidate fallback ranks every dev and
// dev2 query on its own (as if the lexical pass had found nothing), at catalog size and with
// 5,000 distractors; then the ranking itself, with and without its fallback, on the dev requests
// made unknown: the first two letters of every word of 4+ letters swapped (which the typo rule
// corrects), or its first letter replaced by the next in the alphabet (which the typo rule leaves
// alone, since it trusts first letters). Aggregate figures only.
//   npm run build && node bench/search/fallback.mjs
import { catalogTools, devQueries } from './data.mjs';
import { fileURLToPath } from 'node:url';
import { generateDistractors } from './distractors.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const S = await import(here('../../dist/search/index.js'));
const A = await import(here('../../dist/search/analyze.js'));
const catalog = catalogTools();
const queries = devQueries();
const d = generateDistractors(5_000, { seed: 7 });

/** Character trigrams of the words (padded), the unit of the n-gram fallback. */
const grams = (words) => {
  const out = new Map();
  for (const w of words) {
    const p = ` ${w} `;
    for (let i = 0; i + 3 <= p.length; i++) out.set(p.slice(i, i + 3), (out.get(p.slice(i, i + 3)) ?? 0) + 1);
  }
  return out;
};
const content = (text) => S.tokenize(text).filter((w) => !A.isStopWord(w) && w.length > 1);

function trigramRanker(docs, field) {
  const vecs = docs.map((doc) => [doc.key, grams(content(field(doc)))]);
  const df = new Map();
  for (const [, v] of vecs) for (const g of v.keys()) df.set(g, (df.get(g) ?? 0) + 1);
  const idf = (g) => Math.log(1 + docs.length / (1 + (df.get(g) ?? 0)));
  const norm = new Map(vecs.map(([k, v]) => [k, Math.sqrt([...v].reduce((a, [g, c]) => a + (c * idf(g)) ** 2, 0)) || 1]));
  return (q) => {
    const qv = grams(content(q));
    const scored = [];
    for (const [k, v] of vecs) {
      let dot = 0;
      for (const [g, c] of qv) {
        const x = v.get(g);
        if (x) dot += c * x * idf(g) ** 2;
      }
      if (dot > 0) scored.push([k, dot / norm.get(k)]);
    }
    return scored
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 10)
      .map(([k]) => k);
  };
}

function measure(rank) {
  let r5 = 0,
    mrr = 0;
  for (const q of queries) {
    const r = rank(q.q).findIndex((k) => q.gold.has(k)) + 1;
    if (r >= 1 && r <= 5) r5++;
    if (r >= 1) mrr += 1 / r;
  }
  return `${(r5 / queries.length).toFixed(3)}/${(mrr / queries.length).toFixed(3)}`;
}

for (const [name, docs] of [
  ['catalog', catalog],
  ['+5k', [...catalog, ...d]],
]) {
  const e = new S.ToolSearchIndex();
  for (const doc of docs) e.upsert(doc);
  const web = e.search('search the web', { limit: 10 }).map((h) => h.key);
  const rows = {
    'the full ranking (for scale)': (q) => e.search(q, { limit: 10 }).map((h) => h.key),
    'a fixed answer: the tools for "search the web"': () => web,
    'character trigrams of the tool name and title (tf-idf cosine)': trigramRanker(docs, (doc) => `${doc.name.replace(/[_-]/g, ' ')} ${doc.title ?? ''}`),
    'character trigrams of name, title and description': trigramRanker(docs, (doc) => `${doc.name.replace(/[_-]/g, ' ')} ${doc.title ?? ''} ${doc.description ?? ''}`),
  };
  for (const [label, rank] of Object.entries(rows)) console.log(`${name.padEnd(8)} ${measure(rank)}  ${label}`);
}

// Requests the index does not know: how often the lexical pass finds nothing, and what the fallback then brings.
const garblings = {
  'first two letters swapped': (q) => q.replace(/\b([a-z])([a-z])([a-z]{2,})/gi, '$2$1$3'),
  'first letter replaced': (q) => q.replace(/\b([a-z])([a-z]{3,})/gi, (_, a, rest) => String.fromCharCode(((a.toLowerCase().charCodeAt(0) - 97 + 1) % 26) + 97) + rest),
};
for (const [name, docs] of [
  ['catalog', catalog],
  ['+5k', [...catalog, ...d]],
])
  for (const [how, garble] of Object.entries(garblings)) {
    const unknown = queries.map((q) => ({ q: garble(q.q), gold: q.gold }));
    for (const gramFallback of [false, true]) {
      const e = new S.ToolSearchIndex({ ...S.DEFAULT_RANKING, gramFallback });
      for (const doc of docs) e.upsert(doc);
      const off = new S.ToolSearchIndex({ ...S.DEFAULT_RANKING, gramFallback: false });
      for (const doc of docs) off.upsert(doc);
      let empty = 0,
        r5 = 0,
        mrr = 0,
        emptyR5 = 0;
      for (const q of unknown) {
        const none = off.search(q.q, { limit: 10 }).length === 0;
        if (none) empty++;
        const r = e.search(q.q, { limit: 10 }).findIndex((h) => q.gold.has(h.key)) + 1;
        if (r >= 1 && r <= 5) {
          r5++;
          if (none) emptyR5++;
        }
        if (r >= 1) mrr += 1 / r;
      }
      console.log(
        `${name.padEnd(8)} ${how}, fallback ${gramFallback ? 'on ' : 'off'}: R@5/MRR ${(r5 / unknown.length).toFixed(3)}/${(mrr / unknown.length).toFixed(3)}; ${empty} of ${unknown.length} found nothing without the fallback, ${emptyR5} of them now in the top 5`,
      );
    }
  }
