// The inbound Streamable HTTP endpoint against a fake session host, driven by raw node:http
// requests (status codes, headers, framing) and by the official SDK client (interop).

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdirSync, readdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import ts from 'typescript';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointSession, SessionOpener } from '../../src/inbound/session-opener.js';
import { ByteBudget } from '../../src/inbound/budget.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../../src/protocol/mcp.js';
import { startHttpEndpoint } from '../../src/inbound/http-endpoint.js';
import type { HttpEndpoint } from '../../src/inbound/http-endpoint-options.js';
import { ErrorCode, errorResponse, resultResponse, type JsonRpcMessage, type JsonRpcRequest, type JsonRpcResponse } from '../../src/protocol/jsonrpc.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const LIMIT = 64 * 1024;
const ACCEPT = 'application/json, text/event-stream';
const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: ACCEPT };

// ---------------------------------------------------------------------------------------------
// A fake session host: just enough MCP to exercise the transport.

class FakeSession implements EndpointSession {
  readonly id = randomUUID();
  protocolVersion: string | undefined;
  readonly budget = new ByteBudget(1 << 30, 'this session', 'limits.sessionBytesInFlight', 'session');
  inFlightCount = 0;
  closed = false;
  readonly received: JsonRpcMessage[] = [];
  /**
   * What tests wait on instead of sleeping: `received` (a message reached handle), `answered`
   * (a request's response went back to the endpoint, which has then had its turn to send it),
   * `late-related-sent` (late_related has made its late related call).
   */
  readonly events = new EventEmitter();
  private readonly hanging: Array<() => void> = [];
  private readonly gated: Array<() => void> = [];

  constructor(readonly push: (message: JsonRpcMessage) => void) {}

  async handle(message: JsonRpcMessage, related?: (message: JsonRpcMessage) => void): Promise<JsonRpcResponse | undefined> {
    this.received.push(message);
    this.events.emit('received', message);
    const response = await this.respond(message, related);
    // The endpoint sends the response in a chain of microtasks; setImmediate runs after all of them.
    if (response !== undefined) setImmediate(() => this.events.emit('answered', response.id));
    return response;
  }

  /** Resolves once a message matching `match` has reached handle (now or earlier). */
  reached(match: (message: JsonRpcMessage) => boolean): Promise<void> {
    if (this.received.some(match)) return Promise.resolve();
    return when(this.events, 'received', match);
  }

  /** Lets every `gated_with_progress` call go on. */
  release(): void {
    for (const resolve of this.gated.splice(0)) resolve();
  }

  private async respond(message: JsonRpcMessage, related?: (message: JsonRpcMessage) => void): Promise<JsonRpcResponse | undefined> {
    if (!('method' in message) || !('id' in message)) return undefined;
    const request = message as JsonRpcRequest;
    const params = request.params ?? {};
    switch (request.method) {
      case 'initialize': {
        if (params.clientInfo?.name === 'reject-me') return errorResponse(request.id, ErrorCode.InvalidParams, 'go away');
        const asked = params.protocolVersion as string;
        this.protocolVersion = (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(asked) ? asked : SUPPORTED_PROTOCOL_VERSIONS[0];
        return resultResponse(request.id, {
          protocolVersion: this.protocolVersion,
          capabilities: { tools: { listChanged: true } },
          serverInfo: { name: 'fake', version: '0' },
        });
      }
      case 'ping':
        return resultResponse(request.id, {});
      case 'tools/list':
        return resultResponse(request.id, {
          tools: [{ name: 'echo', description: 'Echoes its arguments', inputSchema: { type: 'object' } }],
        });
      case 'tools/call':
        return this.call(request, related);
      default:
        return errorResponse(request.id, ErrorCode.MethodNotFound, `no ${request.method}`);
    }
  }

  private async call(request: JsonRpcRequest, related?: (message: JsonRpcMessage) => void): Promise<JsonRpcResponse> {
    const { name, arguments: args = {} } = request.params as { name: string; arguments?: Record<string, unknown> };
    const progressToken = request.params?._meta?.progressToken ?? 'no-token';
    const progress = (n: number) => related?.({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress: n, total: 2 } });
    switch (name) {
      case 'slow_with_progress':
        progress(1);
        await delay(Number(args.ms ?? 20));
        progress(2);
        return resultResponse(request.id, { content: [{ type: 'text', text: 'done' }] });
      case 'gated_with_progress':
        progress(1);
        await new Promise<void>((resolve) => this.gated.push(resolve));
        progress(2);
        return resultResponse(request.id, { content: [{ type: 'text', text: 'done' }] });
      case 'progress_then_fail':
        progress(1);
        return errorResponse(request.id, ErrorCode.InternalError, 'failed after progress');
      case 'late_related':
        setTimeout(() => {
          progress(9);
          this.events.emit('late-related-sent');
        }, 10);
        return resultResponse(request.id, { content: [{ type: 'text', text: 'early' }] });
      case 'hang':
        await new Promise<void>((resolve) => this.hanging.push(resolve));
        return errorResponse(request.id, ErrorCode.InternalError, 'session closed');
      default:
        return resultResponse(request.id, { content: [{ type: 'text', text: JSON.stringify(args) }] });
    }
  }

