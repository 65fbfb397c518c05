#!/usr/bin/env node
// The multi-step task benchmark of code mode (issue 30): each task replayed through the built
// gateway as plain tool calls (catalog.mode full) and as run_code scripts (catalog.mode code), the
// answers asserted equal to each other and to the files, then the costs of code mode itself.
// Usage: npm run build && node bench/codemode/tasks.mjs [--quick] [--reps N] [--cli PATH] [--only NAME]
//        [--first-runs N] (also: N fresh gateways, one `return 1` each: does a first run fail?)

import { deepStrictEqual } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { installCleanupHooks } from '../lib/procs.mjs';
import { makeWorkspace } from './tasks-fixture.mjs';
import { FS_TASKS } from './tasks-fs.mjs';
import { KG_TASKS } from './tasks-kg.mjs';
import { coldStart, firstRuns, memoryPerRun, nestedOverhead } from './tasks-micro.mjs';
import { CodeTrace, PlainTrace, ROOT, estimateTokens, openGateway, scriptOf, textOf, tokens, writeConfig } from './tasks-replay.mjs';
import { renderReport } from './tasks-report.mjs';

const argv = process.argv.slice(2);
const opt = (name, dflt) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : dflt);
const QUICK = argv.includes('--quick');
const REPS = Number(opt('--reps', QUICK ? 1 : 3));
const CLI = opt('--cli', join(ROOT, 'dist/main.js'));
const ONLY = opt('--only', undefined);
const FIRST_RUNS = Number(opt('--first-runs', 0));
const TASKS = [...FS_TASKS, ...KG_TASKS].filter((t) => !ONLY || ONLY.split(',').includes(t.name));
const log = (...a) => console.error(...a);

