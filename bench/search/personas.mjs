// The fourth dev set (round 13) broken down by the persona each request was written in (its fourth column):
// R@1 / R@5 / MRR@10 per persona and in all, at catalog size, +5,000 distractors and 10,000 tools. Dev only.
//   npm run build && node bench/search/personas.mjs
import { catalogTools, dev4Queries } from './data.mjs';
import { fileURLToPath } from 'node:url';
import { generateDistractors } from './distractors.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const S = await import(here('../../dist/search/index.js'));
const catalog = catalogTools();
const queries = dev4Queries();
const d = generateDistractors(10_000, { seed: 7 });
const sizes = [
  ['catalog', catalog],
  ['+5k', [...catalog, ...d.slice(0, 5_000)]],
  ['10k', [...catalog, ...d.slice(0, 10_000 - catalog.length)]],
];
const personas = [...new Set(queries.map((q) => q.persona))];

const fig = (ranks) => {
  const n = ranks.length || 1;
  const share = (ok) => (ranks.filter(ok).length / n).toFixed(3);
  return `${share((r) => r === 1)}/${share((r) => r >= 1 && r <= 5)}/${(ranks.reduce((a, r) => a + (r ? 1 / r : 0), 0) / n).toFixed(3)}`;
};
const rows = Object.fromEntries([...personas, 'all'].map((p) => [p, []]));
for (const [, docs] of sizes) {
  const e = new S.ToolSearchIndex();
  for (const doc of docs) e.upsert(doc);
  const ranks = queries.map((q) => e.search(q.q, { limit: 10 }).findIndex((h) => q.gold.has(h.key)) + 1);
  for (const p of personas) rows[p].push(fig(ranks.filter((_, i) => queries[i].persona === p)));
  rows.all.push(fig(ranks));
}
console.log(`${'persona (n)'.padEnd(16)} ${sizes.map(([s]) => `${s} R@1/R@5/MRR`.padEnd(22)).join(' ')}`);
for (const [p, cells] of Object.entries(rows)) {
  const n = p === 'all' ? queries.length : queries.filter((q) => q.persona === p).length;
  console.log(`${`${p} (${n})`.padEnd(16)} ${cells.map((c) => c.padEnd(22)).join(' ')}`);
}
