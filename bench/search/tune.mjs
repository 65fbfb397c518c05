// Tuning the ranking's general knobs on dev sets only: every line of queries.tsv and queries-dev2..5.tsv
// (the 33 catalogs, 726 tools; and with distractors to 10,000 tools) and b1's three variants (bench/search/blind/, the 70 catalogs; b2 is never
// read here). Indexes are built once; a setting is written into them (field weights, b and k1 live
// in the inverted index, the rest is read per query), checked once against a fresh build.
//   npm run build && node bench/search/tune.mjs --eval '{}' '{"k1":1.5}'    figures of each setting
//   node bench/search/tune.mjs --eval --dist /other/dist '{}'               ... of another build
//   npm run build && node bench/search/tune.mjs [--rounds 2] [--min 1]      coordinate search
// A move is taken only when it helps the assistants' b1 queries (nodir + dir) and the dev total together:
// neither goes down, and together they gain at least --min requests' worth (R@5 hit + reciprocal rank).
// Verbatim b1 is printed beside, not optimised: long task text is key-term selection's, chosen by hand.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { catalogTools, devQueries } from './data.mjs';
import { generateDistractors } from './distractors.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const args = process.argv.slice(2);
// --dist DIR: another build of the ranking (an older one, for its figures with --eval).
const dist = args.includes('--dist') ? path.resolve(args[args.indexOf('--dist') + 1]) : here('../../dist');
const S = await import(pathToFileURL(path.join(dist, 'search/index.js')).href);
const arg = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};

// ── data ──
const load = (dir) =>
  readdirSync(here(dir))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(here(`${dir}/${f}`), 'utf8')));
