// Writes RESULTS.md from the medians: a header with the machine and versions, the targets with
// ✅/❌, then one table per workload with ratios against direct and against each peer.

import { CONCURRENCY, PAYLOADS } from './scenarios.mjs';
import { PATHS } from './paths.mjs';

export function fmt(v, digits = 3) {
  if (!Number.isFinite(v)) return '—';
  const a = Math.abs(v);
  if (a >= 100_000) return `${Math.round(v / 1000)}k`;
  if (a >= 10_000) return `${(v / 1000).toFixed(1)}k`;
  if (a >= 1000) return String(Math.round(v));
  return Number(v.toPrecision(digits)).toString();
}
const ratio = (v) => (Number.isFinite(v) ? `${v >= 10 ? v.toFixed(0) : v >= 0.1 ? v.toFixed(2) : v.toPrecision(2)}×` : '—');
const pct = (v) => (Number.isFinite(v) ? `±${Math.round((v * 100) / 2)}%` : '—');
const mark = (ok) => (ok === undefined ? '—' : ok ? '✅' : '❌');

/** The targets of the Benchmarks issue, evaluated on the medians. */
export function evaluateTargets(R) {
  const c32 = '100B c=32';
  const c1 = '100B c=1';
  const thr = (p, row) => R.median('call', p, `${row}|calls/s`);
  const p50 = (p, row) => R.median('call', p, `${row}|p50 µs`);
  const out = [];

  const stdioRatio = thr('sb-stdio', c32) / thr('direct', c32);
  out.push({
    name: 'stdio→stdio throughput, c=32, 100 B',
    measured: `${ratio(stdioRatio)} direct (${fmt(thr('sb-stdio', c32))} vs ${fmt(thr('direct', c32))} calls/s)`,
    goal: '≥ 0.5× direct',
    ok: Number.isFinite(stdioRatio) ? stdioRatio >= 0.5 : undefined,
    value: stdioRatio,
  });
  const added = p50('sb-stdio', c1) - p50('direct', c1);
  out.push({
    name: 'added p50 latency, stdio→stdio, c=1, 100 B',
    measured: `+${fmt(added)} µs (${fmt(p50('sb-stdio', c1))} vs ${fmt(p50('direct', c1))} µs)`,
    goal: '≤ 100 µs',
    ok: Number.isFinite(added) ? added <= 100 : undefined,
    value: added,
  });
  const httpRatio = thr('sb-http', c32) / thr('mcp-proxy', c32);
  out.push({
    name: 'HTTP→stdio throughput, c=32, 100 B',
    measured: `${ratio(httpRatio)} mcp-proxy (${fmt(thr('sb-http', c32))} vs ${fmt(thr('mcp-proxy', c32))} calls/s)`,
    goal: '≥ 3× mcp-proxy',
    ok: Number.isFinite(httpRatio) ? httpRatio >= 3 : undefined,
    value: httpRatio,
  });
  const page = R.median('list', 'sb-http 10×1000', 'warm page p50 ms');
  out.push({
    name: 'warm tools/list page (HTTP), 10,010 tools in the catalog',
    measured: `${fmt(page)} ms p50`,
    goal: '≤ 2 ms',
    ok: Number.isFinite(page) ? page <= 2 : undefined,
    value: page,
  });
  const sb50 = R.median('startup', 'Switchboard, 50 servers', 'spawn → listening ms');
  const slowest = R.median('startup', 'one echo server alone', 'slowest ms');
  const par = R.median('startup', '50 servers, direct (all in parallel)', 'all ready ms');
  out.push({
    name: '50 stdio servers ready',
    measured: `${ratio(sb50 / slowest)} the slowest alone (${fmt(sb50)} vs ${fmt(slowest)} ms); ${ratio(sb50 / par)} 50 started directly in parallel (${fmt(par)} ms)`,
    goal: '≤ 1.2×',
    ok: Number.isFinite(sb50 / slowest) ? sb50 / slowest <= 1.2 : undefined,
    value: sb50 / slowest,
  });
  const mem50 = R.median('memory', 'Switchboard, 50 servers', 'gateway RSS MB');
  const budget = 80 + 0.5 * 50;
  out.push({
    name: 'gateway RSS with 50 servers',
    measured: `${fmt(mem50)} MB`,
    goal: `≤ 80 MB + 0.5 MB × 50 = ${budget} MB`,
    ok: Number.isFinite(mem50) ? mem50 <= budget : undefined,
    value: mem50,
  });
  return out;
}

