// The misbehaving fixture's tools (echo, slow, garbage, big, cut, crash) over HTTP, written by hand
// on the wire so that it can break the rules: Streamable HTTP with JSON or SSE answers, legacy
// HTTP+SSE, and the stateless Streamable HTTP of 2026-07-28 (POST only, headers checked against
// the body, no session; `crash` stops it listening). It counts sockets, so a contract test can
// wait until every one has closed.

import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type HttpMode = 'json' | 'sse' | 'legacy' | 'modern-json' | 'modern-sse';

export interface ContractHttpServer {
  /** The URL to configure: /mcp for Streamable HTTP, /sse for legacy. */
  url: string;
  /** Resolves once every socket a client opened has closed. */
  socketsClosed(): Promise<void>;
  close(): Promise<void>;
}

type Message = Record<string, any>;
const text = (id: unknown, t: string) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: t }] } });
const sseEvent = (data: string) => `event: message\ndata: ${data}\n\n`;

/** What a tools/call makes the server write: messages in order, raw text, or a way to break. */
type Script = Array<{ message: Message } | { raw: string }> | 'cut' | 'crash';

function scriptFor(msg: Message): Script {
  const args = msg.params?.arguments ?? {};
  const token = msg.params?._meta?.progressToken;
  const progress = (p: number) => ({ message: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: p, total: 1 } } });
  switch (msg.params?.name) {
    case 'slow':
      return [...(token === undefined ? [] : [progress(0), progress(1)]), { message: text(msg.id, `slept ${Number(args.ms ?? 0)}`) }];
    case 'garbage':
      return [{ raw: 'this is not JSON {{{' }, { message: text(msg.id, 'ok after garbage') }];
    case 'big':
      return [{ message: text(msg.id, 'x'.repeat(Number(args.bytes ?? 0))) }];
    case 'cut':
    case 'crash':
      return msg.params.name;
    default:
      return [{ message: text(msg.id, String(args.text ?? '')) }];
  }
}

function answerTo(msg: Message): Script {
  if (msg.method === 'initialize') {
    return [{ message: { jsonrpc: '2.0', id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'contract-http', version: '1' } } } }];
  }
  if (msg.method === 'tools/call') return scriptFor(msg);
  return [{ message: { jsonrpc: '2.0', id: msg.id, result: {} } }];
}

async function readBody(req: http.IncomingMessage): Promise<Message> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return JSON.parse(body);
}

export async function startContractHttpServer(mode: HttpMode): Promise<ContractHttpServer> {
  const sockets = new Set<Socket>();
  const sessions = new Set<string>();
  /** Open GET streams (legacy: the session's only stream; Streamable: the notification stream). */
  const streams = new Map<string, http.ServerResponse>();
  let nextSession = 1;

  const server = http.createServer((req, res) => {
    res.on('error', () => {});
    const serve = mode === 'legacy' ? legacy : mode.startsWith('modern') ? modern : streamable;
    void serve(req, res).catch(() => res.destroy());
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });

  async function streamable(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const sid = req.headers['mcp-session-id'] as string | undefined;
    if (sid !== undefined && !sessions.has(sid)) return void res.writeHead(404).end('unknown session');
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write(': open\n\n');
      streams.set(sid ?? '', res);
      return;
    }
    if (req.method === 'DELETE') {
      sessions.delete(sid!);
      streams.get(sid!)?.end();
      return void res.writeHead(200).end();
    }
    const msg = await readBody(req);
    if (msg.id === undefined || !msg.method) return void res.writeHead(202).end();
    const headers: Record<string, string> = {};
    if (msg.method === 'initialize') {
      const id = `session-${nextSession++}`;
      sessions.add(id);
      headers['mcp-session-id'] = id;
    }
    const script = answerTo(msg);
    if (script === 'crash') {
      // The server restarted: it no longer knows the session.
      sessions.clear();
      return void res.writeHead(404).end('unknown session');
    }
    writeScript(res, script, headers, mode === 'json' ? 'json' : 'sse');
  }

  /** Answers one POST: its messages as a JSON body (several as a batch) or as an SSE stream. */
  function writeScript(res: http.ServerResponse, script: Exclude<Script, 'crash'>, headers: Record<string, string>, wire: 'json' | 'sse'): void {
    if (script === 'cut') {
      if (wire === 'json') {
        // Promises a body it never finishes.
        res.writeHead(200, { ...headers, 'content-type': 'application/json', 'content-length': '1000' });
        return void res.write('{"jsonrpc":"2.0",', () => res.socket?.destroy());
      }
      // One notification, no event ids (so no resuming), and the stream ends without the answer.
      res.writeHead(200, { ...headers, 'content-type': 'text/event-stream' });
      return void res.end(sseEvent(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } })));
    }
    if (wire === 'json') {
      // Several messages go as one batch body; raw text goes alone, in place of the answer.
      const raw = script.find((s) => 'raw' in s) as { raw: string } | undefined;
      const messages = script.filter((s) => 'message' in s).map((s) => (s as { message: Message }).message);
      const body = raw ? raw.raw : JSON.stringify(messages.length === 1 ? messages[0] : messages);
      // No Content-Length: the body is chunked, so the transport finds an oversized one by reading
      // it (an oversized Content-Length crashes the process today: see streamable-http-crash.test.ts).
      return void res.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(body);
    }
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream' });
    res.end(script.map((s) => sseEvent('raw' in s ? s.raw : JSON.stringify(s.message))).join(''));
  }

  async function modern(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    const msg = await readBody(req);
    const refuse = (status: number, code: number, message: string) =>
      void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id ?? null, error: { code, message } }));
    // What the transport must put on every POST of this revision, and must not.
    if (req.headers['mcp-protocol-version'] !== '2026-07-28') return refuse(400, -32020, 'MCP-Protocol-Version header missing or wrong');
    if (req.headers['mcp-method'] !== msg.method) return refuse(400, -32020, 'Mcp-Method header does not match the body');
    if (req.headers['mcp-session-id'] !== undefined) return refuse(400, -32600, 'no sessions in this revision');
    if (msg.id === undefined) return void res.writeHead(202).end();
    const script = answerTo(msg);
    if (script === 'crash') {
      // The server is gone: nothing listens at the URL any more.
      server.close();
      server.closeAllConnections();
      return;
    }
    writeScript(res, script, {}, mode === 'modern-json' ? 'json' : 'sse');
  }

  async function legacy(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/sse' && req.method === 'GET') {
      const id = `session-${nextSession++}`;
      streams.set(id, res);
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write(`event: endpoint\ndata: /messages?session=${id}\n\n`);
      return;
    }
    if (url.pathname !== '/messages' || req.method !== 'POST') return void res.writeHead(405).end('method not allowed');
    const id = url.searchParams.get('session') ?? '';
    const stream = streams.get(id);
    if (!stream) return void res.writeHead(404).end('unknown session');
    const msg = await readBody(req);
    res.writeHead(202).end('Accepted');
    if (msg.id === undefined || !msg.method) return;
    const script = answerTo(msg);
    if (script === 'crash' || script === 'cut') {
      streams.delete(id);
      return void stream.end();
    }
    for (const s of script) stream.write(sseEvent('raw' in s ? s.raw : JSON.stringify(s.message)));
  }

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${mode === 'legacy' ? '/sse' : '/mcp'}`,
    async socketsClosed() {
      await Promise.all([...sockets].map((s) => (s.destroyed ? undefined : once(s, 'close'))));
    },
    async close() {
      for (const s of streams.values()) s.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
