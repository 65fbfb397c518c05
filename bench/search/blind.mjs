// The blind sets (bench/search/blind/): requests written from the 70 catalogs, and the first
// search_tools call an assistant wrote for each, seeing only the request and the tool description
// (with or without the server directory). Scores an engine of a built dist/ on them, by slice.
//
//   node bench/search/blind.mjs --set b1 [--dist DIR] [--engine new|plain|nosyn|PARAMS-JSON] [--json] [--misses]
//
// A set is blind only for its first run of a given engine: bench/SEARCH.md records first runs, and
// says which sets are dev since. Queries naming `server` are scored with the search restricted to
// those servers (the directory variant), as the gateway's search_tools does.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const { values } = parseArgs({
  options: {
    set: { type: 'string', default: 'b1' },
    dist: { type: 'string', default: here('../../dist') },
    engine: { type: 'string', default: 'new' },
    json: { type: 'boolean', default: false },
    misses: { type: 'string' },
  },
});

/** The 70 catalogs: the first 33 and the 37 added for the blind sets. */
export function blindCatalog() {
  const load = (dir) =>
    readdirSync(here(dir))
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => JSON.parse(readFileSync(here(`${dir}/${f}`), 'utf8')));
  return [...load('./catalogs'), ...load('./catalogs-added')];
}

const rows = (file) =>
  readFileSync(here(file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => l.split('\t'));

/** A set's requests with their gold, and the assistants' queries by variant. */
export function blindSet(set) {
  const requests = rows(`./blind/requests-${set}.tsv`).map(([id, kind, lang, request, gold]) => ({ id, kind, lang, request, gold: new Set(gold.trim().split(/\s+/)) }));
  const variants = { verbatim: new Map(requests.map((r) => [r.id, { query: r.request }])) };
  for (const v of ['nodir', 'dir']) {
    const file = `./blind/queries-${set}-${v}.tsv`;
    if (existsSync(here(file))) variants[v] = new Map(rows(file).map(([id, args]) => [id, JSON.parse(args)]));
  }
  return { requests, variants };
}

async function engineFrom(dist, which) {
  const S = await import(pathToFileURL(path.join(dist, 'search/index.js')).href);
  if (which === 'plain') return () => new S.PlainBm25Index();
  if (which === 'new') return () => new S.ToolSearchIndex();
  if (which === 'nosyn') return () => new S.ToolSearchIndex({ ...S.DEFAULT_RANKING, synonyms: false });
  const overrides = JSON.parse(which);
  return () => new S.ToolSearchIndex({ ...S.DEFAULT_RANKING, ...overrides, fields: { ...S.DEFAULT_RANKING.fields, ...(overrides.fields ?? {}) } });
}

/** Ranks of each request's first gold tool (0: not in the top 10), per variant. */
export function score(engine, catalogs, { requests, variants }) {
  const serverOf = new Map();
  for (const c of catalogs) for (const t of c.tools) serverOf.set(`${c.server}__${t.name}`, c.server);
  const out = {};
  for (const [variant, calls] of Object.entries(variants)) {
    out[variant] = requests.map((r) => {
      const call = calls.get(r.id);
      if (!call || typeof call.query !== 'string') return { id: r.id, rank: 0, named: false };
      const servers = call.server === undefined ? undefined : new Set([call.server].flat().map(String));
      const accept = servers ? (key) => servers.has(serverOf.get(key)) : undefined;
      const hits = engine.search(call.query, { limit: 10, accept });
      return { id: r.id, rank: hits.findIndex((h) => r.gold.has(h.key)) + 1, named: servers !== undefined, top: hits.slice(0, 3).map((h) => h.key) };
    });
  }
  return out;
}

/** R@5 and MRR@10 of ranks. */
export function figures(ranks) {
  const n = ranks.length || 1;
  return {
    n: ranks.length,
    r5: ranks.filter((x) => x.rank >= 1 && x.rank <= 5).length / n,
    mrr: ranks.reduce((a, x) => a + (x.rank ? 1 / x.rank : 0), 0) / n,
  };
}

/** Figures per variant: all, and each slice (kind; multilingual by language; named a server). */
export function slices(requests, ranks) {
  const byId = new Map(requests.map((r) => [r.id, r]));
  const out = {};
  for (const [variant, rs] of Object.entries(ranks)) {
    const pick = (f) => figures(rs.filter((x) => f(byId.get(x.id), x)));
    out[variant] = {
      all: pick(() => true),
      ask: pick((r) => r.kind === 'ask'),
      step: pick((r) => r.kind === 'step'),
      task: pick((r) => r.kind === 'task'),
      ml: pick((r) => r.kind === 'ml'),
      ...(variant === 'dir' ? { named: pick((_, x) => x.named), unnamed: pick((_, x) => !x.named) } : {}),
    };
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const catalogs = blindCatalog();
  const docs = catalogs.flatMap((c) => c.tools.map((t) => ({ key: `${c.server}__${t.name}`, server: c.server, ...t })));
  const make = await engineFrom(values.dist, values.engine);
  const engine = make();
  for (const d of docs) engine.upsert(d);
  const set = blindSet(values.set);
  for (const r of set.requests) for (const k of r.gold) if (!docs.some((d) => d.key === k)) throw new Error(`${r.id}: unknown gold ${k}`);
  const ranks = score(engine, catalogs, set);
  const table = slices(set.requests, ranks);
  if (values.json) console.log(JSON.stringify({ set: values.set, engine: values.engine, dist: values.dist, table, ranks }));
  else {
    console.log(`set ${values.set}, engine ${values.engine} of ${values.dist}; ${docs.length} tools of ${catalogs.length} servers`);
    for (const [variant, t] of Object.entries(table)) {
      console.log(
        `  ${variant.padEnd(8)} ${Object.entries(t)
          .map(([k, f]) => `${k} ${f.r5.toFixed(3)}/${f.mrr.toFixed(3)} (${f.n})`)
          .join('  ')}`,
      );
    }
  }
  if (values.misses) {
    const byId = new Map(set.requests.map((r) => [r.id, r]));
    for (const x of ranks[values.misses] ?? []) {
      if (x.rank >= 1 && x.rank <= 5) continue;
      const r = byId.get(x.id);
      console.log(`${x.id} ${String(x.rank || '-').padStart(2)}  ${JSON.stringify(set.variants[values.misses].get(x.id))}  gold ${[...r.gold].join(' ')}  top ${x.top?.join(' ')}`);
    }
  }
}
