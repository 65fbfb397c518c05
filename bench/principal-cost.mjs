#!/usr/bin/env node
// What the HTTP face's per-request work costs, in-process: this build's endpoint (dist/inbound)
// against another build's (--baseline DIST/main.js), both with a fake session that answers at once,
// driven by the same keep-alive client (32 connections, 32 calls at once), in alternated rounds so
// that drift in the machine's load falls on both. The figure is CPU per call of this process
// (client and endpoint together) and its ratio to the baseline's. Needs `npm run build`.
//   node bench/principal-cost.mjs --baseline /path/to/other/dist/main.js [--calls N] [--rounds R]

import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createAgent, HttpSession } from './lib/http-client.mjs';

const { values } = parseArgs({ options: { baseline: { type: 'string' }, calls: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '7' } } });
if (!values.baseline) {
  console.error('usage: node bench/principal-cost.mjs --baseline /path/to/other/dist/main.js');
  process.exit(2);
}
const calls = Number(values.calls);
const rounds = Number(values.rounds);
const here = resolve(dirname(new URL(import.meta.url).pathname), '../dist');

/** An endpoint of the build whose dist/ is `dist`, on a fake opener; resolves with its URL and close. */
async function endpointOf(dist) {
  const load = (m) => import(pathToFileURL(resolve(dist, m)).href);
  const { startHttpEndpoint } = await load('inbound/http-endpoint.js');
  const { ByteBudget } = await load('inbound/budget.js');
  let n = 0;
  const session = () => ({
    id: `s${++n}`,
    protocolVersion: '2025-11-25',
    budget: new ByteBudget(1 << 30, 'this session', 'limits.sessionBytesInFlight', 'session'),
    inFlightCount: 0,
    handle: (m) =>
      Promise.resolve(
        m.id === undefined
          ? undefined
          : m.method === 'initialize'
            ? { jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'fake', version: '1' } } }
            : { jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'x' }] } },
      ),
    close() {},
  });
  const opener = { budget: new ByteBudget(1 << 30, 'the gateway', 'limits.totalBytesInFlight', 'gateway'), openSession: session, openStatelessSession: session };
  return startHttpEndpoint(opener, { host: '127.0.0.1', port: 0, path: '/mcp', allowedOrigins: [], maxMessageBytes: 1 << 24 });
}

const PARAMS = JSON.stringify({ name: 'echo', arguments: { text: 'x'.repeat(100) } });

/** CPU µs per call of this process for `calls` tools/call, 32 at once. */
async function measure(client) {
  let left = calls;
  const worker = async () => {
    while (left-- > 0) await client.requestRaw('tools/call', PARAMS);
  };
  const t0 = process.cpuUsage();
  await Promise.all(Array.from({ length: 32 }, worker));
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / calls;
}

const ours = await endpointOf(here);
const theirs = await endpointOf(dirname(resolve(values.baseline)));
const clients = [];
for (const e of [ours, theirs]) {
  const c = new HttpSession(e.url, createAgent(32));
  await c.initialize();
  clients.push(c);
}
// Warm-up: both endpoints and the client optimized before anything is timed.
await measure(clients[0]);
await measure(clients[1]);
const pairs = [];
for (let r = 0; r < rounds; r++) {
  // Alternated, the order swapped each round: drift in the machine's load falls on both sides.
  let o;
  let t;
  if (r % 2 === 0) {
    o = await measure(clients[0]);
    t = await measure(clients[1]);
  } else {
    t = await measure(clients[1]);
    o = await measure(clients[0]);
  }
  pairs.push({ ours: o, theirs: t });
}
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const ratios = pairs.map((p) => p.ours / p.theirs);
console.log(`HTTP endpoint in-process, tools/call answered at once, c=32, median of ${rounds} alternated rounds of ${calls}:`);
console.log(`  this build ${median(pairs.map((p) => p.ours)).toFixed(2)} µs CPU per call, baseline ${median(pairs.map((p) => p.theirs)).toFixed(2)} µs`);
console.log(
  `  ratio ${median(ratios).toFixed(3)}× (range ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}×); difference ${median(pairs.map((p) => p.ours - p.theirs)).toFixed(2)} µs`,
);
await Promise.all([ours.close(), theirs.close()]);

// The same work alone, without the HTTP around it: what one request adds (the connection already
// charged to its principal, one call taken and given back), against the closure it had anyway.
const { EventEmitter } = await import('node:events');
const { Connections, connOf } = await import(pathToFileURL(resolve(here, 'inbound/http-connections.js')).href);
const { Principals, DEFAULT_SHARES } = await import(pathToFileURL(resolve(here, 'inbound/principals.js')).href);
const { ByteBudget } = await import(pathToFileURL(resolve(here, 'inbound/budget.js')).href);
const gatewayBudget = new ByteBudget(1 << 30, 'the gateway', 'limits.totalBytesInFlight', 'gateway');
const principals = new Principals(DEFAULT_SHARES, gatewayBudget);
const conns = new Connections(principals, 512, 1000, { debug() {}, info() {}, warn() {}, error() {} });
const socket = Object.assign(new EventEmitter(), { remoteAddress: '127.0.0.1', destroy() {} });
conns.accept(socket);
conns.identify(connOf(socket), 'alice');
// A session's budget under its principal's (now), and directly under the gateway's (before).
const underPrincipal = new ByteBudget(1 << 25, 'this session', 'limits.sessionBytesInFlight', 'session', principals.budgetOf(connOf(socket).holder));
const underGateway = new ByteBudget(1 << 25, 'this session', 'limits.sessionBytesInFlight', 'session', gatewayBudget);
let sink = 0;
const N = 5_000_000;
const withShares = (principal) => {
  const conn = connOf(socket);
  if (conn !== undefined && (!conn.authenticated || conn.principal !== principal) && !conns.identify(conn, principal)) return;
  const h = conn.holder;
  if (h.calls >= principals.shares.callsInFlight) return;
  h.calls++;
  underPrincipal.take(100);
  const release = () => (sink++, underPrincipal.give(100));
  const end = () => {
    release();
    if (--h.calls === 0) principals.release(h);
  };
  end();
};
const without = () => {
  underGateway.take(100);
  const release = () => (sink++, underGateway.give(100));
  release();
};
const time = (f) => {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) f('alice');
  return Number(process.hrtime.bigint() - t0) / N;
};
time(withShares);
time(without);
const added = [];
for (let r = 0; r < rounds; r++) added.push(time(withShares) - time(without));
console.log(
  `  the accounting alone (connection lookup, principal check, a call and its bytes taken and given back): ${median(added).toFixed(1)} ns per request (range ${Math.min(...added).toFixed(1)}–${Math.max(...added).toFixed(1)} ns, ${sink > 0 ? rounds : 0} rounds of ${N})`,
);
process.exit(0);