  close(): void {
    this.closed = true;
    for (const resolve of this.hanging.splice(0)) resolve();
  }
}

class FakeHost implements SessionOpener {
  readonly sessions: FakeSession[] = [];
  readonly budget = new ByteBudget(1 << 30, 'the gateway', 'limits.totalBytesInFlight', 'gateway');
  openSession(push: (message: JsonRpcMessage) => void): EndpointSession {
    const session = new FakeSession(push);
    this.sessions.push(session);
    return session;
  }
  byId(id: string): FakeSession {
    const session = this.sessions.find((s) => s.id === id);
    if (!session) throw new Error(`no session ${id}`);
    return session;
  }
}

// ---------------------------------------------------------------------------------------------
// Raw HTTP helpers (node:http gives full control over Host, Origin, framing).

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

interface RawOptions {
  method?: string;
  path?: string;
  headers?: Record<string, string | number>;
  body?: string;
  /** Sent with chunked transfer encoding, one write each. */
  chunks?: Buffer[];
}

function raw(url: string, options: RawOptions = {}): Promise<RawResponse> {
  const target = new URL(options.path ?? '', url);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(target, { method: options.method ?? 'POST', headers: options.headers, agent: false }, (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    // Early answers (413) may close the socket while we still write: that is expected.
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    if (options.chunks) {
      for (const chunk of options.chunks) req.write(chunk);
      req.end();
    } else {
      req.end(options.body);
    }
  });
}

const rpc = (method: string, params?: Record<string, unknown>, id: number | string = 1) => JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });

const initBody = (name = 'raw') => rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1' } });

async function initialize(url: string): Promise<string> {
  const res = await raw(url, { headers: JSON_HEADERS, body: initBody() });
  expect(res.status).toBe(200);
  const id = res.headers['mcp-session-id'];
  expect(typeof id).toBe('string');
  return id as string;
}

function sessionHeaders(id: string): Record<string, string> {
  return { ...JSON_HEADERS, 'Mcp-Session-Id': id, 'MCP-Protocol-Version': '2025-11-25' };
}

interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split('\n\n')) {
    const event: SseEvent = { data: '' };
    let any = false;
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') event.id = value;
      else if (field === 'event') event.event = value;
      else if (field === 'data') event.data += value;
      any = true;
    }
    if (any) events.push(event);
  }
  return events;
}

/**
 * The endpoint keeps no events to replay, so it must send no SSE ids: a client that saw one would
 * try to resume with Last-Event-ID in vain. `text` must hold at least one event.
 */
function expectNoEventIds(text: string): void {
  const events = parseSse(text);
  expect(events.length).toBeGreaterThan(0);
  expect(events.filter((e) => e.id !== undefined)).toEqual([]);
  expect(text).not.toMatch(/^id(:|\r?$)/m);
}