const blindCatalogs = [...load('./catalogs'), ...load('./catalogs-added')];
const rows = (file) =>
  readFileSync(here(file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => l.split('\t'));
const requests = rows('./blind/requests-b1.tsv').map(([id, kind, _lang, request, gold]) => ({ id, kind, request, gold: new Set(gold.trim().split(/\s+/)) }));
const calls = Object.fromEntries(['nodir', 'dir'].map((v) => [v, new Map(rows(`./blind/queries-b1-${v}.tsv`).map(([id, a]) => [id, JSON.parse(a)]))]));
const serverOf = new Map(blindCatalogs.flatMap((c) => c.tools.map((t) => [`${c.server}__${t.name}`, c.server])));
// --half odd|even: tune on one half of every set (by line; a b1 request's three variants together), to
// see whether a setting found there holds on the other half (--eval --half even).
const half = args.includes('--half') ? args[args.indexOf('--half') + 1] : undefined;
const kept = (_, i) => half === undefined || (i % 2 === 1) === (half === 'odd');
const b1Queries = (variant) =>
  requests.filter(kept).map((r) => {
    if (variant === 'verbatim') return { q: r.request, gold: r.gold, split: variant };
    const call = calls[variant].get(r.id);
    const servers = call.server === undefined ? undefined : new Set([call.server].flat().map(String));
    return { q: call.query, gold: r.gold, split: variant, accept: servers && ((k) => servers.has(serverOf.get(k))) };
  });
const dev = devQueries()
  .filter(kept)
  .map((q) => ({ ...q, split: 'dev' }));
const dev10k = dev.map((q) => ({ ...q, split: 'dev10k' }));
const b1 = [...b1Queries('verbatim'), ...b1Queries('nodir'), ...b1Queries('dir')];
const SPLITS = ['dev', 'dev10k', 'verbatim', 'nodir', 'dir'];

const FIELDS = ['name', 'title', 'summary', 'description', 'params', 'paramText', 'server'];
function fresh(params, docs) {
  const e = new S.ToolSearchIndex(params);
  for (const doc of docs) e.upsert(doc);
  return e;
}
/** Writes a setting into a built index (private fields: a benchmark's liberty). */
function apply(e, params) {
  e.params = params;
  const ix = e.index;
  FIELDS.forEach((f, i) => {
    ix.weights[i] = params.fields[f].weight;
    ix.bs[i] = params.fields[f].b;
    ix.groupNorms[i] = params.fields[f].groupNorm ?? 0;
  });
  ix.k1 = params.k1;
  ix.normsDirty = true;
}

/** Per split: R@5 hits and reciprocal-rank sum. */
function score(params, engines) {
  const per = Object.fromEntries(SPLITS.map((s) => [s, { r5: 0, mrr: 0, n: 0 }]));
  for (const [e, qs] of engines) {
    if (params) apply(e, params);
    for (const q of qs) {
      const rank = e.search(q.q, { limit: 10, accept: q.accept }).findIndex((h) => q.gold.has(h.key)) + 1;
      const c = per[q.split];
      c.n++;
      if (rank >= 1 && rank <= 5) c.r5++;
      if (rank >= 1) c.mrr += 1 / rank;
    }
  }
  const u = (s) => per[s].r5 + per[s].mrr;
  return { per, dev: u('dev') + u('dev10k'), assist: u('nodir') + u('dir'), verbatim: u('verbatim') };
}
const fmt = (sc) =>
  SPLITS.map((s) => {
    const c = sc.per[s];
    return `${s} ${(c.r5 / c.n).toFixed(3)}/${(c.mrr / c.n).toFixed(3)}`;
  }).join('  ');

const merge = (a, b) =>
  b && typeof b === 'object' && !Array.isArray(b) ? Object.fromEntries([...new Set([...Object.keys(a), ...Object.keys(b)])].map((k) => [k, k in b ? merge(a[k], b[k]) : a[k]])) : b;
const base = structuredClone(S.DEFAULT_RANKING);
const devDocs = catalogTools();
const b1Docs = blindCatalogs.flatMap((c) => c.tools.map((t) => ({ key: `${c.server}__${t.name}`, server: c.server, ...t })));
const devDocs10k = [...devDocs, ...generateDistractors(10_000, { seed: 7 }).slice(0, 10_000 - devDocs.length)];
const engines = [
  [fresh(base, devDocs), dev],
  [fresh(base, devDocs10k), dev10k],
  [fresh(base, b1Docs), b1],
];

if (args[0] === '--eval') {
  for (const s of args.slice(1).filter((a) => a.startsWith('{'))) console.log(`${s.padEnd(40)} ${fmt(score(merge(base, JSON.parse(s)), engines))}`);
  process.exit(0);
}

const start = score(null, engines);
{
  // Sanity: a setting written into the built indexes ranks as a fresh build of it does.
  const probe = merge(base, { k1: 1.6, fields: { name: { weight: 2.5 }, description: { b: 0.4 } }, nameCoverage: 0.7 });
  const a = score(probe, engines);
  const b = score(null, [
    [fresh(probe, devDocs), dev],
    [fresh(probe, devDocs10k), dev10k],
    [fresh(probe, b1Docs), b1],
  ]);
  if (Math.abs(a.dev + a.assist + a.verbatim - b.dev - b.assist - b.verbatim) > 1e-9) throw new Error('apply() differs from a fresh build');
  score(base, engines);
}
console.log('start', fmt(start));

// Round values around the defaults: a knob set to 0.36 would say more precision than the dev sets have.
const around = (v, steps) => [...new Set(steps.map((m) => +(v * m).toPrecision(2)))].filter((x) => x !== v);
const knobs = [
  ['k1', [0.8, 1.0, 1.5, 2.0]],
  ...FIELDS.flatMap((f) => [
    [`fields.${f}.weight`, around(base.fields[f].weight, [0.5, 0.67, 0.8, 1.25, 1.5, 2])],
    [`fields.${f}.b`, [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8].filter((v) => Math.abs(v - base.fields[f].b) <= 0.3 && v !== base.fields[f].b)],
  ]),
  ['fields.description.groupNorm', [0, 0.25, 0.75, 1]],
  ['fields.paramText.groupNorm', [0, 0.25, 0.75, 1]],
  ['formWeight', [0, 0.3, 0.4, 0.5, 0.6, 0.8]],
  ['typoWeight', [0.4, 0.5, 0.7, 0.8]],
  ['typoSureWeight', [0.7, 0.8, 0.9, 1]],
  ['crowdingDecay', [0.6, 0.7, 0.9, 1]],
  ['crowdingFree', [1, 2, 4, 5]],
  ['familyDecay', [0.3, 0.4, 0.6, 0.7, 1]],
  ['nameCoverage', [0.25, 0.4, 0.6, 0.75, 1, 1.5]],
  ['nameFormCredit', [0.3, 0.4, 0.5, 0.7, 0.8, 1]],
  ['serverMention', [0, 0.25, 0.4, 0.6, 0.75, 1, 1.5]],
  ['serverContext', [0, 0.25, 0.4, 0.6, 0.75, 1]],
  ['valueMatch', [0, 0.1, 0.3, 0.4]],
];
const get = (p, path) => path.split('.').reduce((o, k) => o[k], p);
const set = (p, path, v) => {
  const parts = path.split('.');
  let o = p;
  for (const k of parts.slice(0, -1)) o = o[k];
  o[parts.at(-1)] = v;
};
const MIN = arg('--min', 1);
let best = structuredClone(base);
let bestScore = start;
const changed = new Set();
for (let round = 0; round < arg('--rounds', 2); round++) {
  let moved = false;
  for (const [path, values] of knobs) {
    let pick = null;
    for (const v of values) {
      if (v === get(best, path)) continue;
      const p = structuredClone(best);
      set(p, path, v);
      const s = score(p, engines);
      const dDev = s.dev - bestScore.dev,
        dAssist = s.assist - bestScore.assist;
      const ok = dDev >= -1e-9 && dAssist >= -1e-9 && dDev + dAssist >= MIN;
      if (dDev + dAssist > 0) console.log(`${round} ${path}=${v} dev ${dDev.toFixed(2)} assist ${dAssist.toFixed(2)} verbatim ${(s.verbatim - bestScore.verbatim).toFixed(2)}${ok ? '' : ' (guard)'}`);
      if (ok && (!pick || s.dev + s.assist > pick.s.dev + pick.s.assist)) pick = { v, p, s };
    }
    if (pick) {
      best = pick.p;
      bestScore = pick.s;
      changed.add(path);
      moved = true;
      console.log(`TAKE ${path}=${pick.v}  ${fmt(bestScore)}`);
    }
  }
  if (!moved) break;
}
const diff = {};
for (const p of changed)
  if (get(best, p) !== get(base, p)) {
    const parts = p.split('.');
    let o = diff;
    for (const k of parts.slice(0, -1)) o = o[k] ??= {};
    o[parts.at(-1)] = get(best, p);
  }
console.log('changed', JSON.stringify(diff));
console.log('start', fmt(start));
console.log('final', fmt(bestScore));
