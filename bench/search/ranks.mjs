// Per-query ranks of every dev request (queries.tsv and the second to fifth dev sets) at the three sizes, as JSON on stdout, so
// two builds of the ranking can be compared query by query (the test half is never listed).
//   npm run build && node bench/search/ranks.mjs > before.json; ...; node bench/search/ranks.mjs --diff before.json
import { readFileSync } from 'node:fs';
import { catalogTools, devQueries } from './data.mjs';
import { fileURLToPath } from 'node:url';
import { generateDistractors } from './distractors.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const S = await import(here('../../dist/search/index.js'));
const args = process.argv.slice(2);
const catalog = catalogTools();
const queries = devQueries();
const d = generateDistractors(10_000, { seed: 7 });
const sizes = [
  ['catalog', catalog],
  ['+5k', [...catalog, ...d.slice(0, 5_000)]],
  ['10k', [...catalog, ...d.slice(0, 10_000 - catalog.length)]],
];
const out = {};
for (const [name, docs] of sizes) {
  const e = new S.ToolSearchIndex();
  for (const doc of docs) e.upsert(doc);
  out[name] = queries.map((q) => e.search(q.q, { limit: 10 }).findIndex((h) => q.gold.has(h.key)) + 1);
}
const fig = (rs, set) => {
  const r = rs.filter((_, i) => set === 'both' || queries[i].split === set);
  return `${(r.filter((x) => x >= 1 && x <= 5).length / r.length).toFixed(3)}/${(r.reduce((a, x) => a + (x ? 1 / x : 0), 0) / r.length).toFixed(3)}`;
};
if (args[0] === '--diff') {
  const before = JSON.parse(readFileSync(args[1], 'utf8'));
  for (const [name] of sizes) {
    console.log(
      `${name.padEnd(8)} dev ${fig(before[name], 'dev')} → ${fig(out[name], 'dev')}  dev2 ${fig(before[name], 'dev2')} → ${fig(out[name], 'dev2')}  dev3 ${fig(before[name], 'dev3')} → ${fig(out[name], 'dev3')}  dev4 ${fig(before[name], 'dev4')} → ${fig(out[name], 'dev4')}  dev5 ${fig(before[name], 'dev5')} → ${fig(out[name], 'dev5')}  total ${fig(before[name], 'both')} → ${fig(out[name], 'both')}`,
    );
    out[name].forEach((r, i) => {
      if (r !== before[name][i]) console.log(`  ${name.padEnd(8)} ${queries[i].split.padEnd(4)} ${String(before[name][i] || '-').padStart(2)} → ${String(r || '-').padStart(2)}  ${queries[i].q}`);
    });
  }
} else console.log(JSON.stringify(out));