/** Opens a GET stream and resolves once `count` message events arrived (the stream stays open). */
function openGetStream(url: string, headers: Record<string, string>) {
  let text = '';
  let status = 0;
  let ended = false;
  const checks = new Set<() => void>();
  const wake = () => {
    for (const check of [...checks]) check();
  };
  const req = http.request(url, { method: 'GET', headers, agent: false }, (res) => {
    status = res.statusCode!;
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      text += chunk;
      wake();
    });
  });
  req.on('error', () => {});
  req.on('close', () => {
    ended = true;
    wake();
  });
  req.end();
  const events = () => parseSse(text).filter((e) => e.event === 'message');
  return {
    get status() {
      return status;
    },
    get text() {
      return text;
    },
    events,
    /** Resolves once `predicate` holds, re-checked on every chunk; fails if the stream ends first. */
    waitFor(predicate: () => boolean, ms = 4000): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        const settle = (err?: Error) => {
          clearTimeout(timer);
          checks.delete(check);
          if (err) reject(err);
          else resolve();
        };
        const check = () => {
          if (predicate()) settle();
          else if (ended) settle(new Error(`stream ended first; stream so far: ${text}`));
        };
        const timer = setTimeout(() => settle(new Error(`timed out; stream so far: ${text}`)), ms);
        checks.add(check);
        check();
      });
    },
    close: () => req.destroy(),
  };
}

/** Only for the fake server's behaviour (a slow tool), never to wait for state. */
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The next `name` event on `emitter` whose first argument satisfies `match`. */
function when(emitter: EventEmitter, name: string, match: (value: any) => boolean = () => true): Promise<void> {
  return new Promise((resolve) => {
    const listener = (value: unknown) => {
      if (!match(value)) return;
      emitter.off(name, listener);
      resolve();
    };
    emitter.on(name, listener);
  });
}

async function sdkClient(url: string, name = 'sdk-test'): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

// ---------------------------------------------------------------------------------------------

let host: FakeHost;
let endpoint: HttpEndpoint;
let url: string;
/** Emits `get-stream-closed` with the session id once the endpoint has seen a GET stream close. */
const endpointEvents = new EventEmitter();

beforeAll(async () => {
  host = new FakeHost();
  endpoint = await startHttpEndpoint(host, {
    host: '127.0.0.1',
    port: 0,
    path: '/mcp',
    allowedOrigins: ['https://app.example.com'],
    maxMessageBytes: LIMIT,
    onGetStreamClosed: (sessionId) => endpointEvents.emit('get-stream-closed', sessionId),
  });
  url = endpoint.url;
});

afterAll(async () => {
  await endpoint.close();
});

