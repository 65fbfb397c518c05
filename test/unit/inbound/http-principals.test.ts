// The HTTP endpoint's shares per principal, on a real node:http server with fake sessions: over
// a share a request gets 429 with LIMIT_EXCEEDED (data.limit "principal") and Retry-After at once,
// another principal is served meanwhile, and a ping does not make a session look used.

import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ByteBudget } from '../../../src/inbound/budget.js';
import { startHttpEndpoint } from '../../../src/inbound/http-endpoint.js';
import type { HttpEndpoint, HttpEndpointOptions } from '../../../src/inbound/http-endpoint-options.js';
import { DEFAULT_SHARES, type Shares } from '../../../src/inbound/principals.js';
import type { EndpointSession, SessionOpener } from '../../../src/inbound/session-opener.js';
import { resultResponse, type JsonRpcMessage, type JsonRpcRequest } from '../../../src/protocol/jsonrpc.js';

/** Calls to the tool `hold` wait here, by their `key` argument, until the test lets them go. */
const held = new Map<string, () => void>();
const arrived: (() => void)[] = [];
let n = 0;

const opener: SessionOpener = {
  budget: new ByteBudget(1 << 30, 'the gateway', 'limits.totalBytesInFlight', 'gateway'),
  openSession: (_push, _principal, parent) => fakeSession(parent),
  openStatelessSession: () => fakeSession(),
};

function fakeSession(parent?: ByteBudget): EndpointSession {
  let inFlight = 0;
  return {
    id: `s${++n}`,
    protocolVersion: '2025-11-25',
    budget: new ByteBudget(1 << 30, 'this session', 'limits.sessionBytesInFlight', 'session', parent),
    get inFlightCount() {
      return inFlight;
    },
    async handle(message: JsonRpcMessage) {
      const r = message as JsonRpcRequest;
      if (!('id' in r)) return undefined;
      if (r.method === 'initialize') return resultResponse(r.id, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'fake', version: '1' } });
      if (r.method === 'tools/call') {
        inFlight++;
        await new Promise<void>((go) => {
          held.set(String(r.params?.arguments?.key), go);
          for (const a of arrived.splice(0)) a();
        });
        inFlight--;
      }
      return resultResponse(r.id, {});
    },
    close() {},
  };
}

/** Resolves once `count` calls are being held. */
const holding = (count: number): Promise<void> => (held.size >= count ? Promise.resolve() : new Promise((r) => arrived.push(() => void holding(count).then(r))));

let endpoint: HttpEndpoint | undefined;
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const go of held.values()) go();
  held.clear();
  for (const s of sockets.splice(0)) s.destroy();
  await endpoint?.close();
  endpoint = undefined;
});

