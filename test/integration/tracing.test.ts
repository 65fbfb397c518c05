// OpenTelemetry traces from the built gateway, received by an OTLP/HTTP receiver in this process
// (JSON protocol): a client's traceparent becomes the parent of the gateway's SERVER span, whose
// CLIENT span for the forwarded call is the parent the server is told about, in _meta and in the
// traceparent header.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, connectHttpClient, httpServer, startGateway, yamlServers, type HttpGateway } from '../helpers/index.js';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string } }[];
  status?: { code?: number };
}
const SERVER = 2;
const CLIENT = 3;
const attr = (s: OtlpSpan, key: string) => s.attributes.find((a) => a.key === key)?.value.stringValue;

/** Collects every span POSTed to /v1/traces; waitFor resolves when one matches (no polling). */
class OtlpReceiver {
  readonly spans: OtlpSpan[] = [];
  readonly resources: Record<string, unknown>[] = [];
  private waiters: { match: (s: OtlpSpan) => boolean; resolve: (s: OtlpSpan) => void }[] = [];
  readonly server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      expect(req.url).toBe('/v1/traces');
      expect(req.headers['content-type']).toBe('application/json');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const rs of body.resourceSpans ?? []) {
        this.resources.push(rs.resource);
        for (const ss of rs.scopeSpans ?? []) for (const span of ss.spans ?? []) this.take(span);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });

  private take(span: OtlpSpan): void {
    this.spans.push(span);
    this.waiters = this.waiters.filter((w) => !(w.match(span) && (w.resolve(span), true)));
  }

  waitFor(match: (s: OtlpSpan) => boolean): Promise<OtlpSpan> {
    const found = this.spans.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  async listen(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
}

/** A Streamable HTTP MCP server answering in JSON, recording each tools/call's headers and _meta. */
function recordingServer() {
  const calls: { headers: IncomingHttpHeaders; meta: Record<string, unknown> | undefined }[] = [];
  const server = createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const msg = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (msg.id === undefined) return void res.writeHead(202).end();
      let result: unknown;
      if (msg.method === 'initialize') result = { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'recorder', version: '1' } };
      else if (msg.method === 'tools/list')
        result = {
          tools: [
            { name: 'echo', inputSchema: { type: 'object' } },
            { name: 'fail', inputSchema: { type: 'object' } },
          ],
        };
      else if (msg.method === 'tools/call') {
        calls.push({ headers: req.headers, meta: msg.params?._meta });
        if (msg.params.name === 'fail')
          return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32000, message: 'refused by the server' } }));
        result = { content: [{ type: 'text', text: 'ok' }] };
      } else result = {};
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
    });
  });
  return { server, calls };
}

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';