describe('raw HTTP: sessions and replies', () => {
  it('serves http://127.0.0.1:PORT/mcp', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('initialize opens a session and returns its id in Mcp-Session-Id', async () => {
    const before = endpoint.sessionCount();
    const res = await raw(url, { headers: JSON_HEADERS, body: initBody() });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    const id = res.headers['mcp-session-id'] as string;
    expect(id).toMatch(/^[\x21-\x7e]+$/);
    expect(JSON.parse(res.body)).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'fake' } } });
    expect(endpoint.sessionCount()).toBe(before + 1);
  });

  it('a failed initialize keeps no session', async () => {
    const before = endpoint.sessionCount();
    const opened = host.sessions.length;
    const res = await raw(url, { headers: JSON_HEADERS, body: initBody('reject-me') });
    expect(res.status).toBe(200);
    expect(res.headers['mcp-session-id']).toBeUndefined();
    expect(JSON.parse(res.body).error.code).toBe(ErrorCode.InvalidParams);
    expect(endpoint.sessionCount()).toBe(before);
    expect(host.sessions[opened]!.closed).toBe(true);
  });

  it('answers a request with JSON and notifications with 202 and no body', async () => {
    const id = await initialize(url);
    const note = await raw(url, { headers: sessionHeaders(id), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    expect(note.status).toBe(202);
    expect(note.body).toBe('');
    const list = await raw(url, { headers: sessionHeaders(id), body: rpc('tools/list', undefined, 7) });
    expect(list.status).toBe(200);
    expect(list.headers['mcp-session-id']).toBe(id);
    expect(JSON.parse(list.body)).toMatchObject({ id: 7, result: { tools: [{ name: 'echo' }] } });
    // A response from the client (to a server-to-client request) is accepted the same way.
    const reply = await raw(url, { headers: sessionHeaders(id), body: JSON.stringify({ jsonrpc: '2.0', id: 'srv-1', result: {} }) });
    expect(reply.status).toBe(202);
    expect(host.byId(id).received.map((m) => ('method' in m ? m.method : 'response'))).toEqual(['initialize', 'notifications/initialized', 'tools/list', 'response']);
  });

  it('ignores the query string and accepts a missing MCP-Protocol-Version', async () => {
    const id = await initialize(url);
    const res = await raw(url, {
      path: '/mcp?x=1',
      headers: { ...JSON_HEADERS, 'Mcp-Session-Id': id },
      body: rpc('ping'),
    });
    expect(res.status).toBe(200);
  });

  it('switches to SSE when a related message comes before the response', async () => {
    const id = await initialize(url);
    const res = await raw(url, {
      headers: sessionHeaders(id),
      body: rpc('tools/call', { name: 'slow_with_progress', arguments: {}, _meta: { progressToken: 'tok' } }, 42),
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['mcp-session-id']).toBe(id);
    const events = parseSse(res.body);
    expect(events.map((e) => JSON.parse(e.data))).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok', progress: 1, total: 2 } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok', progress: 2, total: 2 } },
      { jsonrpc: '2.0', id: 42, result: { content: [{ type: 'text', text: 'done' }] } },
    ]);
    expect(events.every((e) => e.event === 'message')).toBe(true);
    expectNoEventIds(res.body);
    // A second SSE reply in the same session carries no ids either.
    const again = await raw(url, { headers: sessionHeaders(id), body: rpc('tools/call', { name: 'slow_with_progress' }, 43) });
    expect(again.headers['content-type']).toBe('text/event-stream');
    expect(parseSse(again.body).map((e) => JSON.parse(e.data))).toHaveLength(3);
    expect(JSON.parse(parseSse(again.body)[2]!.data)).toMatchObject({ id: 43, result: { content: [{ text: 'done' }] } });
    expectNoEventIds(again.body);
  });

  it('ends the SSE stream with an error response too', async () => {
    const id = await initialize(url);
    const res = await raw(url, { headers: sessionHeaders(id), body: rpc('tools/call', { name: 'progress_then_fail' }, 5) });
    expect(res.headers['content-type']).toBe('text/event-stream');
    const events = parseSse(res.body).map((e) => JSON.parse(e.data));
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({ id: 5, error: { message: 'failed after progress' } });
  });

  it('drops related messages that come after the response', async () => {
    const id = await initialize(url);
    const session = host.byId(id);
    // A GET stream is open, so a late message that leaked anywhere would show up on it.
    const stream = openGetStream(url, { Accept: 'text/event-stream', 'Mcp-Session-Id': id });
    await stream.waitFor(() => stream.text.includes('stream open'));
    const lateSent = when(session.events, 'late-related-sent');
    const res = await raw(url, { headers: sessionHeaders(id), body: rpc('tools/call', { name: 'late_related' }) });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(JSON.parse(res.body)).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'early' }] } });
    await lateSent;
    // A marker pushed after the late message: it must be the first and only event to arrive.
    const marker: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/message', params: { marker: true } };
    session.push(marker);
    await stream.waitFor(() => stream.events().length > 0);
    expect(stream.events().map((e) => JSON.parse(e.data))).toEqual([marker]);
    const ping = await raw(url, { headers: sessionHeaders(id), body: rpc('ping') });
    expect(ping.status).toBe(200);
    stream.close();
  });

  it('survives a client that disconnects mid-request', async () => {
    const id = await initialize(url);
    const session = host.byId(id);
    const answered = when(session.events, 'answered', (requestId) => requestId === 'gone');
    const req = http.request(url, { method: 'POST', headers: sessionHeaders(id), agent: false });
    req.on('error', () => {});
    // The SSE headers come with the first progress; the client leaves right then.
    const left = new Promise((resolve) => req.on('close', resolve));
    req.on('response', () => req.destroy());
    req.end(rpc('tools/call', { name: 'gated_with_progress' }, 'gone'));
    await left;
    // Only now the tool sends more progress and its response, to a client that is gone.
    session.release();
    await answered;
    const ping = await raw(url, { headers: sessionHeaders(id), body: rpc('ping') });
    expect(ping.status).toBe(200);
    expect(host.byId(id).closed).toBe(false);
  });

  it('DELETE ends the session; later requests get 404', async () => {
    const id = await initialize(url);
    const before = endpoint.sessionCount();
    const del = await raw(url, { method: 'DELETE', headers: { 'Mcp-Session-Id': id } });
    expect(del.status).toBe(200);
    expect(del.body).toBe('');
    expect(host.byId(id).closed).toBe(true);
    expect(endpoint.sessionCount()).toBe(before - 1);
    const after = await raw(url, { headers: sessionHeaders(id), body: rpc('ping') });
    expect(after.status).toBe(404);
    expect(JSON.parse(after.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { message: 'Session not found' } });
    expect((await raw(url, { method: 'DELETE', headers: { 'Mcp-Session-Id': id } })).status).toBe(404);
  });

  it('DELETE finishes requests still in flight', async () => {
    const id = await initialize(url);
    const pending = raw(url, { headers: sessionHeaders(id), body: rpc('tools/call', { name: 'hang' }) });
    await host.byId(id).reached((m) => 'method' in m && m.method === 'tools/call');
    expect((await raw(url, { method: 'DELETE', headers: { 'Mcp-Session-Id': id } })).status).toBe(200);
    expect((await pending).status).toBe(404);
  });
});

