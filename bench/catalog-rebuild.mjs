#!/usr/bin/env node
// What a catalog rebuild costs when one small server changes next to a large one (issue 28 item
// 2): CPU time of buildCatalog, the views of the unrestricted client and of a profile that refits
// names to 64 characters, their token figures (auto mode decides on them), and bringing the search
// index up to date, as the gateway does after a list_changed. Run it on two builds and compare:
//   node bench/catalog-rebuild.mjs [--dist /work/main/dist] [--tools 15000] [--rounds 40]
// Needs `npm run build` (dist/ file by file). Prints medians in ms and one JSON line.

import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { generateDistractors } from './search/distractors.mjs';

const { values } = parseArgs({ options: { dist: { type: 'string' }, tools: { type: 'string', default: '15000' }, rounds: { type: 'string', default: '40' } } });
const dist = path.resolve(values.dist ?? new URL('../dist', import.meta.url).pathname);
const load = (p) => import(pathToFileURL(path.join(dist, p)).href);
const [{ buildCatalog, DEFAULT_GUARD }, { viewFor }, { ToolSearchIndex }] = await Promise.all([load('catalog/build.js'), load('catalog/view.js'), load('search/index.js')]);
/** The gateway's way of bringing the index to a snapshot (app/, formerly router/), when this build has it as a module. */
const sync = await load('app/index-sync.js')
  .catch(() => load('router/index-sync.js'))
  .catch(() => undefined);

const rules = { allow: ['*'], deny: [] };
const config = (name) => ({ name, prefix: name, tools: rules, prompts: rules, resources: rules, listLimits: {} });
const bigTools = generateDistractors(Number(values.tools)).map(({ name, title, description, inputSchema }) => ({ name, title, description, inputSchema }));
const big = { config: config('big'), ready: true, lists: { tools: bigTools, prompts: [], resources: [], resourceTemplates: [] } };
const small = (round) => ({
  config: config('small'),
  ready: true,
  lists: {
    tools: Array.from({ length: 5 }, (_, i) => ({
      name: `tool_${i}`,
      description: `A small server's tool ${i}, version ${round}.`,
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
    })),
    prompts: [],
    resources: [],
    resourceTemplates: [],
  },
});
const smallConfig = small(0).config;
const naming = { separator: '__', mode: 'always' };
const exposure = {
  settingsFor: () => ({ mode: 'auto', tokenBudget: 10_000, alwaysVisible: [], searchTool: 'search_tools', callTool: 'call_tool', listServersTool: 'list_servers', directoryBudget: 1600 }),
};
const profile = { name: 'short', tools: rules, prompts: rules, resources: rules, readOnly: false, naming: { maxLength: 64 } };

// The index as main's router keeps it: every server synced after each snapshot.
const index = new ToolSearchIndex();
const indexer = sync ? new sync.IndexSync() : undefined;
function reindex(catalog) {
  if (indexer) return indexer.sync(catalog, index);
  const byServer = new Map();
  for (const e of catalog.lists.tools.entries) {
    let docs = byServer.get(e.server);
    if (!docs) byServer.set(e.server, (docs = []));
    const { title, description, inputSchema, annotations } = e.item;
    docs.push({ key: e.key, server: e.server, name: e.original, title, description, inputSchema, annotations });
  }
  for (const [server, docs] of byServer) index.syncServer(server, docs);
}

function rebuild(round) {
  const s = small(round);
  s.config = smallConfig;
  const catalog = buildCatalog([big, s], naming, DEFAULT_GUARD, exposure);
  const t1 = process.cpuUsage();
  for (const p of [undefined, profile]) viewFor(catalog, p).exposure().tokens();
  const views = process.cpuUsage(t1);
  const t2 = process.cpuUsage();
  reindex(catalog);
  return { catalog, views, search: process.cpuUsage(t2) };
}

const ms = (u) => (u.user + u.system) / 1000;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cold = process.cpuUsage();
rebuild(0);
const coldMs = ms(process.cpuUsage(cold));
const rows = { build: [], views: [], search: [], total: [] };
for (let round = 1; round <= Number(values.rounds); round++) {
  const t = process.cpuUsage();
  const { views, search } = rebuild(round);
  const total = ms(process.cpuUsage(t));
  rows.total.push(total);
  rows.views.push(ms(views));
  rows.search.push(ms(search));
  rows.build.push(total - ms(views) - ms(search));
}
const out = { dist, tools: bigTools.length, coldMs: Math.round(coldMs), build: median(rows.build), views: median(rows.views), search: median(rows.search), total: median(rows.total) };
console.log(
  `${dist}: ${out.tools} tools + 5; first build ${out.coldMs} ms; rebuild after the small server changed, median of ${values.rounds}: build ${out.build.toFixed(1)} ms, views+tokens ${out.views.toFixed(1)} ms, search index ${out.search.toFixed(1)} ms, total ${out.total.toFixed(1)} ms CPU`,
);
console.log(JSON.stringify(out));
