// Coordinate search of the ranking parameters on the DEV half of queries.tsv only (the test half
// stays unseen). Prints the best parameters; copy them into DEFAULT_RANKING by hand.
//   npm run build && node bench/search/tune.mjs [--distractors]
// --distractors: the objective sums the catalog, +5,000 distractors and 10,000 tools (round 3
// tuned on the catalog alone, which overfitted it).
import { catalogTools, mainQueries } from './data.mjs';
import { fileURLToPath } from 'node:url';
import { generateDistractors } from './distractors.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const S = await import(here('../../dist/search/index.js'));
const catalog = catalogTools();
const dev = mainQueries().filter((q) => q.split === 'dev');

const d = generateDistractors(10_000, { seed: 7 });
const corpora = process.argv.includes('--distractors')
  ? [catalog, [...catalog, ...d.slice(0, 5_000)], [...catalog, ...d.slice(0, 10_000 - catalog.length)]]
  : [catalog];

function score(params) {
  let r5 = 0, mrr = 0;
  for (const docs of corpora) {
    const e = new S.ToolSearchIndex(params);
    for (const doc of docs) e.upsert(doc);
    for (const q of dev) {
      const rank = e.search(q.q, { limit: 10 }).findIndex((h) => q.gold.has(h.key)) + 1;
      if (rank >= 1 && rank <= 5) r5++;
      if (rank >= 1) mrr += 1 / rank;
    }
  }
  const n = dev.length * corpora.length;
  return { r5: r5 / n, mrr: mrr / n, objective: (r5 + mrr) / n };
}

const clone = (p) => JSON.parse(JSON.stringify(p));
let best = clone(S.DEFAULT_RANKING);
let bestScore = score(best);
console.log('start', bestScore);
const knobs = [
  ['k1', [0.8, 1.0, 1.2, 1.5, 2.0]],
  ['synonymWeight', [0.25, 0.35, 0.45, 0.6, 0.75]],
  ['nameCoverage', [0, 0.25, 0.5, 0.75, 1, 1.5]],
  ['serverMention', [0, 0.25, 0.5, 1, 2]],
  ...['name', 'title', 'summary', 'description', 'params', 'paramText', 'server'].flatMap((f) => [
    [`fields.${f}.weight`, [0.2, 0.5, 1, 1.5, 2, 3, 4]],
    [`fields.${f}.b`, [0, 0.3, 0.6, 0.9]],
  ]),
];
const set = (p, path, v) => { const parts = path.split('.'); let o = p; for (const k of parts.slice(0, -1)) o = o[k]; o[parts.at(-1)] = v; };
for (let round = 0; round < 2; round++) {
  for (const [path, values] of knobs) {
    for (const v of values) {
      const p = clone(best);
      set(p, path, v);
      const s = score(p);
      if (s.objective > bestScore.objective + 1e-9) { best = p; bestScore = s; console.log(round, path, v, s); }
    }
  }
}
console.log(JSON.stringify(best), bestScore);
