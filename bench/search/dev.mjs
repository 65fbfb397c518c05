// Quick comparison of ranking settings on the dev sets, queries.tsv and the second to fifth (catalog,
// +5,000 distractors, 10,000 tools). Each argument is a JSON object merged over DEFAULT_RANKING
// (deeply). tune.mjs --eval adds b1 at catalog size; this one adds the sizes.
//   npm run build && node bench/search/dev.mjs '{}' '{"serverContext":0}' [--diff]
import { catalogTools, dev2Queries, dev3Queries, dev4Queries, dev5Queries, mainQueries } from './data.mjs';
import { fileURLToPath } from 'node:url';
import { generateDistractors } from './distractors.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const S = await import(here('../../dist/search/index.js'));
const args = process.argv.slice(2);
const settings = args.filter((a) => !a.startsWith('--'));
const catalog = catalogTools();
const queries = mainQueries();
const dev2 = [...dev2Queries(), ...dev3Queries(), ...dev4Queries(), ...dev5Queries()]; // every all-dev line, dev2 to dev5 in order
queries.push(...dev2);
const d = generateDistractors(10_000, { seed: 7 });
const sizes = [
  ['catalog', catalog],
  ['+5k', [...catalog, ...d.slice(0, 5_000)]],
  ['10k', [...catalog, ...d.slice(0, 10_000 - catalog.length)]],
];

const merge = (a, b) =>
  b && typeof b === 'object' && !Array.isArray(b) ? Object.fromEntries([...new Set([...Object.keys(a), ...Object.keys(b)])].map((k) => [k, k in b ? merge(a[k], b[k]) : a[k]])) : b;

const ranks = new Map(); // setting → size → dev query ranks (for --diff)
function measure(engine, splits, record) {
  const qs = queries.filter((q) => splits.includes(q.split));
  let r5 = 0,
    mrr = 0;
  for (const q of qs) {
    const rank = engine.search(q.q, { limit: 10 }).findIndex((h) => q.gold.has(h.key)) + 1;
    record?.push(rank);
    if (rank >= 1 && rank <= 5) r5++;
    if (rank >= 1) mrr += 1 / rank;
  }
  return `${(r5 / qs.length).toFixed(3)}/${(mrr / qs.length).toFixed(3)}`;
}

for (const s of settings.length > 0 ? settings : ['{}']) {
  const params = merge(S.DEFAULT_RANKING, JSON.parse(s));
  const cells = [];
  for (const [name, docs] of sizes) {
    const e = new S.ToolSearchIndex(params);
    for (const doc of docs) e.upsert(doc);
    const record = [];
    ranks.set(`${s} ${name}`, record);
    cells.push(
      `${name} dev ${measure(e, ['dev'], record)} dev2 ${measure(e, ['dev2'], record)} dev3 ${measure(e, ['dev3'], record)} dev4 ${measure(e, ['dev4'], record)} dev5 ${measure(e, ['dev5'], record)} total ${measure(e, ['dev', 'dev2', 'dev3', 'dev4', 'dev5'])}`,
    );
  }
  console.log(`${s.padEnd(50)} ${cells.join('  ')}`);
}

// --diff: the dev queries whose rank moved between the first setting and each other one.
if (args.includes('--diff')) {
  const dev = [
    ...queries.filter((q) => q.split === 'dev'),
    ...dev2.filter((q) => q.split === 'dev2'),
    ...dev2.filter((q) => q.split === 'dev3'),
    ...dev2.filter((q) => q.split === 'dev4'),
    ...dev2.filter((q) => q.split === 'dev5'),
  ]; // the order measure() records them in
  const [first, ...rest] = settings;
  for (const s of rest)
    for (const [name] of sizes) {
      const a = ranks.get(`${first} ${name}`),
        b = ranks.get(`${s} ${name}`);
      dev.forEach((q, i) => {
        if (a[i] !== b[i]) console.log(`${name.padEnd(8)} ${q.split.padEnd(4)} ${String(a[i] || '-').padStart(2)} → ${String(b[i] || '-').padStart(2)}  ${q.q}`);
      });
    }
}