describe('traces (OTLP/HTTP, JSON)', () => {
  const receiver = new OtlpReceiver();
  const recorder = recordingServer();
  let gw: HttpGateway;

  beforeAll(async () => {
    const endpoint = await receiver.listen();
    recorder.server.listen(0, '127.0.0.1');
    await once(recorder.server, 'listening');
    const url = `http://127.0.0.1:${(recorder.server.address() as AddressInfo).port}/mcp`;
    // Code mode too (a direct tools/call works in it as in any mode): run_code's nested calls are traced.
    gw = await startGateway(yamlServers([httpServer('web', url, { transport: 'streamable-http' })], { catalog: { mode: 'code' } }), {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '50', OTEL_SERVICE_NAME: 'sb-under-test' },
    });
  });
  afterAll(async () => {
    await cleanup();
    recorder.server.close();
    receiver.server.close();
  });

  it("makes the client's span the parent of the request, and the request the parent of the forwarded call", async () => {
    const client = await connectHttpClient(gw.url);
    await client.callTool({ name: 'web__echo', arguments: {}, _meta: { traceparent: `00-${TRACE_ID}-${CLIENT_SPAN}-01`, tracestate: 'vendor=1' } });

    const inbound = await receiver.waitFor((s) => s.kind === SERVER && s.traceId === TRACE_ID);
    expect(inbound).toMatchObject({ name: 'tools/call web__echo', parentSpanId: CLIENT_SPAN });
    expect(attr(inbound, 'mcp.method.name')).toBe('tools/call');
    expect(attr(inbound, 'gen_ai.tool.name')).toBe('web__echo');
    expect(attr(inbound, 'mcp.session.id')).toMatch(/[0-9a-f-]{36}/);

    const outbound = await receiver.waitFor((s) => s.kind === CLIENT && s.traceId === TRACE_ID);
    expect(outbound).toMatchObject({ name: 'tools/call echo', parentSpanId: inbound.spanId });
    expect(attr(outbound, 'switchboard.server')).toBe('web');

    // The server hears of the CLIENT span, in _meta and in the W3C header alike; tracestate follows.
    const call = recorder.calls.at(-1)!;
    const traceparent = `00-${TRACE_ID}-${outbound.spanId}-01`;
    expect(call.meta).toMatchObject({ traceparent, tracestate: 'vendor=1' });
    expect(call.headers.traceparent).toBe(traceparent);
    expect(call.headers.tracestate).toBe('vendor=1');
    expect(receiver.resources[0]).toMatchObject({ attributes: expect.arrayContaining([{ key: 'service.name', value: { stringValue: 'sb-under-test' } }]) });
  });

  it("starts a new trace for a request without one, and marks a server's error on both spans", async () => {
    const client = await connectHttpClient(gw.url);
    await client.callTool({ name: 'web__fail', arguments: {} }).catch(() => undefined);
    const outbound = await receiver.waitFor((s) => s.kind === CLIENT && s.name === 'tools/call fail');
    const inbound = await receiver.waitFor((s) => s.kind === SERVER && s.spanId === outbound.parentSpanId);
    expect(inbound.parentSpanId ?? '').toBe('');
    expect(inbound.traceId).not.toBe(TRACE_ID);
    expect(outbound.status?.code).toBe(2);
    expect(attr(outbound, 'error.type')).toBe('-32000');
    expect(inbound.status?.code).toBe(2);
    expect(recorder.calls.at(-1)!.headers.traceparent).toBe(`00-${outbound.traceId}-${outbound.spanId}-01`);
  });

  it('takes the parent from the traceparent header of a 2026-07-28 request whose _meta has none', async () => {
    const headerSpan = 'a1b2c3d4e5f60718';
    const res = await fetch(gw.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'web__echo',
        traceparent: `00-${TRACE_ID}-${headerSpan}-01`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'web__echo',
          arguments: {},
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': { name: 'curl-like', version: '1' },
          },
        },
      }),
    });
    expect(res.status).toBe(200);
    await res.text();
    const inbound = await receiver.waitFor((s) => s.kind === SERVER && s.parentSpanId === headerSpan);
    expect(inbound).toMatchObject({ traceId: TRACE_ID, name: 'tools/call web__echo' });
    expect(attr(inbound, 'mcp.protocol.version')).toBe('2026-07-28');
    const outbound = await receiver.waitFor((s) => s.kind === CLIENT && s.parentSpanId === inbound.spanId);
    expect(recorder.calls.at(-1)!.headers.traceparent).toBe(`00-${TRACE_ID}-${outbound.spanId}-01`);
  });

  it("puts a span for each nested call of run_code under the run's span, and the forwarded call under it", async () => {
    const traceId = '5cf92f3577b34da6a3ce929d0e0e4737';
    const client = await connectHttpClient(gw.url);
    const r: any = await client.callTool({
      name: 'run_code',
      arguments: { code: 'await tools.web.echo({});\nreturn await tools.web.echo({});' },
      _meta: { traceparent: `00-${traceId}-${CLIENT_SPAN}-01` },
    });
    expect(r.structuredContent.result).toBe('ok');
    const run = await receiver.waitFor((s) => s.kind === SERVER && s.traceId === traceId && s.name === 'tools/call run_code');
    expect(run.parentSpanId).toBe(CLIENT_SPAN);
    const children = () => receiver.spans.filter((s) => s.kind === SERVER && s.parentSpanId === run.spanId);
    await receiver.waitFor(() => children().length === 2);
    const spans = children();
    expect(spans.map((s) => s.name)).toEqual(['tools/call web__echo', 'tools/call web__echo']);
    for (const n of spans) {
      const outbound = await receiver.waitFor((s) => s.kind === CLIENT && s.parentSpanId === n.spanId);
      expect(outbound).toMatchObject({ traceId, name: 'tools/call echo' });
    }
  });

  it('takes no traceparent a client forges into the header it sends on', async () => {
    const client = await connectHttpClient(gw.url);
    await client.callTool({ name: 'web__echo', arguments: {}, _meta: { traceparent: 'not\r\nx-evil: 1' } });
    const call = recorder.calls.at(-1)!;
    expect(call.headers['x-evil']).toBeUndefined();
    // Not a valid parent: the gateway's span starts a trace of its own and that is what goes on.
    expect(call.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  });
});
