// RESULTS.md of the task benchmark: per task and in total, plain tool calls against code mode
// (tokens into the model's context, model turns, wall time of the tool work), the ratios, the
// traces replayed, then the micro figures. Wall times are medians over reps; a wall ratio is
// formed inside each rep, then the median is taken (bench/NOTES.md: never pair two reps' values).

import os from 'node:os';
import { dirname } from 'node:path';
import { cpuModel, gitDescribe, loadavgText } from '../lib/prereq.mjs';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const int = (x) => Math.round(x).toLocaleString('en-US');
const ratio = (a, b) => (b ? (a / b).toFixed(2) : '—');
const pctChange = (a, b) => `${a <= b ? '−' : '+'}${Math.abs(Math.round((1 - a / b) * 100))}%`;
const ms = (x) => x.toFixed(1);

/** Plain against one code mode (`code` or `search`), per task and in total. */
function aggregate(tasks, results, mode) {
  const rows = tasks.map((t) => {
    const plain = results[t.name].plain;
    const code = results[t.name][mode];
    const p = plain[0];
    const c = code[0];
    const varied = ['context', 'turns'].some((k) => plain.some((r) => r[k] !== p[k]) || code.some((r) => r[k] !== c[k]));
    return { t, p, c, varied, pMs: median(plain.map((r) => r.ms)), cMs: median(code.map((r) => r.ms)), msRatio: median(plain.map((r, i) => code[i].ms / r.ms)) };
  });
  const sum = (side, k) => rows.reduce((a, r) => a + r[side][k], 0);
  const reps = results[tasks[0].name].plain.length;
  const total = (m, i) => tasks.reduce((a, t) => a + results[t.name][m][i].ms, 0);
  const repRatio = median(Array.from({ length: reps }, (_, i) => total(mode, i) / total('plain', i)));
  return { rows, sum, repRatio };
}

function taskTable(L, { rows, sum, repRatio }) {
  L.push('| task | turns plain → code | tool calls plain → code | tokens plain → code | tokens ÷ | turns ÷ | wall ms plain → code | wall ÷ |');
  L.push('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    L.push(
      `| ${r.t.name}${r.varied ? ' (*)' : ''} | ${r.p.turns} → ${r.c.turns} | ${r.p.calls} → ${r.c.calls} | ${int(r.p.context)} → ${int(r.c.context)} | ${ratio(r.c.context, r.p.context)} | ${ratio(r.c.turns, r.p.turns)} | ${ms(r.pMs)} → ${ms(r.cMs)} | ${r.msRatio.toFixed(2)} |`,
    );
  }
  const tp = sum('p', 'context');
  const tc = sum('c', 'context');
  const pMsTotal = rows.reduce((a, r) => a + r.pMs, 0);
  const cMsTotal = rows.reduce((a, r) => a + r.cMs, 0);
  L.push(
    `| **total** | ${sum('p', 'turns')} → ${sum('c', 'turns')} | ${sum('p', 'calls')} → ${sum('c', 'calls')} | ${int(tp)} → ${int(tc)} | **${ratio(tc, tp)}** (${pctChange(tc, tp)}) | **${ratio(sum('c', 'turns'), sum('p', 'turns'))}** | ${ms(pMsTotal)} → ${ms(cMsTotal)} | **${repRatio.toFixed(2)}** |`,
  );
  L.push('');
}

function tokenTable(L, { rows, sum }) {
  L.push('| task | plain: list + written + read | code: list + written + read | without the list ÷ | input over all turns plain → code | ÷ |');
  L.push('| --- | --- | --- | --- | --- | --- |');
  for (const { t, p, c } of rows) {
    L.push(
      `| ${t.name} | ${int(p.list)} + ${int(p.written)} + ${int(p.read)} | ${int(c.list)} + ${int(c.written)} + ${int(c.read)} | ${ratio(c.written + c.read, p.written + p.read)} | ${int(p.prefill)} → ${int(c.prefill)} | ${ratio(c.prefill, p.prefill)} |`,
    );
  }
  const work = (s) => sum(s, 'written') + sum(s, 'read');
  L.push(
    `| **total** | ${int(sum('p', 'list'))} + ${int(sum('p', 'written'))} + ${int(sum('p', 'read'))} | ${int(sum('c', 'list'))} + ${int(sum('c', 'written'))} + ${int(sum('c', 'read'))} | **${ratio(work('c'), work('p'))}** (${pctChange(work('c'), work('p'))}) | ${int(sum('p', 'prefill'))} → ${int(sum('c', 'prefill'))} | **${ratio(sum('c', 'prefill'), sum('p', 'prefill'))}** |`,
  );
  L.push('');
}

