// Outbound HTTP transports against real servers on 127.0.0.1: the official SDK (Streamable HTTP
// in stateful, JSON and stateless modes; legacy HTTP+SSE) and hand-written raw servers for errors.

import fc from 'fast-check';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.js';
import { NO_SINK, type Transport } from '../../src/transport.js';
import { AutoHttpTransport, LegacySseTransport, StreamableHttpTransport, createHttpTransport } from '../../src/outbound/http-auto.js';
import { consumeSse, sseText } from '../../src/outbound/http-sse-reader.js';
import { startLegacySseServer, startRawServer, startStreamableServer, type TestServer } from '../fixtures/http/servers.js';
import { client } from '../fixtures/http/client.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function serve(s: Promise<TestServer>): Promise<TestServer> {
  const srv = await s;
  cleanups.push(() => srv.close());
  return srv;
}

function track<T extends Transport>(t: T): T {
  cleanups.push(() => t.close());
  return t;
}

describe('StreamableHttpTransport against the SDK server', () => {
  it('initializes, lists and calls over SSE responses; session, version and configured headers on the wire', async () => {
    const srv = await serve(startStreamableServer({ mode: 'stateful' }));
    const t = track(new StreamableHttpTransport({ url: srv.url, headers: { Authorization: 'Bearer s3cret' } }));
    const c = client(t);
    await c.start();
    const init = await c.initialize();
    expect(init.result.protocolVersion).toBe('2025-11-25');
    const list = await c.request('tools/list');
    expect(list.result.tools.map((x: any) => x.name)).toContain('echo');
    expect(await c.callEcho('hello')).toBe('hello');

    const posts = srv.requests.filter((r) => r.method === 'POST');
    const initPost = posts[0]!;
    expect(initPost.headers['content-type']).toBe('application/json');
    expect(initPost.headers.accept).toBe('application/json, text/event-stream');
    expect(initPost.headers.authorization).toBe('Bearer s3cret');
    expect(initPost.headers['mcp-session-id']).toBeUndefined();
    expect(initPost.headers['mcp-protocol-version']).toBeUndefined();
    const sid = t.session;
    expect(sid).toMatch(/^[0-9a-f-]{36}$/);
    for (const p of posts.slice(1)) {
      expect(p.headers['mcp-session-id']).toBe(sid);
      expect(p.headers['mcp-protocol-version']).toBe('2025-11-25');
      expect(p.headers.authorization).toBe('Bearer s3cret');
    }
  });

  it('opens the GET stream after setProtocolVersion and receives server notifications on it', async () => {
    const srv = await serve(startStreamableServer({ mode: 'stateful' }));
    const t = track(new StreamableHttpTransport({ url: srv.url }));
    const c = client(t);
    await c.initialize();
    const get = await srv.waitForRequest((r) => r.method === 'GET');
    expect(get.headers.accept).toBe('text/event-stream');
    expect(get.headers['mcp-session-id']).toBe(t.session);
    expect(get.headers['mcp-protocol-version']).toBe('2025-11-25');
    await srv.waitForGetStream();
    srv.mcpServers[0]!.registerTool('late', { description: 'added after connect' }, async () => ({ content: [] }));
    await c.waitFor((m) => m.method === 'notifications/tools/list_changed');
  });

  it('reopens the GET stream after the server drops it', async () => {
    const srv = await serve(startStreamableServer({ mode: 'stateful' }));
    const t = track(new StreamableHttpTransport({ url: srv.url }));
    const c = client(t);
    await c.initialize();
    await srv.waitForGetStream();
    await srv.endSseStreams();
    await srv.waitForGetStream(2); // after the default 1 s retry
    srv.mcpServers[0]!.registerTool('late', {}, async () => ({ content: [] }));
    await c.waitFor((m) => m.method === 'notifications/tools/list_changed');
    expect(c.errors).toEqual([]);
  });

  it('handles JSON responses (enableJsonResponse)', async () => {
    const srv = await serve(startStreamableServer({ mode: 'stateful', json: true }));
    const t = track(new StreamableHttpTransport({ url: srv.url }));
    const c = client(t);
    await c.initialize();
    expect(t.session).toBeDefined();
    const list = await c.request('tools/list');
    expect(list.result.tools.length).toBeGreaterThan(0);
    expect(await c.callEcho('json')).toBe('json');
  });

  it('works statelessly: no session id, 405 on GET is accepted, no DELETE on close', async () => {
    const srv = await serve(startStreamableServer({ mode: 'stateless' }));
    const t = new StreamableHttpTransport({ url: srv.url });
    const c = client(t);
    await c.initialize();
    expect(t.session).toBeUndefined();
    expect(await c.callEcho('x')).toBe('x');
    await srv.waitForRequest((r) => r.method === 'GET');
    await t.close();
    expect(await c.closed).toBeUndefined();
    expect(srv.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);
    expect(c.errors).toEqual([]);
  });

  it('sends DELETE with the session id on close, calls sink.close once, and is idempotent', async () => {
    const srv = await serve(startStreamableServer({ mode: 'stateful' }));
    const t = new StreamableHttpTransport({ url: srv.url });
    const c = client(t);
    await c.initialize();
    const sid = t.session;
    await Promise.all([t.close(), t.close()]);
    await t.close();
    const del = await srv.waitForRequest((r) => r.method === 'DELETE');
    expect(del.headers['mcp-session-id']).toBe(sid);
    expect(await c.closed).toBeUndefined();
    expect(c.closeCount).toBe(1);
    await expect(c.callEcho('late')).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });

  it('treats 404 on a held session as session expiry: send rejects and sink.close fires once', async () => {
    const srv = await serve(startStreamableServer({ mode: 'stateful' }));
    const t = track(new StreamableHttpTransport({ url: srv.url }));
    const c = client(t);
    await c.initialize();
    // The GET stream starts in the background: were it still on its way, its own 404 could end the
    // session first and the POST below would meet a closed transport instead of the 404.
    await srv.waitForGetStream();
    srv.forgetSessions();
    const err = await c.request('tools/list').catch((e) => e);
    expect(err).toMatchObject({ code: 'HTTP_ERROR', status: expect.any(Number) });
    expect(err.status).toBe(404);
    const reason = await c.closed;
    expect(reason).toBeInstanceOf(GatewayError);
    expect((reason as GatewayError).code).toBe('CONNECTION_CLOSED');
    await t.close();
    expect(c.closeCount).toBe(1);
  });

  it('keeps 20 concurrent tools/call in flight and answers all', async () => {
    const srv = await serve(startStreamableServer({ mode: 'stateful' }));
    const t = track(new StreamableHttpTransport({ url: srv.url }));
    const c = client(t);
    await c.initialize();
    // barrier(20) answers only once all 20 calls are inside the server at the same time.
    const results = await Promise.all(Array.from({ length: 20 }, () => c.request('tools/call', { name: 'barrier', arguments: { n: 20 } })));
    expect(results.map((r) => r.result.content[0].text)).toEqual(Array(20).fill('released'));
  });

  it('resumes a POST stream closed before its response via GET with Last-Event-ID', async () => {
    const srv = await serve(startStreamableServer({ mode: 'stateful', eventStore: true, retryInterval: 10 }));
    const t = track(new StreamableHttpTransport({ url: srv.url }));
    const c = client(t);
    await c.initialize();
    const res = await c.request('tools/call', { name: 'resumable', arguments: {} });
    expect(res.result.content[0].text).toBe('after reconnect');
    const resume = srv.requests.find((r) => r.method === 'GET' && r.headers['last-event-id'] !== undefined);
    expect(resume).toBeDefined();
  });
});

