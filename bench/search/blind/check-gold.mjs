#!/usr/bin/env node
// Checks the blind request sets (requests-b1.tsv, requests-b2.tsv) against the 70 catalogs.
// Reads only bench/search/catalogs*/*.json and the request files in this folder.
// Usage: node bench/search/blind/check-gold.mjs [--servers] [--near=0.6]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const searchDir = path.resolve(here, '..');
const args = process.argv.slice(2);
const showServers = args.includes('--servers');
const nearArg = args.find((a) => a.startsWith('--near='));
const NEAR = nearArg ? Number(nearArg.split('=')[1]) : 0.6;

// ---- catalogs
const keys = new Set();
const toolsPerServer = new Map();
for (const dir of ['catalogs', 'catalogs-added']) {
  const full = path.join(searchDir, dir);
  for (const f of fs.readdirSync(full).filter((f) => f.endsWith('.json')).sort()) {
    const cat = JSON.parse(fs.readFileSync(path.join(full, f), 'utf8'));
    toolsPerServer.set(cat.server, cat.tools.length);
    for (const t of cat.tools) keys.add(`${cat.server}__${t.name}`);
  }
}
const servers = [...toolsPerServer.keys()].sort();

// ---- expected composition
const EXPECT_KIND = { ask: 160, step: 50, task: 40, ml: 50 };
const EXPECT_ML_LANG = { es: 13, de: 13, fr: 12, zh: 12 };
const MIN_PER_SERVER = 2;

let errors = 0;
const err = (msg) => { errors++; console.log('ERROR ' + msg); };

function load(file, prefix) {
  const text = fs.readFileSync(path.join(here, file), 'utf8');
  const rows = [];
  let n = 0;
  text.split('\n').forEach((line, i) => {
    if (line === '' || line.startsWith('#')) return;
    const cols = line.split('\t');
    const where = `${file}:${i + 1}`;
    if (cols.length !== 5) { err(`${where}: ${cols.length} columns, want 5`); return; }
    const [id, kind, lang, request, goldStr] = cols;
    n++;
    const wantId = `${prefix}-${String(n).padStart(3, '0')}`;
    if (id !== wantId) err(`${where}: id ${id}, want ${wantId}`);
    if (!(kind in EXPECT_KIND)) err(`${where}: kind ${kind}`);
    if (kind === 'ml' ? !(lang in EXPECT_ML_LANG) : lang !== 'en') err(`${where}: lang ${lang} for kind ${kind}`);
    if (!request.trim() || request !== request.trim()) err(`${where}: empty or untrimmed request`);
    const gold = goldStr.split(' ');
    if (!goldStr || gold.some((g) => !g)) err(`${where}: empty gold or double space`);
    const seen = new Set();
    for (const g of gold) {
      if (!keys.has(g)) err(`${where}: unknown tool key ${g}`);
      if (seen.has(g)) err(`${where}: duplicate key ${g}`);
      seen.add(g);
    }
    rows.push({ id, kind, lang, request, gold, where });
  });
  return rows;
}

const sets = [
  ['requests-b1.tsv', 'b1'],
  ['requests-b2.tsv', 'b2'],
].map(([file, prefix]) => ({ file, prefix, rows: load(file, prefix) }));

const norm = (s) => s.toLowerCase().normalize('NFKC').replace(/\s+/g, ' ').trim();
const tokens = (s) => new Set(norm(s).split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 2));
const jaccard = (a, b) => {
  let inter = 0;
  for (const t of a) if (b.has(t)) inter++;
  return inter / (a.size + b.size - inter || 1);
};

const perServer = {};
for (const { file, prefix, rows } of sets) {
  const kinds = {}; const langs = {};
  for (const r of rows) {
    kinds[r.kind] = (kinds[r.kind] || 0) + 1;
    if (r.kind === 'ml') langs[r.lang] = (langs[r.lang] || 0) + 1;
  }
  for (const [k, v] of Object.entries(EXPECT_KIND)) if ((kinds[k] || 0) !== v) err(`${file}: ${kinds[k] || 0} ${k}, want ${v}`);
  for (const [l, v] of Object.entries(EXPECT_ML_LANG)) if ((langs[l] || 0) !== v) err(`${file}: ${langs[l] || 0} ml/${l}, want ${v}`);
  // requests unique within the file
  const byText = new Map();
  for (const r of rows) {
    const k = norm(r.request);
    if (byText.has(k)) err(`${file}: duplicate request ${byText.get(k)} / ${r.id}`);
    byText.set(k, r.id);
  }
  // per-server coverage: a request counts for a server if any gold key is of that server
  const count = Object.fromEntries(servers.map((s) => [s, 0]));
  const toolsUsed = Object.fromEntries(servers.map((s) => [s, new Set()]));
  for (const r of rows) {
    const hit = new Set();
    for (const g of r.gold) {
      const s = g.split('__')[0];
      if (s in count) { hit.add(s); toolsUsed[s].add(g); }
    }
    for (const s of hit) count[s]++;
  }
  for (const s of servers) if (count[s] < MIN_PER_SERVER) err(`${file}: server ${s} is gold of ${count[s]} request(s), want >= ${MIN_PER_SERVER}`);
  perServer[prefix] = { count, toolsUsed };
  console.log(`${file}: ${rows.length} requests; kinds ${JSON.stringify(kinds)}; ml langs ${JSON.stringify(langs)}; ` +
    `mean gold size ${(rows.reduce((a, r) => a + r.gold.length, 0) / rows.length).toFixed(2)}`);
}

// ---- the two files must not share requests or near-paraphrases
const [A, B] = sets;
const near = [];
for (const a of A.rows) {
  const ta = tokens(a.request);
  for (const b of B.rows) {
    if (norm(a.request) === norm(b.request)) { err(`same request in both files: ${a.id} / ${b.id}`); continue; }
    const j = jaccard(ta, tokens(b.request));
    if (j >= NEAR) near.push([j, a, b]);
  }
}
near.sort((x, y) => y[0] - x[0]);
for (const [j, a, b] of near) err(`near-paraphrase across files (jaccard ${j.toFixed(2)}): ${a.id} "${a.request}" / ${b.id} "${b.request}"`);

if (showServers) {
  console.log('\nserver\ttools\tb1_requests\tb1_distinct_tools\tb2_requests\tb2_distinct_tools');
  for (const s of servers) {
    console.log(`${s}\t${toolsPerServer.get(s)}\t${perServer.b1.count[s]}\t${perServer.b1.toolsUsed[s].size}\t${perServer.b2.count[s]}\t${perServer.b2.toolsUsed[s].size}`);
  }
}
console.log(errors ? `\n${errors} error(s)` : '\nOK: all gold keys exist, composition and coverage as required');
process.exit(errors ? 1 : 0);