describe('raw HTTP: refusals', () => {
  it('404 for any other path, 405 with Allow for other methods', async () => {
    const other = await raw(url, { path: '/mcp/x', headers: JSON_HEADERS, body: initBody() });
    expect(other.status).toBe(404);
    expect((await raw(url, { path: '/', method: 'GET' })).status).toBe(404);
    for (const method of ['PUT', 'PATCH', 'OPTIONS']) {
      const res = await raw(url, { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.allow).toBe('GET, POST, DELETE');
    }
  });

  it('403 for a foreign Origin, with a JSON-RPC error body', async () => {
    const res = await raw(url, { headers: { ...JSON_HEADERS, Origin: 'https://evil.example' }, body: initBody() });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number) } });
    expect((await raw(url, { headers: { ...JSON_HEADERS, Origin: 'null' }, body: initBody() })).status).toBe(403);
  });

  it('allows loopback and configured Origins', async () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:1', 'https://app.example.com']) {
      const res = await raw(url, { headers: { ...JSON_HEADERS, Origin: origin }, body: initBody() });
      expect(res.status, origin).toBe(200);
    }
  });

  it('403 for a foreign Host (DNS rebinding), with or without Origin', async () => {
    const badHost = await raw(url, { headers: { ...JSON_HEADERS, Host: 'evil.example:1234' }, body: initBody() });
    expect(badHost.status).toBe(403);
    const both = await raw(url, {
      headers: { ...JSON_HEADERS, Host: 'evil.example', Origin: 'http://evil.example' },
      body: initBody(),
    });
    expect(both.status).toBe(403);
    const port = new URL(url).port;
    const okHost = await raw(url, { headers: { ...JSON_HEADERS, Host: `localhost:${port}` }, body: initBody() });
    expect(okHost.status).toBe(200);
  });

  it('415 unless Content-Type is application/json (parameters allowed)', async () => {
    const res = await raw(url, { headers: { Accept: ACCEPT, 'Content-Type': 'text/plain' }, body: initBody() });
    expect(res.status).toBe(415);
    const charset = await raw(url, { headers: { Accept: ACCEPT, 'Content-Type': 'application/json; charset=utf-8' }, body: initBody() });
    expect(charset.status).toBe(200);
  });

  it('406 unless Accept covers JSON and SSE; */* counts', async () => {
    for (const accept of ['application/json', 'text/event-stream', 'text/html']) {
      const res = await raw(url, { headers: { 'Content-Type': 'application/json', Accept: accept }, body: initBody() });
      expect(res.status, accept).toBe(406);
    }
    const wild = await raw(url, { headers: { 'Content-Type': 'application/json', Accept: '*/*' }, body: initBody() });
    expect(wild.status).toBe(200);
  });

  it('413 for a body over the limit, declared by Content-Length', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(LIMIT) } });
    const res = await raw(url, { headers: { ...JSON_HEADERS, 'Content-Length': Buffer.byteLength(body) }, body });
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe('close');
  });

  it('413 for a chunked body that grows over the limit, without reading it all', async () => {
    const chunks = Array.from({ length: 64 }, () => Buffer.alloc(16 * 1024, 0x20));
    const res = await raw(url, { headers: JSON_HEADERS, chunks });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.message).toMatch(/Payload Too Large/);
  });

  it('accepts a chunked body under the limit', async () => {
    const body = Buffer.from(initBody());
    const res = await raw(url, { headers: JSON_HEADERS, chunks: [body.subarray(0, 10), body.subarray(10)] });
    expect(res.status).toBe(200);
  });

  it('400 with -32700 for malformed JSON', async () => {
    for (const body of ['{"jsonrpc": "2.0", ', '', 'nope']) {
      const res = await raw(url, { headers: JSON_HEADERS, body });
      expect(res.status, body).toBe(400);
      expect(JSON.parse(res.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } });
    }
  });

  it('400 with -32600 for a batch and for a non-JSON-RPC message', async () => {
    const batch = await raw(url, { headers: JSON_HEADERS, body: `[${initBody()}]` });
    expect(batch.status).toBe(400);
    expect(JSON.parse(batch.body).error).toMatchObject({ code: -32600, message: expect.stringMatching(/batch/i) });
    const invalid = await raw(url, { headers: JSON_HEADERS, body: '{"jsonrpc":"1.0","id":1,"method":"ping"}' });
    expect(invalid.status).toBe(400);
    expect(JSON.parse(invalid.body).error.code).toBe(-32600);
  });

  it('400 without Mcp-Session-Id, 404 for an unknown one, 400 for a second initialize', async () => {
    const missing = await raw(url, { headers: JSON_HEADERS, body: rpc('tools/list') });
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.body).error.message).toMatch(/missing Mcp-Session-Id/);
    const unknown = await raw(url, { headers: { ...JSON_HEADERS, 'Mcp-Session-Id': 'nope' }, body: rpc('tools/list') });
    expect(unknown.status).toBe(404);
    const id = await initialize(url);
    const again = await raw(url, { headers: sessionHeaders(id), body: initBody() });
    expect(again.status).toBe(400);
    expect(JSON.parse(again.body).error.message).toMatch(/already initialized/);
  });

  it('400 for an unsupported MCP-Protocol-Version', async () => {
    const id = await initialize(url);
    const headers = { ...sessionHeaders(id), 'MCP-Protocol-Version': '1999-01-01' };
    expect((await raw(url, { headers, body: rpc('ping') })).status).toBe(400);
    expect((await raw(url, { method: 'GET', headers })).status).toBe(400);
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      const ok = await raw(url, { headers: { ...headers, 'MCP-Protocol-Version': version }, body: rpc('ping') });
      expect(ok.status, version).toBe(200);
    }
  });
});