describe('HTTP errors', () => {
  it('rejects with the status on 500 and 401, without the query string in the message', async () => {
    let status = 500;
    const srv = await serve(startRawServer((_req, res) => void res.writeHead(status, { 'content-type': 'text/plain' }).end('nope  \n  broken')));
    const t = track(new StreamableHttpTransport({ url: `${srv.url}/mcp?token=hunter2` }));
    const c = client(t);
    const e500 = await c.initialize().catch((e) => e);
    expect(e500).toMatchObject({ code: 'HTTP_ERROR', status: 500 });
    expect(e500.code).toBe('HTTP_ERROR');
    expect(e500.status).toBe(500);
    expect(e500.message).toBe(`POST ${srv.url}/mcp → 500 nope broken`);
    status = 401;
    const e401 = await c.initialize().catch((e) => e);
    expect(e401.status).toBe(401);
    expect(e401.message).not.toContain('hunter2');
  });

  it('names the URL on connection refused', async () => {
    const probe = http.createServer();
    probe.listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((r) => probe.close(() => r()));
    const t = track(new StreamableHttpTransport({ url: `http://u:pw@127.0.0.1:${port}/mcp?k=secret` }));
    const err = await client(t)
      .initialize()
      .catch((e) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err.message).toContain(`POST http://127.0.0.1:${port}/mcp failed`);
    expect(err.message).toContain('ECONNREFUSED');
    expect(err.message).not.toMatch(/secret|pw@/);
  });

  it('drops oversized and malformed messages through sink.error, fails the request they answered at once, and keeps going', async () => {
    const pad = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, result: { pad: 'x'.repeat(5000) } });
    const srv = await serve(
      startRawServer((_req, res, body) => {
        if (body.method === 'big-json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(pad(body.id));
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`event: message\ndata: ${pad(body.id)}\n\n`);
        // An oversized event split over several writes, so the parser's buffer limit trips.
        for (let i = 0; i < 5; i++) res.write(`data: ${'y'.repeat(400)}\n`);
        res.write('\ndata: {not json\n\n');
        res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { ok: true } })}\n\n`);
      }),
    );
    const t = track(new StreamableHttpTransport({ url: srv.url, maxMessageBytes: 1024 }));
    const c = client(t);
    await c.start();
    await t.send({ jsonrpc: '2.0', id: 'j', method: 'big-json' });
    await c.waitForError(/over the limit of 1024 bytes/);
    // The JSON body was the answer: its request fails now, not at its timeout.
    expect(c.failed.map((f) => f.id)).toEqual(['j']);
    // On a request's own SSE stream an oversized event is taken as its answer: the call fails at once.
    const sse = await c.request('sse');
    expect(sse.failed.message).toMatch(/over the limit of 1024 bytes/);
    // The stream is still read to its end: the next malformed event is reported, the last one delivered.
    await c.waitFor((m) => m.result?.ok === true);
    expect(c.errors.filter((e) => /over the limit of 1024 bytes/.test(e.message)).length).toBe(3);
    expect(c.errors.filter((e) => /malformed JSON/.test(e.message)).length).toBe(1);
    expect(c.messages).toHaveLength(1);
  });
});

describe('LegacySseTransport and auto', () => {
  it('talks 2024-11-05 HTTP+SSE directly and reports the stream ending as CONNECTION_CLOSED', async () => {
    const srv = await serve(startLegacySseServer());
    const t = track(new LegacySseTransport({ url: srv.url }));
    const c = client(t);
    await c.start();
    await c.initialize();
    expect(await c.callEcho('legacy')).toBe('legacy');
    await srv.endSseStreams();
    const reason = await c.closed;
    expect((reason as GatewayError).code).toBe('CONNECTION_CLOSED');
  });

  it('refuses a cross-origin endpoint and times out without one', async () => {
    const srv = await serve(
      startRawServer((req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        if (req.url === '/evil') res.write('event: endpoint\ndata: http://example.com/messages\n\n');
        else res.write(': nothing here\n\n');
      }),
    );
    const evil = new LegacySseTransport({ url: `${srv.url}/evil` });
    await expect(evil.start(NO_SINK)).rejects.toThrow(/not same-origin/);
    const silent = new LegacySseTransport({ url: `${srv.url}/silent`, endpointTimeoutMs: 200 });
    await expect(silent.start(NO_SINK)).rejects.toThrow(/no endpoint event within 200 ms/);
  });

  it('auto falls back to legacy SSE against an SSE-only server', async () => {
    const srv = await serve(startLegacySseServer());
    const t = track(createHttpTransport({ url: srv.url, transport: 'auto' }));
    expect(t).toBeInstanceOf(AutoHttpTransport);
    expect(t.kind).toBe('streamable-http');
    const c = client(t);
    await c.start();
    await c.initialize();
    expect(t.kind).toBe('sse');
    expect(await c.callEcho('fallback')).toBe('fallback');
    expect(srv.requests[0]).toMatchObject({ method: 'POST', path: '/sse' });
  });

  it('auto reports both failures when neither transport works', async () => {
    const srv = await serve(startRawServer((_req, res) => void res.writeHead(404).end('no such thing')));
    const t = track(createHttpTransport({ url: `${srv.url}/mcp`, transport: 'auto' }));
    const err = await client(t)
      .initialize()
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'HTTP_ERROR', status: expect.any(Number) });
    expect(err.status).toBe(404);
    expect(err.message).toBe(`POST ${srv.url}/mcp → 404 no such thing; legacy SSE fallback failed: GET ${srv.url}/mcp → 404 no such thing`);
    expect(srv.requests.map((r) => r.method)).toEqual(['POST', 'GET']);
  });

  it('auto stays on Streamable HTTP against a streamable server', async () => {
    const srv = await serve(startStreamableServer({ mode: 'stateful' }));
    const t = track(createHttpTransport({ url: srv.url, transport: 'auto' }));
    const c = client(t);
    await c.initialize();
    expect(await c.callEcho('modern')).toBe('modern');
    expect(t.kind).toBe('streamable-http');
    expect(srv.requests.some((r) => r.path.startsWith('/sse'))).toBe(false);
  });
});

describe('consumeSse', () => {
  async function run(chunks: string[], max: number) {
    const events: string[] = [];
    const errors: string[] = [];
    async function* body() {
      for (const c of chunks) yield Buffer.from(c);
    }
    await consumeSse(body(), max, { onEvent: (e) => events.push(sseText(e.data)), onerror: (e) => errors.push(e.message) });
    return { events, errors };
  }

  it('skips an event that outgrows the limit across chunks and resumes at the next blank line', async () => {
    const r = await run([`data: first\n\ndata: ${'a'.repeat(600)}`, 'a'.repeat(600), '\ndata: tail\r', '\n\r', '\ndata: {"ok":1}\n\n'], 1024);
    expect(r.events).toEqual(['first', '{"ok":1}']);
    expect(r.errors).toHaveLength(1);
  });

  it('reads every event, and reports each oversized one with its head, however the bytes are cut', async () => {
    const data = fc.stringMatching(/^[a-z0-9{}":, ]{0,40}$/);
    const event = fc.record({ data, big: fc.boolean(), crlf: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(fc.array(event, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 8 }), async (evs, cuts) => {
        const max = 200;
        const text = evs.map((e) => `data: ${e.big ? `head-${e.data}${'z'.repeat(e.crlf ? 300 : 1500)}` : e.data}${e.crlf ? '\r\n\r\n' : '\n\n'}`).join('');
        const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((x, y) => x - y);
        const chunks = [0, ...at].map((from, i, all) => text.slice(from, all[i + 1] ?? text.length)).filter((c) => c.length > 0);
        const events: string[] = [];
        const heads: (string | undefined)[] = [];
        async function* body() {
          for (const c of chunks) yield Buffer.from(c);
        }
        await consumeSse(body(), max, { onEvent: (e) => events.push(sseText(e.data)), onerror: () => {}, onTooLarge: (_e, head) => heads.push(head) });
        expect(events).toEqual(evs.filter((e) => !e.big).map((e) => e.data));
        expect(heads).toHaveLength(evs.filter((e) => e.big).length);
        for (const [i, e] of evs.filter((x) => x.big).entries()) expect(heads[i]?.startsWith(`head-${e.data}`)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('finds the boundary when the blank line is split between chunks', async () => {
    const r = await run([`data: ${'b'.repeat(2000)}`, '\n', '\n', 'data: next\n\n'], 1024);
    expect(r.events).toEqual(['next']);
    expect(r.errors).toHaveLength(1);
  });
});

describe('resource hygiene', () => {
  it('leaves no handles behind after close()', async () => {
    const before = process.getActiveResourcesInfo();
    const srv = await startStreamableServer({ mode: 'stateful' });
    const t = new StreamableHttpTransport({ url: srv.url });
    const c = client(t);
    await c.initialize();
    await srv.waitForGetStream();
    expect(await c.callEcho('bye')).toBe('bye');
    await t.close();
    await srv.close();
    // Closed handles leave the list on a later loop turn (libuv close callbacks): give it a few.
    // Compared as counts: leftovers of earlier tests may close meanwhile, ours must not remain.
    const excess = () => {
      const count = (list: string[]) => list.reduce((m, r) => m.set(r, (m.get(r) ?? 0) + 1), new Map<string, number>());
      const was = count(before);
      return [...count(process.getActiveResourcesInfo())].filter(([r, n]) => n > (was.get(r) ?? 0)).map(([r]) => r);
    };
    for (let turn = 0; turn < 20 && excess().length > 0; turn++) await new Promise((r) => setImmediate(r));
    expect(excess()).toEqual([]);
  });
});
