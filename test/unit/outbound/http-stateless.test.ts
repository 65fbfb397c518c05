// The 2026-07-28 Streamable HTTP transport against a small server that records what arrives:
// the headers of each POST, a JSON-RPC error in a 4xx as the request's answer, cancellation as
// the end of the request's stream (never a POSTed notification), and no session id ever.

import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { StatelessHttpTransport } from '../../../src/outbound/http-stateless.js';
import { client } from '../../fixtures/http/client.js';

interface Seen {
  method: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

type Reply = (req: http.IncomingMessage, res: http.ServerResponse, body: any) => void;

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function serve(reply: Reply): Promise<{ url: string; seen: Seen[]; streamClosed: (id: unknown) => Promise<void> }> {
  const seen: Seen[] = [];
  const closedStreams: unknown[] = [];
  const waiting: Array<{ id: unknown; resolve: () => void }> = [];
  const server = http.createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const body = text ? JSON.parse(text) : undefined;
    seen.push({ method: req.method!, headers: req.headers, body });
    res.on('close', () => {
      if (res.writableFinished) return;
      closedStreams.push(body?.id);
      for (const w of waiting.filter((w) => w.id === body?.id)) w.resolve();
    });
    reply(req, res, body);
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    seen,
    /** Resolves once the client closed the answer stream of request `id` before it ended. */
    streamClosed: (id) => (closedStreams.includes(id) ? Promise.resolve() : new Promise((resolve) => waiting.push({ id, resolve }))),
  };
}

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

const ok = (id: unknown, result: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, result: { resultType: 'complete', ...result } });

describe('StatelessHttpTransport', () => {
  it('puts the version, the method, the name and the annotated parameters in headers, and never a session id', async () => {
    const s = await serve((_req, res, body) => json(res, 200, ok(body.id), { 'mcp-session-id': 'do-not-echo' }));
    const t = new StatelessHttpTransport({
      url: s.url,
      protocolVersion: '2026-07-28',
      headers: { Authorization: 'Bearer x' },
      paramHeaders: (tool) => (tool === 'execute_sql' ? [{ name: 'Region', path: ['region'] }] : undefined),
    });
    const c = client(t);
    await c.request('tools/list');
    await c.request('tools/call', { name: 'execute_sql', arguments: { region: 'us-west1', query: 'SELECT 1' } });
    await c.request('resources/read', { uri: 'file:///a b' });
    await t.close();
    expect(s.seen.map((r) => r.method)).toEqual(['POST', 'POST', 'POST']);
    const [list, call, read] = s.seen.map((r) => r.headers);
    expect(list).toMatchObject({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list', authorization: 'Bearer x' });
    expect(list!['mcp-name']).toBeUndefined();
    expect(call).toMatchObject({ 'mcp-method': 'tools/call', 'mcp-name': 'execute_sql', 'mcp-param-region': 'us-west1' });
    expect(read).toMatchObject({ 'mcp-method': 'resources/read', 'mcp-name': 'file:///a b' });
    for (const h of [list, call, read]) expect(h!['mcp-session-id']).toBeUndefined();
  });

  it('takes a JSON-RPC error in a 4xx body as the answer, with our id even when the server put null', async () => {
    const s = await serve((_req, res, body) => {
      if (body.method === 'server/discover')
        return json(res, 400, { jsonrpc: '2.0', id: body.id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: 'x' } } });
      if (body.method === 'initialize') return json(res, 404, { jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'Method not found' } });
      return json(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: missing Mcp-Session-Id' } });
    });
    const c = client(new StatelessHttpTransport({ url: s.url, protocolVersion: '2026-07-28' }));
    expect(await c.request('server/discover')).toMatchObject({ id: 1, error: { code: -32022, data: { supported: ['2026-07-28'] } } });
    expect(await c.request('initialize')).toMatchObject({ id: 2, error: { code: -32601 } });
    expect(await c.request('tools/list')).toMatchObject({ id: 3, error: { code: -32000 } });
    await c.t.close();
  });

  it('rejects send() with the status when the body is no JSON-RPC error, and for 401 and 403 whatever it is', async () => {
    let status = 401;
    const s = await serve((_req, res, body) =>
      status === 405 ? res.writeHead(405, { allow: 'GET' }).end('nope') : json(res, status, { jsonrpc: '2.0', id: body.id, error: { code: -32001, message: 'no' } }),
    );
    const t = new StatelessHttpTransport({ url: s.url, protocolVersion: '2026-07-28' });
    for (const st of [401, 403, 405]) {
      status = st;
      const err = await t.send({ jsonrpc: '2.0', id: st, method: 'tools/list' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GatewayError);
      expect((err as GatewayError).status).toBe(st);
    }
    await t.close();
  });

  it('cancels a request by closing its stream; notifications/cancelled is never POSTed', async () => {
    const s = await serve((_req, res, body) => {
      if (body.params?.name === 'slow') {
        // Headers and a first event, then nothing: the answer is left to come.
        res
          .writeHead(200, { 'content-type': 'text/event-stream' })
          .write(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } })}\n\n`);
        return;
      }
      json(res, 200, ok(body.id));
    });
    const c = client(new StatelessHttpTransport({ url: s.url, protocolVersion: '2026-07-28' }));
    void c.request('tools/call', { name: 'slow' });
    await c.waitFor((m) => m.method === 'notifications/progress');
    await c.notify('notifications/cancelled', { requestId: 1, reason: 'the client gave up' });
    await c.notify('notifications/initialized');
    await s.streamClosed(1);
    await c.request('tools/list');
    expect(s.seen.map((r) => r.body?.method)).toEqual(['tools/call', 'tools/list']);
    await c.t.close();
  });
});
