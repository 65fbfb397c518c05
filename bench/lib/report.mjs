// Writes RESULTS.md: the machine, versions, load and command; the targets with ✅/❌ judged on the
// median of per-run figures; then one table per workload. Every ratio printed here is formed
// inside one run (results.mjs) and shown as its median over runs with the range beside it.

import { PATHS } from './paths.mjs';
import { POINTS } from './settings.mjs';
import { evaluateTargets, floorRows, loadText, withRange } from './targets.mjs';
import { summary } from './results.mjs';

export function fmt(v, digits = 3) {
  if (!Number.isFinite(v)) return '—';
  const a = Math.abs(v);
  if (a >= 100_000) return `${Math.round(v / 1000)}k`;
  if (a >= 10_000) return `${(v / 1000).toFixed(1)}k`;
  if (a >= 1000) return String(Math.round(v));
  return Number(v.toPrecision(digits)).toString();
}
/** Three decimals: a cost of a few percent must show. */
const fine = (v) => (Number.isFinite(v) ? `${v.toFixed(3)}×` : '—');
export const times = (v) => (Number.isFinite(v) ? `${v >= 10 ? v.toFixed(0) : v >= 0.1 ? v.toFixed(2) : v.toPrecision(2)}×` : '—');
const plus = (v) => (Number.isFinite(v) ? `${v >= 0 ? '+' : '−'}${fmt(Math.abs(v))}` : '—');
const mark = (ok) => (ok === undefined ? '—' : ok ? '✅' : '❌');

/** "68.2k (55.0k–70.1k)": median and range over runs. */
function cell(st, f = fmt) {
  if (st.n === 0) return '—';
  return st.n === 1 ? f(st.median) : `${f(st.median)} (${f(st.min)}–${f(st.max)})`;
}

/** The direct path a path is compared with: direct (stdio) unless it names its own. */
export const directOf = (p) => PATHS[p]?.direct ?? 'direct';

/** Every paired ratio of the tools/call scenario: [{ point, name, stats, f }]. */
export function callRatios(R, paths) {
  const peers = paths.filter((p) => PATHS[p].peer);
  const out = [];
  const fig = (p, point, f) => ['call', p, `${point.key}|${f}`];
  for (const point of POINTS) {
    for (const p of paths) {
      if (!PATHS[p].isDirect) {
        // Each path against the direct connection to the same kind of server (stdio or remote).
        const d = directOf(p);
        out.push({ point, name: `${p} ÷ ${d}, calls/s`, stats: R.ratio(fig(p, point, 'calls/s'), fig(d, point, 'calls/s')), f: times });
        out.push({ point, name: `${p} − ${d}, p50 µs`, stats: R.difference(fig(p, point, 'p50 µs'), fig(d, point, 'p50 µs')), f: plus });
        out.push({ point, name: `${p} CPU ÷ its echo server's`, stats: R.ratio(fig(p, point, 'cpu µs/call'), fig(p, point, 'server cpu µs/call')), f: times });
      }
      for (const q of peers) if (q !== p) out.push({ point, name: `${p} ÷ ${q}, calls/s`, stats: R.ratio(fig(p, point, 'calls/s'), fig(q, point, 'calls/s')), f: times });
    }
    // --metrics-cost: the same gateway with and without its counters, paired in each run.
    if (paths.includes('sb-http') && paths.includes('sb-http-nometrics')) {
      out.push({ point, name: 'metrics on ÷ off (sb-http ÷ sb-http-nometrics), calls/s', stats: R.ratio(fig('sb-http', point, 'calls/s'), fig('sb-http-nometrics', point, 'calls/s')), f: fine });
      out.push({ point, name: 'metrics on ÷ off, gateway CPU µs/call', stats: R.ratio(fig('sb-http', point, 'cpu µs/call'), fig('sb-http-nometrics', point, 'cpu µs/call')), f: fine });
    }
  }
  return out;
}

