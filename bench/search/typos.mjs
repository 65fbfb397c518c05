// How the ranking holds up when a request has one typo, as people make them: each dev request
// (queries.tsv, dev2 to dev5) gets ONE seeded error in one word of 4+ plain letters, never its first
// letter and never inside a value (URL, path, id, address, anything with digits or punctuation):
// two neighbouring letters swapped, a letter dropped, a letter doubled, or a letter replaced by
// a neighbour on a QWERTY keyboard. R@5/MRR at the three sizes, clean and with typos.
// Aggregate figures only; the test half is never run.
//   npm run build && node bench/search/typos.mjs [--seed N] [--list] ['{"typoSureWeight":1}' (merged over DEFAULT_RANKING)]
import { catalogTools, devQueries } from './data.mjs';
import { fileURLToPath } from 'node:url';
import { generateDistractors } from './distractors.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const S = await import(here('../../dist/search/index.js'));
const args = process.argv.slice(2);
const seed = Number(args[args.indexOf('--seed') + 1]) || 16;
const params = { ...S.DEFAULT_RANKING, ...JSON.parse(args.find((a) => a.startsWith('{')) ?? '{}') };

/** mulberry32: a small seeded generator, so every run makes the same typos. */
function rng(s) {
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
/** Letters next to `c` on a QWERTY keyboard (same row, left and right). */
function neighbours(c) {
  for (const row of ROWS) {
    const i = row.indexOf(c);
    if (i >= 0) return [row[i - 1], row[i + 1]].filter(Boolean);
  }
  return [];
}

const KINDS = ['swap', 'drop', 'double', 'key'];
/** One typo in word `w` (4+ letters), never touching its first letter. */
function garble(w, r) {
  const kind = KINDS[Math.floor(r() * KINDS.length)];
  const at = 1 + Math.floor(r() * (w.length - 1)); // 1..len-1
  switch (kind) {
    case 'swap': {
      const i = Math.min(at, w.length - 2);
      if (w[i] === w[i + 1]) return w.slice(0, at) + w.slice(at + 1); // swapping equal letters changes nothing: drop instead
      return w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
    }
    case 'drop':
      return w.slice(0, at) + w.slice(at + 1);
    case 'double':
      return w.slice(0, at) + w[at] + w.slice(at);
    default: {
      const lower = w[at].toLowerCase();
      const ns = neighbours(lower);
      const n = ns[Math.floor(r() * ns.length)] ?? lower;
      return w.slice(0, at) + (w[at] === lower ? n : n.toUpperCase()) + w.slice(at + 1);
    }
  }
}

/** The request with one word mistyped: a whitespace-separated token that is only letters (a value has digits, dots, slashes, @ …). */
function typo(q, r) {
  const parts = q.split(/(\s+)/);
  const eligible = parts.map((p, i) => [p, i]).filter(([p]) => /^[A-Za-z]{4,}[,.?!]?$/.test(p) && !/^[A-Z]{2,}/.test(p));
  if (eligible.length === 0) return q;
  const [p, i] = eligible[Math.floor(r() * eligible.length)];
  const word = p.match(/^[A-Za-z]+/)[0];
  parts[i] = garble(word, r) + p.slice(word.length);
  return parts.join('');
}

const r = rng(seed);
const queries = devQueries();
const typed = queries.map((q) => ({ ...q, q: typo(q.q, r) }));
if (args.includes('--list')) for (let i = 0; i < queries.length; i++) if (typed[i].q !== queries[i].q) console.log(`${queries[i].split}\t${typed[i].q}`);
const changed = typed.filter((q, i) => q.q !== queries[i].q).length;

const catalog = catalogTools();
const d = generateDistractors(10_000, { seed: 7 });
const sizes = [
  ['catalog', catalog],
  ['+5k', [...catalog, ...d.slice(0, 5_000)]],
  ['10k', [...catalog, ...d.slice(0, 10_000 - catalog.length)]],
];
const fig = (e, qs) => {
  let r5 = 0,
    mrr = 0;
  for (const q of qs) {
    const rank = e.search(q.q, { limit: 10 }).findIndex((h) => q.gold.has(h.key)) + 1;
    if (rank >= 1 && rank <= 5) r5++;
    if (rank >= 1) mrr += 1 / rank;
  }
  return `${(r5 / qs.length).toFixed(3)}/${(mrr / qs.length).toFixed(3)}`;
};
console.log(`seed ${seed}: ${changed} of ${queries.length} dev requests given one typo`);
for (const [name, docs] of sizes) {
  const e = new S.ToolSearchIndex(params);
  for (const doc of docs) e.upsert(doc);
  console.log(`${name.padEnd(8)} clean ${fig(e, queries)}  typos ${fig(e, typed)}`);
}

// --misses: the requests a typo moves out of the top 5 at catalog size (dev sets only; their misses may be read).
if (args.includes('--misses')) {
  const e = new S.ToolSearchIndex(params);
  for (const doc of catalog) e.upsert(doc);
  const rank = (q) => e.search(q.q, { limit: 10 }).findIndex((h) => q.gold.has(h.key)) + 1;
  for (let i = 0; i < queries.length; i++) {
    const a = rank(queries[i]),
      b = rank(typed[i]);
    if (a >= 1 && a <= 5 && !(b >= 1 && b <= 5)) console.log(`${String(a).padStart(2)} → ${String(b || '-').padStart(2)}  ${typed[i].q}`);
  }
}
