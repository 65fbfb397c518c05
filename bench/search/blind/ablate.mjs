// The first run of the blind sets against the ranking as it stood before issue 29 (main at
// cb1e2f3, with bench/search/blind/ablation.patch applied: it only lets SB_ABLATE switch off the
// query-shape rules and the stemming tables), whole and with each hand-written table left out.
// Decides which tables earn their place (issue 29: +1 point of R@5, no slice worse by more than 1).
//   node bench/search/blind/ablate.mjs --dist /path/to/patched/dist --set b1 > first-runs-b1.json
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { dist: { type: 'string' }, set: { type: 'string', default: 'b1' } } });
const blind = fileURLToPath(new URL('../blind.mjs', import.meta.url));
const OFF_ALL = { synonymWeight: 0, worldWeight: 0, phrasalWeight: 1, negatedName: 0, contentWeight: 1, preambleWeight: 1, payloadWeight: 1, terseListing: false, openSense: false, shorthand: false, formCheck: false, typoCommonWords: false, actionMismatch: 0, numberMismatch: 0 };
const variants = [
  ['plain BM25', 'plain', ''],
  ['today', 'new', ''],
  ['today, synonyms: false', 'nosyn', ''],
  ['no tables (general IR kept)', JSON.stringify(OFF_ALL), 'irregular,unstemmed,stemsplits,shapes'],
  ...Object.entries(OFF_ALL).map(([k, v]) => [`without ${k}`, JSON.stringify({ [k]: v }), '']),
  ...['irregular', 'unstemmed', 'stemsplits', 'secondlanguage', 'phrases', 'lightverbs', 'workphrases', 'outcomes', 'shapetable', 'rules', 'shapes'].map((a) => [`without ${a}`, 'new', a]),
];
const out = [];
for (const [label, engine, ablate] of variants) {
  const text = execFileSync(process.execPath, [blind, '--set', values.set, '--dist', values.dist, '--engine', engine, '--json'], { env: { ...process.env, SB_ABLATE: ablate }, maxBuffer: 1 << 28 }).toString();
  const { table } = JSON.parse(text);
  out.push({ label, engine, ablate, table });
  process.stderr.write(`${label}: ${Object.entries(table).map(([v, t]) => `${v} ${t.all.r5.toFixed(3)}/${t.all.mrr.toFixed(3)}`).join('  ')}\n`);
}
process.stdout.write(JSON.stringify({ set: values.set, ranAt: new Date().toISOString(), variants: out }, null, 1) + '\n');