export function renderReport({ tasks, results, lists, micro, notes, reps, cli, seconds, ws }) {
  const code = aggregate(tasks, results, 'code');
  const search = aggregate(tasks, results, 'search');
  const { rows } = code;
  const L = [];
  L.push('# Code mode: multi-step tasks, plain tool calls against run_code');
  L.push('');
  L.push(
    `Written by \`node bench/codemode/tasks.mjs\` (method: [README.md](README.md)). ${new Date().toISOString().slice(0, 10)}, ${cpuModel()}, ${os.availableParallelism?.() ?? os.cpus().length} cores, load average ${loadavgText()} at the end, Node ${process.version}, gateway ${cli.replace(/.*\/(wt-[^/]+|main)\//, '$1/')} (${gitDescribe(dirname(dirname(cli)))}); ${reps} rep(s), ${seconds.toFixed(0)} s in all.`,
  );
  L.push('');
  L.push(
    `Tool list a model is given: **plain** (catalog.mode full) ${lists.plain.names.length} tools, ${int(lists.plain.tokens)} tokens; **code** (catalog.mode code, declarations in run_code's description) ${lists.code.names.join(' + ')}, ${int(lists.code.tokens)} tokens; **code, search first** (the same with codeBudget 0: no declarations) ${int(lists.search.tokens)} tokens. The declarations alone: ${int(lists.declarations?.tokens ?? 0)} o200k tokens (the gateway's estimate: ${int(lists.declarations?.estimate ?? 0)}; default codeBudget 4,000). Tokens are o200k. Every answer was asserted equal in all three modes and to the answer computed from the files themselves.`,
  );
  L.push('');
  L.push('## Per task: plain tool calls against code mode');
  L.push('');
  taskTable(L, code);
  L.push(
    "Tokens: the tool list at the start + what the model writes (each call's name and arguments; each script) + what it reads (each result's text; each run's result). Turns: model turns, the final answer included; a turn of plain mode may hold several parallel calls. Tool calls: tools/call requests in plain mode; in code mode, nested calls (and the search_tools calls of the search-first variant). Wall: the tool work through the gateway, summed over turns (no model time), median of the reps; its ratio is formed in each rep, then the median is taken." +
      (rows.some((r) => r.varied) ? ' (*) tokens or turns differed between reps; rep 1 shown.' : ''),
  );
  L.push('');
  L.push('## Where the tokens go');
  L.push('');
  tokenTable(L, code);
  L.push(
    '"Without the list": only what the task itself puts into the context. "Input over all turns": what a model API bills as input, each turn reading the whole context so far (no prompt caching): the sum, over turns, of the list + everything written and read before that turn.',
  );
  L.push('');
  L.push('## Code mode when the declarations do not fit: search first');
  L.push('');
  L.push(
    "run_code's description without declarations (codeBudget 0, as when a catalog is over the budget): the model's first turn is one search_tools query per tool it needs (in parallel, `limit: 3`, aimed at the server), each hit carrying the tool's TypeScript signature; then the same runs as above.",
  );
  L.push('');
  taskTable(L, search);
  tokenTable(L, search);
  L.push('## The traces replayed');
  L.push('');
  L.push('| task | goal | plain, one line per model turn | code mode: turns (nested calls) |');
  L.push('| --- | --- | --- | --- |');
  for (const { t, p, c } of rows) {
    L.push(`| ${t.name} | ${t.goal} | ${p.steps.map((s, i) => `${i + 1}. ${s}`).join('<br>')} | ${c.steps.join(' + ')} (${c.calls}) |`);
  }
  L.push('');
  L.push(
    `The workspace (${ws.replace(/.*\//, '…/')}): docs/ (8 Markdown files, 0.7–31 KB), src/ (16 sources, 1–5 KB), logs/ (12 logs, 1.4–64 KB), data/ (5 CSVs, 24–140 rows), config/ (8 JSON files); the memory server's graph starts empty. Both modes start from the same bytes.`,
  );
  L.push('');
  L.push('## The cost of code mode itself');
  L.push('');
  const { cold, nested, memory } = micro;
  L.push('| measure | figure |');
  L.push('| --- | --- |');
  L.push(`| cold start: first run_code (\`return 1\`) of a fresh gateway, round trip | ${ms(cold.first)} ms${cold.firstError ? ` (it failed: ${cold.firstError.slice(0, 60)}…)` : ''} |`);
  L.push(`| cold start: run_code \`return 1\`, round trip p50 / p90 (n=${cold.n}) | ${cold.p50.toFixed(2)} / ${cold.p90.toFixed(2)} ms |`);
  L.push(`| for scale: a direct tools/call of everything.echo, round trip p50 | ${cold.echoP50.toFixed(2)} ms |`);
  const gcLine = (g, n) =>
    `${(g.full / n).toFixed(2)} full collections, ${(g.pauseMs / n).toFixed(2)} ms of pause + ${(g.stepsMs / n).toFixed(2)} ms of incremental marking (longest pause ${g.maxMs.toFixed(1)} ms)`;
  L.push(`| garbage collection in the gateway per run (\`--trace-gc\`, over the ${cold.n} runs) | ${gcLine(cold.gcRun, cold.n)} |`);
  L.push(`| garbage collection in the gateway per direct call (the ${cold.n} echoes) | ${gcLine(cold.gcEcho, cold.n)} |`);
  L.push(`| a nested call (script awaiting everything.echo ${nested.n}×, less a \`return 1\` run, ÷ ${nested.n}; p50 of ${nested.reps}) | ${int(nested.nestedUs)} µs |`);
  L.push(`| a direct tools/call from the client (${nested.n} one after the other, ÷ ${nested.n}; p50 of ${nested.reps}) | ${int(nested.directUs)} µs |`);
  L.push(`| nested − direct, per call | ${nested.overheadUs >= 0 ? '+' : '−'}${int(Math.abs(nested.overheadUs))} µs (× ${nested.ratio.toFixed(2)}) |`);
  L.push(`| gateway CPU (all threads) per nested call / per direct call | ${int(nested.nestedCpuUs)} / ${int(nested.directCpuUs)} µs |`);
  L.push(`| gateway CPU (all threads) per run_code \`return 1\` (the same ${nested.reps} runs) | ${nested.runCpuMs.toFixed(2)} ms |`);
  const fr = micro.firstRuns;
  if (fr) L.push(`| the first run_code (\`return 1\`) of ${fr.count} fresh gateways: failed / round trip p50 / max | ${fr.failures.length} / ${ms(fr.p50)} / ${ms(fr.max)} ms |`);
  if (micro.shell)
    L.push(`| \`switchboard run\` of the ${micro.shell.task} script from the shell, the whole command (process, servers, engine, run) | ${int(micro.shell.ms)} ms (exit ${micro.shell.status}) |`);
  for (const m of memory) {
    L.push(`| gateway RSS per run in flight, ${m.count} runs each awaiting a 2 s tool (at rest: ${m.restCodeMiB.toFixed(0)} MiB) | ${m.perRunMiB.toFixed(2)} MiB |`);
    L.push(`| for scale: per direct call in flight, ${m.count} of the same tool (at rest: ${m.restFullMiB.toFixed(0)} MiB) | ${m.perDirectMiB.toFixed(2)} MiB |`);
  }
  L.push('');
  if (notes.length) {
    L.push('## Deviations and failures seen');
    L.push('');
    for (const n of notes) L.push(`- ${n}`);
    L.push('');
  }
  return L.join('\n');
}
