// Coordinate search of the ranking's numeric parameters on every DEV set (the dev half of
// queries.tsv, dev2..dev5; the test half stays unseen), at catalog size, +5,000 and 10,000 tools.
// Prints each accepted move and the final setting with its per-set figures; copy it into
// DEFAULT_RANKING by hand, after `dev.mjs '<json>' --test` judges it once.
//   npm run build && node bench/search/tune.mjs [--rounds 2] [--min 1]
// Objective: R@5 + MRR@10 summed over the three sizes. Guard against fitting one writer: a move is
// taken only when each of the five sets holds (its R@5 hits + MRR sum, averaged over the sizes,
// does not go down), or four do and the fifth loses less than one request's worth; and only when
// the total gains at least --min requests' worth (averaged over sizes), so noise moves stay out.
// The three indexes are built once: each setting is written into them (the field weights, b and
// k1 live in the inverted index, the rest is read per query), checked once against a fresh build.
import { catalogTools, devQueries } from './data.mjs';
import { fileURLToPath } from 'node:url';
import { generateDistractors } from './distractors.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const S = await import(here('../../dist/search/index.js'));
const arg = (name, dflt) => { const i = process.argv.indexOf(name); return i > 0 ? Number(process.argv[i + 1]) : dflt; };
const ROUNDS = arg('--rounds', 2);
const MIN_GAIN = arg('--min', 1);

const catalog = catalogTools();
const dev = devQueries();
const SETS = ['dev', 'dev2', 'dev3', 'dev4', 'dev5'];
const d = generateDistractors(10_000, { seed: 7 });
const corpora = [catalog, [...catalog, ...d.slice(0, 5_000)], [...catalog, ...d.slice(0, 10_000 - catalog.length)]];
const FIELDS = ['name', 'title', 'summary', 'description', 'params', 'paramText', 'server'];

const clone = (p) => structuredClone(p);
function fresh(params, docs) { const e = new S.ToolSearchIndex(params); for (const doc of docs) e.upsert(doc); return e; }

// Writes a setting into a built index. Valid while typoWeight and worldWeight stay > 0 (the
// constructor's only other use of the params: which table words a typo may be corrected to).
function apply(e, params) {
  e.params = params;
  const ix = e.index;
  FIELDS.forEach((f, i) => { ix.weights[i] = params.fields[f].weight; ix.bs[i] = params.fields[f].b; ix.groupNorms[i] = params.fields[f].groupNorm ?? 0; });
  ix.k1 = params.k1;
  ix.normsDirty = true;
}

/** Per set: R@5 hits and MRR sum, each summed over the three sizes. */
function score(params, engines) {
  const per = Object.fromEntries(SETS.map((s) => [s, { r5: 0, mrr: 0, n: 0 }]));
  for (const e of engines) {
    if (params) apply(e, params);
    for (const q of dev) {
      const rank = e.search(q.q, { limit: 10 }).findIndex((h) => q.gold.has(h.key)) + 1;
      const c = per[q.split];
      c.n++;
      if (rank >= 1 && rank <= 5) c.r5++;
      if (rank >= 1) c.mrr += 1 / rank;
    }
  }
  let total = 0;
  for (const s of SETS) total += per[s].r5 + per[s].mrr;
  return { per, total };
}

// A per-set objective in requests (R@5 hit + reciprocal rank, averaged over the sizes).
const unit = (c) => (c.r5 + c.mrr) / corpora.length;
function guard(a, b) {
  const deltas = SETS.map((s) => unit(b.per[s]) - unit(a.per[s]));
  const down = deltas.filter((x) => x < -1e-9);
  const ok = down.length === 0 || (down.length === 1 && down[0] > -1);
  return { ok, deltas, gain: (b.total - a.total) / corpora.length };
}
const fmt = (sc) => SETS.map((s) => { const c = sc.per[s]; return `${s} ${(c.r5 / c.n).toFixed(3)}/${(c.mrr / c.n).toFixed(3)}`; }).join('  ')
  + `  total ${(sc.total / dev.length / corpora.length).toFixed(4)}`;

const base = clone(S.DEFAULT_RANKING);
let t = Date.now();
const engines = corpora.map((docs) => fresh(base, docs));
console.log(`built three indexes in ${Date.now() - t} ms`);
t = Date.now();
const start = score(null, engines);
console.log(`one setting scored in ${Date.now() - t} ms`);
console.log('start', fmt(start));