async function start(shares: Partial<Shares>, extra: Partial<HttpEndpointOptions> = {}) {
  const authenticate = (h: string | undefined) => (h === 'Bearer alice' ? 'alice' : h === 'Bearer bob' ? 'bob' : null);
  endpoint = await startHttpEndpoint(opener, {
    host: '127.0.0.1',
    port: 0,
    path: '/mcp',
    allowedOrigins: [],
    maxMessageBytes: 1 << 20,
    authenticate,
    shares: { ...DEFAULT_SHARES, ...shares },
    ...extra,
  });
  return new URL(endpoint.url);
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One keep-alive connection on which the test writes requests by hand and reads answers in order. */
function connection(url: URL) {
  const socket = net.connect(Number(url.port), url.hostname);
  sockets.push(socket);
  let buffered = '';
  const waiting: ((a: Answer) => void)[] = [];
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.setEncoding('utf8');
  socket.on('error', () => {});
  socket.on('data', (d: string) => {
    buffered += d;
    for (;;) {
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1) return;
      const [statusLine, ...lines] = buffered.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const length = Number(headers['content-length'] ?? 0);
      if (buffered.length < end + 4 + length) return;
      const body = buffered.slice(end + 4, end + 4 + length);
      buffered = buffered.slice(end + 4 + length);
      waiting.shift()?.({ status: Number(statusLine!.split(' ')[1]), headers, body });
    }
  });
  const send = (method: string, token: string, session: string | undefined, body?: unknown): Promise<Answer> => {
    const text = body === undefined ? '' : JSON.stringify(body);
    const head = [
      `${method} ${url.pathname} HTTP/1.1`,
      `Host: ${url.host}`,
      `Authorization: Bearer ${token}`,
      method === 'GET' ? 'Accept: text/event-stream' : 'Accept: application/json, text/event-stream',
      ...(text ? ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(text)}`] : []),
      ...(session ? [`Mcp-Session-Id: ${session}`] : []),
    ];
    socket.write(`${head.join('\r\n')}\r\n\r\n${text}`);
    return new Promise((resolve) => waiting.push(resolve));
  };
  return { send, closed, socket };
}

const INIT = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
const call = (id: number, key: string, pad = '') => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'hold', arguments: { key, pad } } });

async function session(url: URL, token: string): Promise<string> {
  const a = await connection(url).send('POST', token, undefined, INIT);
  expect(a.status).toBe(200);
  return a.headers['mcp-session-id']!;
}

function expectShareRefusal(a: Answer, id: number | null, key: string) {
  expect(a.status).toBe(429);
  expect(a.headers['retry-after']).toBe('1');
  const error = JSON.parse(a.body) as { id: unknown; error: { message: string; data: { code: string; limit: string } } };
  expect(error.id).toBe(id);
  expect(error.error.data).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'principal' });
  expect(error.error.message).toContain(`limits.perPrincipal.${key}`);
}

describe('per-principal shares on the HTTP face', () => {
  it("calls in flight are counted across all of a principal's sessions", async () => {
    const url = await start({ callsInFlight: 2 });
    const [s1, s2, s3, b] = await Promise.all([session(url, 'alice'), session(url, 'alice'), session(url, 'alice'), session(url, 'bob')]);
    const first = connection(url).send('POST', 'alice', s1, call(1, 'a1'));
    void connection(url).send('POST', 'alice', s2, call(2, 'a2'));
    await holding(2);
    expectShareRefusal(await connection(url).send('POST', 'alice', s3, call(3, 'a3')), 3, 'callsInFlight');
    // Another principal is not held back by alice's share.
    const bob = connection(url).send('POST', 'bob', b, call(4, 'b1'));
    await holding(3);
    held.get('b1')!();
    expect((await bob).status).toBe(200);
    // One of alice's calls ends: she may make one more.
    held.get('a1')!();
    expect((await first).status).toBe(200);
    void connection(url).send('POST', 'alice', s3, call(5, 'a4'));
    await holding(4);
  });

  it('streams: one more GET than the share gets 429', async () => {
    let streamClosed!: () => void;
    const closedOnServer = new Promise<void>((resolve) => (streamClosed = resolve));
    const url = await start({ streams: 1 }, { onGetStreamClosed: () => streamClosed() });
    const [s1, s2] = await Promise.all([session(url, 'alice'), session(url, 'alice')]);
    const stream = connection(url);
    const open = await stream.send('GET', 'alice', s1);
    expect(open.status).toBe(200);
    expectShareRefusal(await connection(url).send('GET', 'alice', s2), null, 'streams');
    // The stream closes: its share comes back.
    stream.socket.destroy();
    await closedOnServer;
    expect((await connection(url).send('GET', 'alice', s2)).status).toBe(200);
  });

  it("sessions: at the share, the principal's own idle session ends for the new one; 429 when all are busy", async () => {
    const url = await start({ sessions: 2 });
    const [s1, s2] = await Promise.all([session(url, 'alice'), session(url, 'alice')]);
    const c1 = connection(url).send('POST', 'alice', s1, call(1, 'x1'));
    void connection(url).send('POST', 'alice', s2, call(2, 'x2'));
    await holding(2);
    expectShareRefusal(await connection(url).send('POST', 'alice', undefined, INIT), 0, 'sessions');
    held.get('x1')!();
    await c1;
    const s3 = await session(url, 'alice');
    expect(s3).not.toBe(s1);
    expect((await connection(url).send('POST', 'alice', s1, { jsonrpc: '2.0', id: 9, method: 'ping' })).status).toBe(404);
  });

  it('a ping is not work: the session pinged all along is the one shed for a newcomer', async () => {
    const url = await start({}, { maxSessions: 2 });
    const pinged = await session(url, 'alice');
    // The clock must move on, so that the second session worked later than the first.
    const t = Date.now();
    while (Date.now() === t) await new Promise((r) => setImmediate(r));
    const worked = await session(url, 'alice');
    for (let i = 0; i < 3; i++) expect((await connection(url).send('POST', 'alice', pinged, { jsonrpc: '2.0', id: i, method: 'ping' })).status).toBe(200);
    await session(url, 'bob');
    expect((await connection(url).send('POST', 'alice', pinged, { jsonrpc: '2.0', id: 7, method: 'ping' })).status).toBe(404);
    expect((await connection(url).send('POST', 'alice', worked, { jsonrpc: '2.0', id: 8, method: 'ping' })).status).toBe(200);
  });

  it("bytes in flight are counted across all of a principal's sessions, and given back", async () => {
    const url = await start({ bytesInFlight: 1000 });
    const [s1, s2, b] = await Promise.all([session(url, 'alice'), session(url, 'alice'), session(url, 'bob')]);
    const pad = 'x'.repeat(500);
    const first = connection(url).send('POST', 'alice', s1, call(1, 'big1', pad));
    await holding(1);
    expectShareRefusal(await connection(url).send('POST', 'alice', s2, call(2, 'big2', pad)), null, 'bytesInFlight');
    const bob = connection(url).send('POST', 'bob', b, call(3, 'bob', pad));
    await holding(2);
    held.get('bob')!();
    expect((await bob).status).toBe(200);
    held.get('big1')!();
    expect((await first).status).toBe(200);
    const again = connection(url).send('POST', 'alice', s2, call(4, 'big3', pad));
    await holding(3); // big1, bob, big3: big2 never got in
    held.get('big3')!();
    expect((await again).status).toBe(200);
  });

  it("connections: at the share an idle one of the principal's closes; when all are busy, 429 and the connection closes", async () => {
    const url = await start({ connections: 1 });
    const s = await session(url, 'alice');
    const busy = connection(url);
    const answer = busy.send('POST', 'alice', s, call(1, 'c1'));
    await holding(1);
    const refused = connection(url);
    expectShareRefusal(await refused.send('POST', 'alice', s, { jsonrpc: '2.0', id: 2, method: 'ping' }), null, 'connections');
    await refused.closed; // Connection: close
    // The first connection is idle now (keep-alive): a new one of alice's replaces it.
    held.get('c1')!();
    expect((await answer).status).toBe(200);
    expect((await connection(url).send('POST', 'alice', s, { jsonrpc: '2.0', id: 3, method: 'ping' })).status).toBe(200);
    await busy.closed;
  });
});
