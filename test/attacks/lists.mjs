// Attacks through a server's lists (issue "Hardening, round 2", items 1 and 2): a server that
// answers its list requests with endless pages after start-up, and one that re-announces a change
// after every fetch. The gateway must stay within memory, mark the first server failed with its
// reason (status, /metrics), and keep serving another server's calls at their quiet speed.

import { readFileSync } from 'node:fs';
import { HttpClient, breached, held, rawHttp, stdioServer, withGateway } from './lib.mjs';

const CLIENTS = `clients:\n  - name: alice\n    token: alice-token\n  - name: canary\n    token: canary-token\n  - name: ops\n    token: ops-token\n    operator: true\n`;
/** Peak RSS the gateway may reach while a list bomb goes off (it started near 60 MiB). */
const MAX_RSS_MIB = 400;

const page = (gw, path) => rawHttp(gw.url, { method: 'GET', path, headers: { authorization: 'Bearer ops-token' } });

async function serverStatus(gw, name) {
  const res = await page(gw, '/status').catch(() => undefined);
  if (res?.status !== 200) return undefined;
  return JSON.parse(res.text).servers.find((s) => s.name === name);
}

/** CPU seconds (user + system) the process has used so far (Linux /proc; clock ticks of 1/100 s). */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const currentRssMiB = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Canary calls, one at a time, until `until()` says stop. With `everyMs`, call i is due at
 * start + i × everyMs and its latency counts from when it was due, not from when it could be sent:
 * a gateway that stalls for 600 ms delays every call due meanwhile, and each of them says so.
 */
async function canaryCalls(canary, until, { max = Infinity, everyMs = 0 } = {}) {
  const ms = [];
  const errors = [];
  const start = performance.now();
  for (let i = 0; i < max && !until(); i++) {
    const due = start + i * everyMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const t = everyMs > 0 ? due : performance.now();
    const r = await canary.call('calm__echo', { text: `c${i}` }).catch((e) => ({ error: String(e) }));
    if (r?.response?.result?.content?.[0]?.text === `c${i}`) ms.push(performance.now() - t);
    else errors.push(JSON.stringify(r?.response ?? r).slice(0, 160));
  }
  return { ms: ms.sort((a, b) => a - b), errors };
}

/** The list bomb of the issue, on one kind of list. */
function listBomb(kind, expose) {
  return {
    name: `list bomb after start-up (${kind})`,
    item: '28.1',
    async run({ cli }) {
      const yaml = `${CLIENTS}servers:\n${stdioServer('bomb', 'list-bomb.mjs')}${stdioServer('calm', 'hostile.mjs')}`;
      return withGateway(cli, yaml, async (gw) => {
        const alice = new HttpClient(gw.url, { token: 'alice-token' });
        const canary = new HttpClient(gw.url, { token: 'canary-token' });
        await Promise.all([alice.initialize(), canary.initialize()]);
        const before = await canary.request(expose.method, {});
        const listedBefore = before.response?.result?.[expose.key]?.some((i) => expose.ours(i));
        const armed = await alice.call('bomb__bomb', { kind });
        if (armed.response?.result?.content?.[0]?.text !== 'armed') return breached(`the bomb server was not served at start: ${JSON.stringify(armed.response).slice(0, 200)}`);
        // Until the gateway marks the server failed, or its memory goes past the bound (then stop:
        // the old gateway would go on to gigabytes on a shared machine).
        let status;
        let peak = 0;
        let stop = false;
        const deadline = Date.now() + 30_000;
        const watcher = (async () => {
          while (!stop && Date.now() < deadline) {
            peak = Math.max(peak, currentRssMiB(gw.pid));
            if (peak > MAX_RSS_MIB) break;
            status = await serverStatus(gw, 'bomb');
            if (status?.state === 'failed') break;
            await new Promise((r) => setTimeout(r, 100));
          }
          stop = true;
        })();
        const calls = await canaryCalls(canary, () => stop);
        await watcher;
        peak = Math.max(peak, gw.peakRssMiB());
        const after = await canaryCalls(canary, () => false, { max: 20 });
        const metrics = await page(gw, '/metrics');
        const listed = await canary.request(expose.method, {});
        const listedAfter = listed.response?.result?.[expose.key]?.some((i) => expose.ours(i));
        const stateMetric = /switchboard_server_state\{server="bomb",state="failed"\} 1/.test(metrics.text);
        const reasonMetric = /switchboard_server_failures_total\{server="bomb",reason="list_(items|bytes)"\} 1/.test(metrics.text);
        const reason = status?.problem ?? '';
        const detail =
          `peak RSS ${peak.toFixed(0)} MiB (bound ${MAX_RSS_MIB}); server state ${status?.state ?? '?'} (${reason || 'no reason'}); ` +
          `metrics: state ${stateMetric ? 'failed' : 'not failed'}, failure reason ${reasonMetric ? 'counted' : 'absent'}; ` +
          `its ${kind} listed before ${listedBefore}, after ${listedAfter}; canary ${calls.ms.length} answered during the bomb (${calls.errors.length} failed), ${after.ms.length}/20 after`;
        const ok =
          gw.alive &&
          peak < MAX_RSS_MIB &&
          status?.state === 'failed' &&
          /over limits\.maxList(Items|Bytes)/.test(reason) &&
          stateMetric &&
          reasonMetric &&
          listedBefore &&
          !listedAfter &&
          calls.errors.length === 0 &&
          after.ms.length === 20;
        return ok ? held(detail) : breached(`${gw.alive ? '' : 'the gateway died; '}${detail}`);
      });
    },
  };
}