// Sanity: a setting written into the built indexes ranks as a fresh build of it does.
{
  const probe = clone(base);
  probe.k1 = 1.6; probe.fields.name.weight = 2.5; probe.fields.description.b = 0.4; probe.nameCoverage = 0.7;
  const a = score(probe, engines), b = score(null, corpora.map((docs) => fresh(probe, docs)));
  if (Math.abs(a.total - b.total) > 1e-9) throw new Error(`apply() differs from a fresh build: ${a.total} vs ${b.total}`);
  console.log('apply() = fresh build: ok');
}

// A few values around each current one; 0 where 0 means off (a rule's worth is its own test).
const knobs = [
  ['k1', [0.9, 1.0, 1.5, 1.8]],
  ...FIELDS.flatMap((f) => [
    [`fields.${f}.weight`, [0.6, 0.8, 1.25, 1.5].map((m) => +(base.fields[f].weight * m).toFixed(3))],
    [`fields.${f}.b`, [-0.2, -0.1, 0.1, 0.2].map((x) => +(base.fields[f].b + x).toFixed(2)).filter((v) => v >= 0 && v <= 1)],
  ]),
  ['fields.description.groupNorm', [0, 0.25, 0.75]],
  ['fields.paramText.groupNorm', [0, 0.25, 0.75]],
  ['synonymWeight', [0.6, 0.8, 1.25].map((m) => +(base.synonymWeight * m).toFixed(3))],
  ['worldWeight', [0.6, 0.8, 1.25].map((m) => +(base.worldWeight * m).toFixed(3))],
  ['formWeight', [0.5, 0.6, 0.8, 0.9]],
  ['typoWeight', [0.4, 0.5, 0.7, 0.8]],
  ['crowdingDecay', [0.7, 0.9, 1]],
  ['crowdingFree', [2, 4, 5]],
  ['familyDecay', [0.3, 0.4, 0.6, 0.7, 1]],
  ['phrasalWeight', [0.3, 0.4, 0.6, 0.7]],
  ['negatedName', [0.3, 0.4, 0.6, 0.7]],
  ['nameCoverage', [0.3, 0.4, 0.6, 0.75]],
  ['serverMention', [0.3, 0.4, 0.6, 0.75, 1]],
  ['serverContext', [0.3, 0.4, 0.6, 0.75]],
  ['actionMismatch', [0.15, 0.2, 0.4, 0.5]],
  ['numberMismatch', [0, 0.03, 0.08, 0.1]],
  ['valueMatch', [0.1, 0.15, 0.3, 0.4]],
  ['contentWeight', [0.1, 0.2, 0.3]],
  ['preambleWeight', [0.3, 0.4, 0.6, 0.7]],
  ['payloadWeight', [0.1, 0.2, 0.3]],
];
const get = (p, path) => path.split('.').reduce((o, k) => o[k], p);
const set = (p, path, v) => { const parts = path.split('.'); let o = p; for (const k of parts.slice(0, -1)) o = o[k]; o[parts.at(-1)] = v; };
console.log(`${knobs.reduce((n, [, v]) => n + v.length, 0)} settings a round, ${ROUNDS} round(s)`);

let best = clone(base);
let bestScore = start;
const changed = new Set();
for (let round = 0; round < ROUNDS; round++) {
  let moved = false;
  for (const [path, values] of knobs) {
    let pick = null;
    for (const v of values) {
      if (v === get(best, path)) continue;
      const p = clone(best);
      set(p, path, v);
      const s = score(p, engines);
      const g = guard(bestScore, s);
      const line = `${round} ${path}=${v} gain ${g.gain.toFixed(2)} sets ${g.deltas.map((x) => x.toFixed(2)).join(' ')}${g.ok ? '' : ' (guard)'}`;
      if (g.gain > 0) console.log(line);
      if (g.ok && g.gain >= MIN_GAIN && (!pick || s.total > pick.s.total)) pick = { v, p, s };
    }
    if (pick) {
      best = pick.p; bestScore = pick.s; changed.add(path); moved = true;
      console.log(`TAKE ${path}=${pick.v}  ${fmt(bestScore)}`);
    }
  }
  if (!moved) break;
}
apply(engines[0], base); // leave nothing half-set
const diff = {}; // nested, as dev.mjs takes it
for (const p of changed) if (get(best, p) !== get(base, p)) { const parts = p.split('.'); let o = diff; for (const k of parts.slice(0, -1)) o = o[k] ??= {}; o[parts.at(-1)] = get(best, p); }
console.log('changed', JSON.stringify(diff));
const g = guard(start, bestScore);
console.log('per set vs start (requests):', SETS.map((s, i) => `${s} ${g.deltas[i].toFixed(2)}`).join('  '), ` total ${g.gain.toFixed(2)}`);
console.log('start', fmt(start));
console.log('final', fmt(bestScore));