export function renderReport(R, meta) {
  const L = [];
  const paths = meta.paths;
  const peers = paths.filter((p) => PATHS[p].peer);
  L.push(`# Benchmark results${meta.quick ? ' (quick smoke run — not for quoting)' : ''}`);
  L.push('');
  L.push(`Written by \`npm run bench${meta.quick ? ' -- --quick' : ''}\` (bench/run.mjs) on ${meta.date}. Do not edit by hand.`);
  L.push('');
  L.push(`- Machine: ${meta.cpu}, ${meta.cores} cores, ${meta.memGiB} GiB RAM, ${meta.os}; load average ${meta.loadBefore} before, ${meta.loadAfter} after (other jobs share this machine).`);
  L.push(`- Node ${meta.node}. Switchboard ${meta.gateway}. Peers: ${meta.peerVersions}.`);
  L.push(`- ${meta.runs} run${meta.runs > 1 ? 's' : ''} of each scenario, each in a fresh process tree; every figure is the median over runs, "spread" is ±half the range of runs around it. tools/call: ${meta.warmupMs} ms warm-up, then ${meta.durationMs} ms measured per point, closed loop (N requests kept in flight). Total wall time ${meta.wallSeconds} s.`);
  L.push(`- Target server: \`bench/echo-server.mjs\` (raw newline JSON-RPC, no SDK). Clients: raw stdio JSON-RPC and raw Streamable HTTP on undici (keep-alive, one session), in the harness process — they share the 2 cores with everything else.`);
  L.push('');

  if (R.failures.length > 0) {
    L.push('## Scenarios that failed to run');
    L.push('');
    for (const f of R.failures) L.push(`- **${f.scenario}**: \`${f.error.split('\n')[0]}\``);
    L.push('');
  }

  L.push('## Targets');
  L.push('');
  L.push('| target | measured (median) | goal | |');
  L.push('|---|---|---|---|');
  for (const t of evaluateTargets(R)) L.push(`| ${t.name} | ${t.measured} | ${t.goal} | ${mark(t.ok)} |`);
  L.push('');

  // tools/call
  if (R.data.call) {
    L.push('## tools/call round trips');
    L.push('');
    L.push('Ratios: throughput of the row ÷ throughput of the column\'s path (higher is better); "+p50" is the row\'s p50 latency minus direct\'s. "CPU µs/call" is the CPU time (user + system) of the process in the middle — the gateway; for direct, the echo server — divided by the calls it served: it is much less disturbed by other jobs on the machine than the wall-clock figures.');
    L.push('');
    for (const payload of PAYLOADS) {
      for (const c of CONCURRENCY) {
        const row = `${payload.key} c=${c}`;
        L.push(`### ${payload.label} payload, concurrency ${c}`);
        L.push('');
        const head = ['path', 'calls/s', 'spread', 'p50 µs', 'p99 µs', 'CPU µs/call', 'vs direct', ...peers.map((p) => `vs ${p}`)];
        L.push(`| ${head.join(' | ')} |`);
        L.push(`|${head.map(() => '---').join('|')}|`);
        const d = R.median('call', 'direct', `${row}|calls/s`);
        const dp50 = R.median('call', 'direct', `${row}|p50 µs`);
        for (const p of paths) {
          const t = R.median('call', p, `${row}|calls/s`);
          const p50 = R.median('call', p, `${row}|p50 µs`);
          const cells = [
            PATHS[p].label,
            fmt(t),
            pct(R.spread('call', p, `${row}|calls/s`)),
            fmt(p50),
            fmt(R.median('call', p, `${row}|p99 µs`)),
            fmt(R.median('call', p, `${row}|cpu µs/call`)),
            p === 'direct' ? '1×' : `${ratio(t / d)} (+${fmt(p50 - dp50)} µs p50)`,
            ...peers.map((q) => (q === p ? '—' : ratio(t / R.median('call', q, `${row}|calls/s`)))),
          ];
          L.push(`| ${cells.join(' | ')} |`);
        }
        L.push('');
      }
    }
  }

  const generic = (scenario, title, intro) => {
    if (!R.data[scenario]) return;
    L.push(`## ${title}`);
    L.push('');
    if (intro) L.push(intro, '');
    L.push('| setup | figure | median | spread |');
    L.push('|---|---|---|---|');
    for (const [row, figures] of Object.entries(R.data[scenario])) {
      for (const figure of Object.keys(figures)) {
        L.push(`| ${label(row)} | ${figure} | ${fmt(R.median(scenario, row, figure))} | ${pct(R.spread(scenario, row, figure))} |`);
      }
    }
    L.push('');
  };

  generic(
    'list',
    'tools/list over 10 servers × 1,000 tools',
    'Switchboard in front of 10 echo servers started with `--tools 1000` (10,010 tools, `catalog.pageSize: 100`). "first" is the first tools/list after the gateway is ready; "warm page" repeats one page from the middle of the catalog (its cursor) sequentially. The peers neither merge servers nor page: their row is one 1,000-tool server\'s whole list (1,001 tools, ~0.1 MB), like direct\'s, for scale only.',
  );
  if (R.data.list) {
    const page = R.median('list', 'sb-http 10×1000', 'warm page p50 ms');
    const direct = R.median('list', 'direct 1×1000', 'warm full list p50 ms');
    const parts = [`warm 100-tool page over HTTP from the 10,010-tool catalog ÷ one server's whole 1,001-tool list direct: ${ratio(page / direct)}`];
    for (const p of peers) parts.push(`÷ the same whole list through ${p}: ${ratio(page / R.median('list', `${p} 1×1000`, 'warm full list p50 ms'))}`);
    L.push(`Ratios (lower is better): ${parts.join('; ')}.`, '');
  }

  generic(
    'startup',
    'Start-up',
    '"one echo server alone": spawn → initialize and tools/list answered, our raw client, servers started one after another. "direct (all in parallel)": the harness starts 50 of them at once the same way. Switchboard: spawn → its "listening on" line (it connects every server, handshake and lists, before listening). Last rows: spawn → first initialize + tools/list answered over HTTP with one server, Switchboard vs peers.',
  );
  if (R.data.startup) {
    const sb50 = R.median('startup', 'Switchboard, 50 servers', 'spawn → listening ms');
    const slowest = R.median('startup', 'one echo server alone', 'slowest ms');
    const par = R.median('startup', '50 servers, direct (all in parallel)', 'all ready ms');
    const sb1 = R.median('startup', 'sb-http 1 server', 'spawn → initialize + tools/list ms');
    const parts = [`50 servers through Switchboard ÷ the slowest one alone: ${ratio(sb50 / slowest)}`, `÷ 50 started directly in parallel: ${ratio(sb50 / par)}`];
    for (const p of peers) parts.push(`one server, first answer, Switchboard ÷ ${p}: ${ratio(sb1 / R.median('startup', `${p} 1 server`, 'spawn → initialize + tools/list ms'))}`);
    L.push(`Ratios (lower is better): ${parts.join('; ')}.`, '');
  }

  generic(
    'memory',
    'Resident memory',
    'VmRSS from /proc after a short settle (no forced GC). "gateway" is the gateway process alone; "tree" adds every process under it (servers, shells). Per-session figures: RSS growth after N more initialized Streamable HTTP sessions (each also made one call), divided by N; supergateway `--stateful` spawns a server per session, so it gets fewer sessions.',
  );
  if (R.data.memory) {
    const m1 = R.median('memory', 'Switchboard, 1 server', 'gateway RSS MB');
    const m50 = R.median('memory', 'Switchboard, 50 servers', 'gateway RSS MB');
    const sessRow = Object.keys(R.data.memory).find((r) => r.startsWith('sb-http ('));
    const sbSess = sessRow ? R.median('memory', sessRow, 'tree KB/session') : NaN;
    const parts = [`gateway RSS per additional server ((50 − 1 servers) ÷ 49): ${fmt((m50 - m1) / 49)} MB (goal ≤ 0.5 MB)`];
    for (const p of peers) {
      const pr = Object.keys(R.data.memory).find((r) => r.startsWith(`${p} (`));
      if (pr) parts.push(`tree memory per session, Switchboard ÷ ${p}: ${ratio(sbSess / R.median('memory', pr, 'tree KB/session'))}`);
    }
    L.push(`Ratios: ${parts.join('; ')}.`, '');
  }

  L.push('## How to reproduce');
  L.push('');
  L.push('```sh');
  L.push('npm ci && npm run build');
  L.push('npm run bench              # full run (several minutes), writes bench/RESULTS.md');
  L.push('npm run bench -- --quick   # smoke run (< 2 min), writes bench/.out/RESULTS-quick.md');
  L.push('```');
  L.push('');
  return L.join('\n');
}

function label(row) {
  for (const [key, p] of Object.entries(PATHS)) {
    if (row.startsWith(`${key} `)) return `${p.label}${row.slice(key.length)}`;
  }
  return row;
}
