// HttpPoster against a real HTTP server on 127.0.0.1: answers read whole or as a stream, every
// body bounded, keep-alive kept, and every POST in flight ended by abortAll.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Agent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpPoster, postStatusError } from '../../../src/outbound/http-post.js';
import { textOf } from '../../../src/jsonrpc/ndjson.js';

type Route = (req: IncomingMessage, res: ServerResponse, body: string) => void;

let server: Server;
let url: string;
let agent: Agent;
let route: Route;
const sockets = new Set<Socket>();

beforeEach(async () => {
  server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => route(req, res, Buffer.concat(parts).toString()));
  });
  server.on('connection', (s) => sockets.add(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp?x=1`;
  agent = new Agent({ connections: 4, pipelining: 1 });
  sockets.clear();
});

afterEach(async () => {
  await agent.destroy();
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

const post = (poster: HttpPoster, maxBytes = 1024, onStart?: (abort: (e: Error) => void) => void) =>
  poster.post({ headers: { 'content-type': 'application/json', 'x-test': 'yes' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}', headersTimeout: 5000, maxBytes, onStart });

describe('HttpPoster', () => {
  it('reads a JSON answer whole, with its status and headers, and sends the body and headers it was given', async () => {
    let seen: { path?: string; header?: string; body?: string } = {};
    route = (req, res, body) => {
      seen = { path: req.url, header: req.headers['x-test'] as string, body };
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' }).end('{"jsonrpc":"2.0","id":1,"result":{}}');
    };
    const res = await post(new HttpPoster(agent, url));
    expect(seen).toEqual({ path: '/mcp?x=1', header: 'yes', body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['mcp-session-id']).toBe('s1');
    expect(textOf(res.chunks)).toBe('{"jsonrpc":"2.0","id":1,"result":{}}');
    expect(res.size).toBe(36);
    expect(res.tooLarge).toBe(false);
    expect(res.stream).toBeUndefined();
  });

  it('keeps the connection for the next POST (keep-alive is not given up for speed)', async () => {
    route = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    const poster = new HttpPoster(agent, url);
    for (let i = 0; i < 20; i++) await post(poster);
    // One after the other: undici may open a second socket while the first is being released, never one per POST.
    expect(sockets.size).toBeLessThanOrEqual(2);
  });

  it('drops a body over maxBytes, announced by content-length or not', async () => {
    const poster = new HttpPoster(agent, url);
    route = (_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2000 }).end('x'.repeat(2000));
    expect(await post(poster)).toMatchObject({ statusCode: 200, tooLarge: true, chunks: [] });
    route = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('x'.repeat(600));
      setImmediate(() => res.end('y'.repeat(600)));
    };
    expect(await post(poster)).toMatchObject({ statusCode: 200, tooLarge: true, chunks: [] });
  });

  it('gives a 2xx SSE answer as a stream of its bytes, as they come', async () => {
    route = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      setImmediate(() => res.end('data: two\n\n'));
    };
    const res = await post(new HttpPoster(agent, url), 16);
    expect(res.stream).toBeDefined();
    let text = '';
    for await (const chunk of res.stream!) text += String(chunk);
    // A stream is bounded per event by its reader (consumeSse), not by the POST's maxBytes.
    expect(text).toBe('data: one\n\ndata: two\n\n');
  });

  it('says when a body broke off after the status came', async () => {
    route = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 100 });
      res.write('{"jsonrpc":');
      setImmediate(() => res.socket?.destroy());
    };
    const res = await post(new HttpPoster(agent, url));
    expect(res.statusCode).toBe(200);
    expect(res.cutShort).toBeInstanceOf(Error);
  });

  it('rejects when no status ever came (connection refused)', async () => {
    const closed = `http://127.0.0.1:1/mcp`;
    await expect(post(new HttpPoster(agent, closed))).rejects.toThrow();
  });

  it('abortAll ends a POST still waiting for its answer, and an SSE stream in progress', async () => {
    let arrived!: () => void;
    const firstArrived = new Promise<void>((r) => (arrived = r));
    let count = 0;
    route = (_req, res) => {
      if (count++ === 0) return arrived(); // never answered
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: open\n\n');
    };
    const poster = new HttpPoster(agent, url);
    const waiting = post(poster);
    await firstArrived;
    const streaming = await post(poster);
    expect(String(await new Promise((r) => streaming.stream!.once('data', r)))).toBe('data: open\n\n');
    const ended = new Promise((r) => streaming.stream!.once('error', r));
    poster.abortAll(new Error('closing'));
    await expect(waiting).rejects.toThrow('closing');
    await expect(ended).resolves.toBeInstanceOf(Error);
  });

  it('abort given to onStart ends that POST only', async () => {
    route = (req, res) => {
      if (req.url?.includes('hold')) return; // never answered
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    };
    const poster = new HttpPoster(agent, `${url}&hold`);
    let abort: ((e: Error) => void) | undefined;
    const held = post(poster, 1024, (a) => (abort = a));
    abort!(new Error('cancelled'));
    await expect(held).rejects.toThrow('cancelled');
    expect((await post(new HttpPoster(agent, url))).statusCode).toBe(200);
  });

  it('words an error status with the start of its body', async () => {
    route = (_req, res) => res.writeHead(503, { 'content-type': 'text/plain' }).end(`down   for\n maintenance ${'z'.repeat(400)}`);
    const res = await post(new HttpPoster(agent, url), 4096);
    const err = postStatusError('POST', 'http://h/mcp', res);
    expect(err.message).toMatch(/^POST http:\/\/h\/mcp → 503 down for maintenance z+…$/);
    expect(err.message.length).toBeLessThan(260);
    expect((err as { status?: number }).status).toBe(503);
  });
});