/** The start-up comparisons, each a ratio of two sides measured alternately in one run. */
export function startupPairs(R, paths) {
  const S = (row, f) => ['startup', row, f];
  const pairs = [
    ['CLI start, wall: `switchboard check` (no servers) ÷ `node -e 0`', S('switchboard check (no servers)', 'wall ms'), S('node -e 0', 'wall ms'), 'ms'],
    ['CLI start, peak RSS: `switchboard check` ÷ `node -e 0`', S('switchboard check (no servers)', 'peak RSS MB'), S('node -e 0', 'peak RSS MB'), 'MB'],
    [
      'one server: Switchboard spawn → listening ÷ the server alone spawn → initialize answered',
      S('Switchboard, 1 server', 'spawn → listening ms'),
      S('one echo server alone', 'spawn → initialize answered ms'),
      'ms',
    ],
    [
      '50 servers: Switchboard spawn → listening ÷ the harness starting the 50 in parallel',
      S('Switchboard, 50 servers', 'spawn → listening ms'),
      S('50 servers, direct (all in parallel)', 'all ready ms'),
      'ms',
    ],
  ];
  for (const q of paths.filter((p) => PATHS[p].peer)) {
    pairs.push([
      `one server, spawn → first initialize + tools/list over HTTP: Switchboard ÷ ${q}`,
      S('sb-http 1 server', 'spawn → initialize + tools/list ms'),
      S(`${q} 1 server`, 'spawn → initialize + tools/list ms'),
      'ms',
    ]);
  }
  return pairs.map(([name, a, b, unit]) => ({ name, a, b, unit, stats: R.ratio(a, b) }));
}