export const lists = [
  listBomb('tools', { method: 'tools/list', key: 'tools', ours: (t) => t.name.startsWith('bomb__') }),
  listBomb('resources', { method: 'resources/list', key: 'resources', ours: (r) => r.uri.startsWith('bomb://') }),
  {
    name: 'list_changed storm',
    item: '28.2',
    async run({ cli }) {
      // 10,000 tools in one page (as most servers send them), re-announced after every fetch.
      const yaml = `${CLIENTS}servers:\n${stdioServer('storm', 'list-bomb.mjs', ['--tools', '10000'])}${stdioServer('calm', 'hostile.mjs')}`;
      return withGateway(cli, yaml, async (gw) => {
        const alice = new HttpClient(gw.url, { token: 'alice-token' });
        const canary = new HttpClient(gw.url, { token: 'canary-token' });
        await Promise.all([alice.initialize(), canary.initialize()]);
        await canaryCalls(canary, () => false, { max: 50 });
        const window = async (seconds) => {
          const end = Date.now() + seconds * 1000;
          const cpu0 = cpuSeconds(gw.pid);
          const t0 = performance.now();
          const calls = await canaryCalls(canary, () => Date.now() >= end, { everyMs: 20 });
          const cpu = (cpuSeconds(gw.pid) - cpu0) / ((performance.now() - t0) / 1000);
          return { ...calls, cpu, p50: percentile(calls.ms, 50), p99: percentile(calls.ms, 99) };
        };
        const quiet = await window(4);
        const fetched = async () => Number((await alice.call('storm__fetches')).response?.result?.content?.[0]?.text);
        const fetchesBefore = await fetched();
        await alice.call('storm__storm');
        const storm = await window(12);
        const fetches = (await fetched()) - fetchesBefore;
        const f = (x) => x.toFixed(1);
        const detail =
          `canary quiet p50 ${f(quiet.p50)} ms p99 ${f(quiet.p99)} ms (${quiet.ms.length} calls), storm p50 ${f(storm.p50)} ms p99 ${f(storm.p99)} ms (${storm.ms.length} calls, ${storm.errors.length} failed); ` +
          `gateway CPU ${Math.round(quiet.cpu * 100)}% of a core quiet (canary load), ${Math.round(storm.cpu * 100)}% in the storm; ${fetches} fetches of 10,000 tools in 12 s`;
        // Thresholds: the old gateway refetched without pause (25 fetches in 12 s, canary p50 in
        // seconds: calls queued behind rebuilds). Paced, the few fetches in the window are what is
        // left: each parses a 3 MB answer in one piece, which delays the calls due meanwhile (the
        // p99 allowance); the p50 must stay at its quiet value, on a loaded 2-core machine too.
        const ok = storm.errors.length === 0 && storm.p50 <= quiet.p50 * 2 + 2 && storm.p99 <= quiet.p99 * 3 + 400 && storm.cpu <= quiet.cpu + 0.25 && fetches <= 8;
        return ok ? held(detail) : breached(detail);
      });
    },
  },
];