if (!existsSync(CLI)) {
  log(`no gateway at ${CLI}: npm run build first (or --cli PATH)`);
  process.exit(2);
}
installCleanupHooks();
const started = performance.now();
const tmp = mkdtempSync(join(os.tmpdir(), 'sb-codemode-bench-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const ws = join(tmp, 'ws');
const memoryFile = join(tmp, 'memory.jsonl');
// code: run_code's description carries every declaration (budget never reached); search: it
// carries none (budget 0), so the model asks search_tools first (each hit with its signature).
const MODES = ['plain', 'code', 'search'];
const configs = {
  plain: writeConfig(tmp, 'plain', 'full', { ws, memoryFile }),
  code: writeConfig(tmp, 'code', 'code', { ws, memoryFile, extra: { catalog: { codeBudget: 100_000_000 } } }),
  search: writeConfig(tmp, 'search', 'code', { ws, memoryFile, extra: { catalog: { codeBudget: 0 } } }),
};

/** results[task][mode] = [summary per rep]; lists[mode] = { names, tokens }. */
const results = Object.fromEntries(TASKS.map((t) => [t.name, { plain: [], code: [], search: [] }]));
const lists = {};
const notes = new Set();

async function runMode(mode, _rep) {
  makeWorkspace(ws);
  rmSync(memoryFile, { force: true });
  const gw = await openGateway(CLI, configs[mode], `gateway (${mode})`);
  lists[mode] = { names: gw.tools.map((t) => t.name), tokens: gw.listTokens };
  if (mode !== 'plain') {
    const runCode = gw.tools.find((t) => t.name === 'run_code');
    if (!runCode) throw new Error(`${CLI} offers no run_code in catalog.mode code (tools: ${lists[mode].names.join(', ')})`);
    const declared = /```ts\n([\s\S]*?)```/.exec(runCode.description ?? '')?.[1];
    if ((mode === 'code') !== (declared !== undefined))
      notes.add(`${mode}: run_code's description ${declared ? 'has' : 'lacks'} the declarations with codeBudget ${mode === 'code' ? '100000000' : '0'}`);
    if (declared) lists.declarations = { tokens: tokens(declared), estimate: estimateTokens(declared) };
  }
  try {
    // Warm-up, not measured: the servers' first call, and in code mode the engine's one-time load
    // (the first run of a gateway's life: "cold start" below measures it).
    await gw.client.request('tools/call', { name: 'everything__echo', arguments: { message: 'warm-up' } }).catch(() => {});
    if (mode !== 'plain') {
      const warm = await gw.client.request('tools/call', { name: 'run_code', arguments: { code: 'return 1' } });
      if (warm.isError) notes.add(`the first run_code of a fresh gateway (\`return 1\`, warm-up) failed: ${textOf(warm).slice(0, 160)}`);
    }
    // The search index is built on the first search of a gateway's life (~0.2 s): not a task's cost.
    if (mode === 'search') await gw.client.request('tools/call', { name: 'search_tools', arguments: { query: 'echo' } });
    for (const task of TASKS) {
      const want = task.expected(ws);
      let answer;
      let trace;
      if (mode === 'plain') {
        trace = new PlainTrace(gw);
        answer = await task.plain(trace.turn, ws);
      } else {
        trace = new CodeTrace(gw);
        if (mode === 'search') await trace.search(task.find);
        if (task.probe) await trace.run(scriptOf(task.probe, ws), 'probe');
        answer = await trace.run(scriptOf(task.script, ws), 'script');
        for (const n of trace.notes) notes.add(`${task.name}: ${n}`);
      }
      try {
        deepStrictEqual(answer, want);
      } catch (e) {
        throw new Error(`${task.name} (${mode}): the answer is not the files' answer\n${e.message}`);
      }
      const bad = task.verify?.(ws, answer);
      if (bad) throw new Error(`${task.name} (${mode}): ${bad}`);
      results[task.name][mode].push({ ...trace.summary(), answer });
      log(`  ${mode} ${task.name}: ${trace.summary().turns} turns, ${trace.summary().context} tokens, ${trace.summary().ms.toFixed(1)} ms`);
    }
  } finally {
    await gw.close();
  }
}

log(`code mode tasks: ${TASKS.length} tasks, ${REPS} rep(s), gateway ${CLI}`);
for (let rep = 0; rep < REPS; rep++) {
  for (const mode of rep % 2 ? [...MODES].reverse() : MODES) await runMode(mode, rep);
}
// Every mode gave the files' answer (asserted above); and so each other's, every rep.
for (const t of TASKS) for (const m of MODES) for (const r of results[t.name][m]) deepStrictEqual(r.answer, results[t.name].plain[0].answer);

log('micro: cold start, nested call overhead, memory per run');
makeWorkspace(ws);
rmSync(memoryFile, { force: true });
const traceGc = { traceGc: true };
const [full, code] = await Promise.all([openGateway(CLI, configs.plain, 'gateway (full)', traceGc), openGateway(CLI, configs.code, 'gateway (code)', traceGc)]);
const micro = {};
try {
  micro.cold = await coldStart(code, full, QUICK ? 20 : 50);
  if (micro.cold.firstError) notes.add(`the first run_code of a fresh gateway (\`return 1\`, cold start) failed: ${micro.cold.firstError}`);
  micro.nested = await nestedOverhead(code, full, { n: 100, reps: QUICK ? 5 : 15 });
  micro.memory = [];
  for (const count of QUICK ? [10] : [10, 16]) micro.memory.push(await memoryPerRun(code, full, { count, seconds: 2 }));
} finally {
  await Promise.all([full.close(), code.close()]);
}
if (FIRST_RUNS > 0) {
  micro.firstRuns = await firstRuns(() => openGateway(CLI, configs.code, 'gateway (first run)'), FIRST_RUNS);
  for (const f of new Set(micro.firstRuns.failures))
    notes.add(`the first run_code of a fresh gateway (\`return 1\`) failed in ${micro.firstRuns.failures.filter((x) => x === f).length} of ${FIRST_RUNS} gateways: ${f}`);
}

// `switchboard run FILE.js -c CONFIG`: the shell's way in, on one task's script (from a cold
// process: config, servers, engine). Its stdout must be the answer's JSON.
{
  const task = TASKS.find((t) => !t.verify && !t.probe) ?? TASKS[0];
  makeWorkspace(ws);
  rmSync(memoryFile, { force: true });
  const file = join(tmp, `${task.name}.js`);
  writeFileSync(file, scriptOf(task.script, ws));
  const want = task.expected(ws);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [CLI, 'run', file, '-c', configs.plain], { encoding: 'utf8', env: { ...process.env, SWITCHBOARD_LOG_LEVEL: 'warn' }, timeout: 60_000 });
  micro.shell = { task: task.name, ms: performance.now() - t0, status: r.status };
  try {
    deepStrictEqual(JSON.parse(r.stdout), want);
  } catch (e) {
    notes.add(
      `\`switchboard run ${task.name}.js -c CONFIG\` (catalog.mode full in CONFIG): exit ${r.status}, stdout ${JSON.stringify(r.stdout.slice(0, 200))}, stderr ${JSON.stringify(r.stderr.slice(-300))}: not the answer (${e.message.split('\n')[0]})`,
    );
  }
}

const report = renderReport({ tasks: TASKS, results, lists, micro, notes: [...notes], reps: REPS, cli: CLI, seconds: (performance.now() - started) / 1000, ws });
const out = QUICK || ONLY || REPS < 3 || FIRST_RUNS ? join(ROOT, 'bench/.out/codemode-tasks.md') : join(ROOT, 'bench/codemode/RESULTS.md');
mkdirSync(join(ROOT, 'bench/.out'), { recursive: true });
writeFileSync(out, report);
console.log(report);
log(`wrote ${out} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
process.exit(0);