describe('raw HTTP: GET stream', () => {
  it('refuses GET without text/event-stream, without session, with an unknown session', async () => {
    const id = await initialize(url);
    expect((await raw(url, { method: 'GET', headers: { Accept: 'application/json', 'Mcp-Session-Id': id } })).status).toBe(406);
    // Without a session there is nothing to stream: 405 naming POST, as a 2026-07-28 server answers.
    const bare = await raw(url, { method: 'GET', headers: { Accept: 'text/event-stream' } });
    expect(bare.status).toBe(405);
    expect(bare.headers.allow).toBe('POST');
    expect((await raw(url, { method: 'GET', headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': 'nope' } })).status).toBe(404);
  });

  it('delivers pushes, allows one stream per session (409), and buffers while none is open', async () => {
    const id = await initialize(url);
    const session = host.byId(id);
    const headers = { Accept: 'text/event-stream', 'Mcp-Session-Id': id };
    const first = openGetStream(url, headers);
    await first.waitFor(() => first.text.includes('stream open'));
    expect(first.status).toBe(200);
    session.push({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await first.waitFor(() => first.events().length === 1);
    expect(JSON.parse(first.events()[0]!.data)).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expectNoEventIds(first.text);

    expect((await raw(url, { method: 'GET', headers })).status).toBe(409);

    const firstClosed = when(endpointEvents, 'get-stream-closed', (sessionId) => sessionId === id);
    first.close();
    await firstClosed;
    // No stream now: pushes wait in a bounded backlog (the oldest go first).
    for (let i = 0; i < 150; i++) session.push({ jsonrpc: '2.0', method: 'notifications/message', params: { i } });
    const second = openGetStream(url, headers);
    await second.waitFor(() => second.events().length === 100);
    const seen = second.events().map((e) => JSON.parse(e.data).params.i);
    expect(seen[0]).toBe(50);
    expect(seen.at(-1)).toBe(149);
    expectNoEventIds(second.text);
    second.close();
  });

  it('DELETE ends the GET stream', async () => {
    const id = await initialize(url);
    const headers = { Accept: 'text/event-stream', 'Mcp-Session-Id': id };
    const req = http.request(url, { method: 'GET', headers, agent: false });
    req.on('error', () => {});
    // Response headers come only once the endpoint has made this the session's GET stream.
    const res = await new Promise<http.IncomingMessage>((resolve) => req.on('response', resolve).end());
    expect(res.statusCode).toBe(200);
    res.resume();
    // true for a clean end of the response, false if the connection went away without one.
    const ended = new Promise<boolean>((resolve) => {
      res.on('end', () => resolve(true));
      res.on('close', () => resolve(false));
    });
    expect((await raw(url, { method: 'DELETE', headers: { 'Mcp-Session-Id': id } })).status).toBe(200);
    expect(await ended).toBe(true);
  });
});

describe('official SDK client', () => {
  const open: Client[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });

  it('initializes, lists and calls tools', async () => {
    const { client, transport } = await sdkClient(url);
    open.push(client);
    expect(transport.sessionId).toBeDefined();
    expect(client.getServerVersion()).toEqual({ name: 'fake', version: '0' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['echo']);
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: '{"text":"hi"}' }]);
    // The SDK sends the negotiated version on later requests, and it was accepted.
    expect(host.byId(transport.sessionId!).protocolVersion).toBe('2025-11-25');
  });

  it('receives progress through the POST SSE stream', async () => {
    const { client } = await sdkClient(url);
    open.push(client);
    const seen: number[] = [];
    const result = await client.callTool({ name: 'slow_with_progress', arguments: {} }, undefined, {
      onprogress: (p) => seen.push(p.progress),
    });
    expect(seen).toEqual([1, 2]);
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
  });

  it('receives a pushed list_changed on the GET stream', async () => {
    const { client, transport } = await sdkClient(url);
    open.push(client);
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    host.byId(transport.sessionId!).push({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await changed;
  });

  it('sees the session end after terminateSession (DELETE)', async () => {
    const { client, transport } = await sdkClient(url);
    open.push(client);
    const id = transport.sessionId!;
    await transport.terminateSession();
    expect(host.byId(id).closed).toBe(true);
    expect((await raw(url, { headers: sessionHeaders(id), body: rpc('ping') })).status).toBe(404);
  });

  it('serves 50 concurrent clients', async () => {
    const before = endpoint.sessionCount();
    const clients = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const { client } = await sdkClient(url, `client-${i}`);
        open.push(client);
        const result = await client.callTool({ name: 'echo', arguments: { i } });
        expect(result.content).toEqual([{ type: 'text', text: JSON.stringify({ i }) }]);
        return client;
      }),
    );
    expect(clients).toHaveLength(50);
    expect(endpoint.sessionCount()).toBe(before + 50);
  });
});

describe('close()', () => {
  it('ends sessions and streams and leaves no handles: the process exits by itself', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-http-'));
    try {
      // Node 20 cannot run TypeScript: transpile the endpoint and its imports into a scratch tree.
      // Every source file: the endpoint's imports change, and a hand-kept list goes stale.
      const sources = (readdirSync(join(REPO, 'src'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => join('src', f));
      for (const file of sources) {
        const out = join(dir, file.replace(/\.ts$/, '.js'));
        mkdirSync(dirname(out), { recursive: true });
        const { outputText } = ts.transpileModule(readFileSync(join(REPO, file), 'utf8'), {
          compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
        });
        writeFileSync(out, outputText);
      }
      const sdk = (p: string) => pathToFileURL(join(REPO, 'node_modules/@modelcontextprotocol/sdk/dist/esm', p)).href;
      writeFileSync(
        join(dir, 'child.mjs'),
        CHILD_SCRIPT.replace('ENDPOINT', pathToFileURL(join(dir, 'src/inbound/http-endpoint.js')).href)
          .replace('SDK_CLIENT', sdk('client/index.js'))
          .replace('SDK_TRANSPORT', sdk('client/streamableHttp.js')),
      );
      const child = spawn(process.execPath, [join(dir, 'child.mjs')], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      const code = await new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve(null);
        }, 15_000);
        child.on('exit', (c) => {
          clearTimeout(timer);
          resolve(c);
        });
      });
      expect(output, output).toContain('closed');
      expect(code, output).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * Opens every kind of connection the endpoint holds (SDK client with GET stream, idle keep-alive
 * socket, a raw GET stream, a request that never gets its answer), calls close(), and must then
 * exit on its own: no process.exit, so any handle left behind keeps it alive and fails the test.
 */
const CHILD_SCRIPT = `
import http from 'node:http';
import { startHttpEndpoint } from 'ENDPOINT';
import { Client } from 'SDK_CLIENT';
import { StreamableHTTPClientTransport } from 'SDK_TRANSPORT';

const sessions = [];
let callReached;
const reached = new Promise((resolve) => (callReached = resolve));
const budget = { take() {}, give() {} };
const host = {
  budget,
  openSession(push) {
    const s = { id: 'sess-' + sessions.length, protocolVersion: undefined, closed: false, push, budget, inFlightCount: 0,
      async handle(m) {
        if (!('id' in m) || !('method' in m)) return undefined;
        if (m.method === 'initialize') return { jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion,
          capabilities: { tools: {} }, serverInfo: { name: 'fake', version: '0' } } };
        if (m.method === 'tools/call') {
          callReached();
          return new Promise(() => {});
        }
        return { jsonrpc: '2.0', id: m.id, result: { tools: [] } };
      },
      close() { s.closed = true; } };
    sessions.push(s);
    return s;
  },
};

const endpoint = await startHttpEndpoint(host, { host: '127.0.0.1', port: 0, path: '/mcp', allowedOrigins: [], maxMessageBytes: 65536 });
const client = new Client({ name: 'c', version: '1' });
const transport = new StreamableHTTPClientTransport(new URL(endpoint.url));
client.onerror = () => {};
const pushed = new Promise((resolve) => (client.fallbackNotificationHandler = async () => resolve()));
await client.connect(transport);
await client.listTools();
// A push reaches the client only through its GET stream (held in the backlog until it opens).
sessions[0].push({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
await pushed;
const hung = client.callTool({ name: 'never' }).catch(() => 'rejected');
await reached;
const agent = new http.Agent({ keepAlive: true });
await new Promise((resolve) => http.get(endpoint.url.replace('/mcp', '/other'), { agent }, (res) => { res.resume(); res.on('end', resolve); }));
const get = http.request(endpoint.url, { method: 'GET', headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': transport.sessionId } });
get.on('error', () => {});
await new Promise((resolve) => { get.on('response', (res) => { res.resume(); resolve(); }); get.end(); });
await endpoint.close();
await endpoint.close();
if (!sessions.every((s) => s.closed) || endpoint.sessionCount() !== 0) throw new Error('sessions left open');
// The SDK client may schedule reconnects once the server is gone; closing it cancels them.
await client.close();
await hung;
console.log('closed');
`;