export function renderReport(R, meta) {
  const L = [];
  const paths = meta.paths;
  const peers = paths.filter((p) => PATHS[p].peer);
  L.push(`# Benchmark results${meta.quick ? ' (quick smoke run — not for quoting)' : ''}`, '');
  L.push(`Written by \`${meta.command}\` on ${meta.date}. Do not edit by hand.`, '');
  L.push(
    `- Machine: ${meta.cpu}, ${meta.cores} cores, ${meta.memGiB} GiB RAM, ${meta.os}. 1-minute load average ${meta.loadBefore} before the run, ${meta.loadAfter} after, ${meta.loadDuring} while figures were taken${meta.burners ? `, with ${meta.burners} busy-loop processes started by the harness (--burn)` : ''}; other jobs share this machine.`,
  );
  L.push(`- Node ${meta.node}. Switchboard ${meta.gateway}. Peers: ${meta.peerVersions}.${meta.baseline ? ` Baseline build (paths base-stdio, base-http): ${meta.baseline}.` : ''}`);
  L.push(
    `- ${meta.runs} runs. In each run every tools/call path is open at once and measured back to back at each point, ${meta.mirror ? `in two slices ordered A B … B A and rotated by one path per run (${meta.warmupMs} ms warm-up before the first slice, ${meta.rewarmMs} ms before the second, ${meta.durationMs} ms measured in all` : `one slice each, the order rotated by one path per run (${meta.warmupMs} ms warm-up, ${meta.durationMs} ms measured`}, closed loop; a window stays open until one round of calls completed).${meta.quick ? ' Quick run: the peers only at 100 B c=32.' : ''} Start-up comparisons alternate their two sides within a run. **Every ratio is formed inside one run; the figure shown is the median of the per-run ratios, with their range in parentheses; targets are judged on that median.** Absolute figures: median (range) over runs. Total wall time ${meta.wallSeconds} s.`,
  );
  L.push(
    '- CPU per call: CPU time (user + system, all threads, from /proc/PID/task/*/schedstat) of a process over a slice ÷ the calls of that slice (warm-up and drain included). "load" is the 1-minute load average while the figure was taken: CPU per call rises with it (see NOTES.md).',
  );
  L.push('');

  if (R.failures.length > 0) {
    L.push('## Scenarios that failed to run', '');
    for (const f of R.failures) L.push(`- **${f.scenario}**${f.run ? ` (run ${f.run})` : ''}: \`${f.error.split('\n')[0]}\``);
    L.push('');
  }

  L.push('## Targets', '');
  L.push('| target | measured: median over runs (range, runs) | load | goal | |');
  L.push('|---|---|---|---|---|');
  for (const t of evaluateTargets(R)) L.push(`| ${t.name} | ${t.measured} | ${t.load || '—'} | ${t.goal} | ${mark(t.ok)} |`);
  L.push('');
  const floor = floorRows(R);
  if (floor.length > 0) {
    L.push('### The floor: a bare Node proxy in the same windows', '');
    L.push(
      "`bench/floor-proxy.mjs` forwards, gives each request an id of its own, renames the tool and puts the client's id back, and does nothing else (no checks, limits, policy, sessions or logs): no MCP proxy can do less. Full runs also measure two byte relays, which are not MCP proxies (one client; ids and names pass untouched): `bench/byte-relay.mjs` pipes Node streams and parses nothing, `bench/byte-relay.c` copies bytes with read and write. When the Node relay is no faster than the floor, a goal beyond the floor's figure is beyond any Node process in the middle on this machine; the C relay shows what the third process costs when it is not Node.",
      '',
    );
    L.push('| figure | median over runs (range, runs) | load |', '|---|---|---|');
    for (const f of floor) L.push(`| ${f.name} | ${f.measured} | ${f.load || '—'} |`);
    L.push('');
  }

  if (R.data.call) {
    L.push('## tools/call round trips', '');
    L.push(
      'Per path: median over runs (range). "CPU µs/call": the process in the middle (the gateway; for direct, the echo server). "wake-ups/call": its main thread\'s voluntary context switches per call — below 1 when one wake-up handles several messages; CPU per call rises with it. "echo CPU": the echo server(s) behind it. "client": the harness process (both clients). Ratio columns are per-run ratios: throughput ÷ the column\'s path, p50 − direct\'s p50, CPU ÷ the echo server\'s.',
      '',
    );
    const ratios = callRatios(R, paths);
    const find = (point, name) => ratios.find((r) => r.point === point && r.name === name);
    for (const point of POINTS) {
      const f = (p, name) => R.stats('call', p, `${point.key}|${name}`);
      const here = paths.filter((p) => f(p, 'calls/s').n > 0); // a quick run measures the peers at one point only
      if (here.length === 0) continue;
      const herePeers = peers.filter((p) => here.includes(p));
      L.push(`### ${point.label}`, '');
      const head = [
        'path',
        'calls/s',
        'p50 µs',
        'p99 µs',
        'CPU µs/call',
        'wake-ups/call',
        'echo CPU µs/call',
        'client µs/call',
        'load',
        '÷ direct',
        'p50 − direct µs',
        'CPU ÷ echo',
        ...herePeers.map((p) => `÷ ${p}`),
      ];
      L.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
      for (const p of here) {
        const r = (name) => {
          const x = find(point, name);
          return x ? cell(x.stats, x.f) : '—';
        };
        L.push(
          `| ${[
            PATHS[p].label,
            cell(f(p, 'calls/s')),
            cell(f(p, 'p50 µs')),
            fmt(f(p, 'p99 µs').median),
            cell(f(p, 'cpu µs/call')),
            fmt(f(p, 'wake-ups/call').median, 2),
            cell(f(p, 'server cpu µs/call')),
            fmt(f(p, 'client cpu µs/call').median),
            loadText(R.values('call', p, `${point.key}|load`)).replace('load ', '') || '—',
            PATHS[p].isDirect ? '1×' : r(`${p} ÷ ${directOf(p)}, calls/s`),
            PATHS[p].isDirect ? '—' : r(`${p} − ${directOf(p)}, p50 µs`),
            PATHS[p].isDirect ? '—' : r(`${p} CPU ÷ its echo server's`),
            ...herePeers.map((q) => (q === p ? '—' : r(`${p} ÷ ${q}, calls/s`))),
          ].join(' | ')} |`,
        );
      }
      L.push('');
    }
  }

  if (R.data.startup) {
    L.push('## Start-up', '');
    L.push(
      'Wall times spawn → exit (CLI) or spawn → ready, medians within each run of alternated repetitions (hyperfine-style: one warm-up of each side first). Peak RSS from GNU time (`%M`). "ready": the gateway printed `listening on` (it connects every server — handshake and lists — first); the server alone: our raw client got its initialize answer; 50 direct: the harness started 50 servers at once and got initialize + tools/list from all.',
      '',
    );
    L.push('| comparison | row ÷ column per run: median (range) | row | column | load |', '|---|---|---|---|---|');
    for (const p of startupPairs(R, paths).filter((x) => x.stats.n > 0)) {
      const u = (v) => `${fmt(v)} ${p.unit}`;
      L.push(`| ${p.name} | ${cell(p.stats, times)} | ${cell(R.stats(...p.a), u)} | ${cell(R.stats(...p.b), u)} | ${loadText(R.values('startup', p.a[1], 'load')).replace('load ', '') || '—'} |`);
    }
    L.push('');
  }

  const generic = (scenario, title, intro) => {
    if (!R.data[scenario]) return;
    L.push(`## ${title}`, '');
    if (intro) L.push(intro, '');
    L.push('| setup | figure | median (range) | load |', '|---|---|---|---|');
    for (const [row, figures] of Object.entries(R.data[scenario])) {
      const load = loadText(R.values(scenario, row, 'load')).replace('load ', '') || '—';
      for (const figure of Object.keys(figures)) if (figure !== 'load') L.push(`| ${label(row)} | ${figure} | ${cell(R.stats(scenario, row, figure))} | ${load} |`);
    }
    L.push('');
  };

  generic(
    'list',
    'tools/list over 10 servers × 1,000 tools',
    `Switchboard in front of 10 echo servers started with \`--tools 1000\` (10,020 tools, \`catalog.pageSize: 100\`). "first" is the first tools/list after the gateway is ready; "warm page" repeats one page from the middle of the catalog (its cursor) sequentially. The peers neither merge servers nor page: their row is one 1,000-tool server's whole list (1,002 tools, ~0.1 MB), like direct's, for scale only. ${meta.listRuns} run(s).`,
  );
  if (R.data.list?.['direct 1×1000']) {
    const page = ['list', 'sb-http 10×1000', 'warm page p50 ms'];
    const parts = [`warm 100-tool page over HTTP ÷ one server's whole list direct: ${cell(R.ratio(page, ['list', 'direct 1×1000', 'warm full list p50 ms']), times)}`];
    for (const p of peers) parts.push(`÷ the same whole list through ${p}: ${cell(R.ratio(page, ['list', `${p} 1×1000`, 'warm full list p50 ms']), times)}`);
    L.push(`Per-run ratios (lower is better): ${parts.join('; ')}.`, '');
  }

  generic(
    'memory',
    'Resident memory per session',
    `VmRSS from /proc after a short settle (no forced GC): growth after N more initialized Streamable HTTP sessions (each also made one call), ÷ N. "tree" adds every process under the gateway; supergateway \`--stateful\` spawns a server per session, so it gets fewer sessions. The gateway's RSS with 1 and 50 servers is in the start-up scenario's table below. ${meta.memoryRuns} run(s).`,
  );
  if (R.data.memory) {
    const sessRow = Object.keys(R.data.memory).find((r) => r.startsWith('sb-http ('));
    const parts = [];
    for (const p of peers) {
      const pr = Object.keys(R.data.memory).find((r) => r.startsWith(`${p} (`));
      if (pr && sessRow) parts.push(`tree KB per session, Switchboard ÷ ${p}: ${cell(R.ratio(['memory', sessRow, 'tree KB/session'], ['memory', pr, 'tree KB/session']), times)}`);
    }
    if (parts.length) L.push(`Per-run ratios: ${parts.join('; ')}.`, '');
  }
  generic('startup', 'Start-up and memory, every figure', '');
  if (R.data.startup) {
    const m1 = summary(R.values('startup', 'Switchboard, 1 server', 'gateway RSS MB'));
    const m50 = summary(R.values('startup', 'Switchboard, 50 servers', 'gateway RSS MB'));
    L.push(`Gateway RSS per additional server ((50 − 1 servers) ÷ 49, medians): ${fmt((m50.median - m1.median) / 49)} MB (goal ≤ 0.5 MB).`, '');
  }

  L.push(
    '## How to reproduce',
    '',
    '```sh',
    'npm ci && npm run build',
    'npm run bench              # full run (~7 min), writes bench/RESULTS.md',
    'npm run bench -- --quick   # CI smoke run (< 1 min), writes bench/.out/RESULTS-quick.md',
    '```',
    '',
  );
  return L.join('\n');
}

/** Console lines for every paired ratio and the targets (the quick run's whole output). */
export function consoleSummary(R, paths) {
  const L = ['', 'paired ratios (median of per-run ratios, range over runs):'];
  let last;
  for (const r of callRatios(R, paths)) {
    if (r.stats.n === 0) continue;
    if (r.point !== last) L.push(`  ${r.point.key}`);
    last = r.point;
    L.push(`    ${r.name}: ${withRange(r.stats, r.f)}`);
  }
  for (const p of startupPairs(R, paths)) if (p.stats.n > 0) L.push(`  ${p.name}: ${withRange(p.stats, times)}`);
  L.push('', 'targets (judged on the median):');
  for (const t of evaluateTargets(R)) if (t.ok !== undefined) L.push(`${t.ok ? '  ok  ' : '  MISS'}  ${t.name}: ${t.measured}${t.load ? `, ${t.load}` : ''} (goal ${t.goal})`);
  return L.join('\n');
}

function label(row) {
  for (const [key, p] of Object.entries(PATHS)) if (row.startsWith(`${key} `)) return `${p.label}${row.slice(key.length)}`;
  return row;
}
