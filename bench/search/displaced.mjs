// Which dev requests lose places between catalog size and +5,000 distractors, and to which
// distractor tools, through which of the request's words (own word, another form or a correction).
//   npm run build && node bench/search/displaced.mjs ['{"familyDecay":1}']   (settings merged over DEFAULT_RANKING)
import { catalogTools, devQueries } from './data.mjs';
import { fileURLToPath } from 'node:url';
import { generateDistractors } from './distractors.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const S = await import(here('../../dist/search/index.js'));
const { fieldTerms } = await import(here('../../dist/search/fields.js'));
const catalog = catalogTools();
const queries = devQueries();
const d = generateDistractors(10_000, { seed: 7 }).slice(0, 5_000);
const params = { ...S.DEFAULT_RANKING, ...JSON.parse(process.argv[2] ?? '{}') };
const build = (docs) => {
  const e = new S.ToolSearchIndex(params);
  for (const x of docs) e.upsert(x);
  return e;
};
const small = build(catalog),
  big = build([...catalog, ...d]);
const docOf = new Map([...catalog, ...d].map((x) => [x.key, x]));
const isD = new Set(d.map((x) => x.key));
const FIELDS = ['name', 'title', 'desc', 'pname', 'pdesc', 'server'];
function how(concepts, key) {
  const terms = fieldTerms(docOf.get(key));
  const out = [];
  for (const c of concepts)
    for (const [t, w] of c) {
      const fs = terms.map((f, i) => (f.includes(t) ? FIELDS[i] : null)).filter(Boolean);
      if (fs.length) {
        out.push(`${c[0][0]}${t === c[0][0] ? '' : `→${t}(${w.toFixed(2)})`}@${fs.join('+')}`);
        break;
      }
    }
  return out.join(' ');
}
const rank = (e, q) => e.search(q.q, { limit: 10 }).findIndex((h) => q.gold.has(h.key)) + 1 || 99;
let lost = 0;
for (const q of queries) {
  const a = rank(small, q),
    b = rank(big, q);
  if (b <= a) continue;
  if (a > 10) continue;
  if (a <= 5 && b > 5) lost++;
  console.log(`\n${q.split} ${a} → ${b === 99 ? '-' : b}  ${q.q}`);
  const concepts = big.concepts(q.q);
  const hits = big.search(q.q, { limit: 10 });
  for (const [i, h] of hits.entries()) {
    if (i + 1 >= b && !q.gold.has(h.key)) continue;
    console.log(`  ${String(i + 1).padStart(2)} ${isD.has(h.key) ? 'D' : q.gold.has(h.key) ? '*' : ' '} ${h.key.padEnd(48)} ${h.score.toFixed(2)}  ${how(concepts, h.key)}`);
    if (q.gold.has(h.key)) break;
  }
}
console.log(`\nfell out of the top 5: ${lost}`);
