import { describe, expect, it } from 'vitest';
import { buildCatalog, type CatalogServerInput } from '../../../src/catalog/build.js';
import { viewFor } from '../../../src/catalog/view.js';
import type { ClientProfile, ServerConfig } from '../../../src/config/types.js';
import { GatewayError } from '../../../src/errors.js';
import { Observer, type ObservedSession, type TraceSink } from '../../../src/observability/observer.js';
import { answerOutcome, refusalOf, replyOutcome } from '../../../src/observability/outcome.js';
import { ObservedStats } from '../../../src/observability/stats.js';
import type { JsonRpcRequest } from '../../../src/protocol/jsonrpc.js';

const all = { allow: ['*'], deny: [] as string[] };
const server = (name: string, tools: string[]): CatalogServerInput => ({
  config: { kind: 'stdio', name, prefix: name, enabled: true, tools: all, prompts: all, resources: all } as unknown as ServerConfig,
  ready: true,
  lists: { tools: tools.map((t) => ({ name: t })), prompts: [], resources: [{ uri: `${name}://r`, name: 'r' }], resourceTemplates: [] },
});
const catalog = buildCatalog([server('gh', ['read', 'delete'])], { separator: '__', mode: 'always' });
const profile: ClientProfile = { name: 'p', tools: { allow: ['*'], deny: ['*delete*'] }, prompts: all, resources: { allow: ['nothing://*'], deny: [] }, readOnly: false, naming: { maxLength: 128 } };
const session = (p?: ClientProfile): ObservedSession => ({ id: 's1', protocolVersion: '2025-11-25', view: viewFor(catalog, p) });
const req = (method: string, params?: Record<string, any>): JsonRpcRequest => ({ jsonrpc: '2.0', id: 7, method, params });
const errorReply = (code: number, data?: unknown) => ({ jsonrpc: '2.0', id: 7, error: { code, message: 'x', data } });

describe('outcomes', () => {
  it('labels replies: ok, a JSON-RPC error, or the gateway code in lower case', () => {
    expect(replyOutcome({ jsonrpc: '2.0', id: 1, result: {} }).label).toBe('ok');
    expect(replyOutcome({ chunks: [Buffer.from('{}')], byteLength: 2, id: 1 }).label).toBe('ok');
    expect(replyOutcome({ chunks: [Buffer.from('{"jsonrpc":"2.0","id":'), Buffer.from('1'), Buffer.from(',"error":{"code":-32000,"message":"no"}}')], byteLength: 61, id: 1, isError: true })).toEqual({
      label: 'error',
      code: -32000,
    });
    expect(replyOutcome(undefined).label).toBe('ok');
    expect(replyOutcome(errorReply(-32602))).toEqual({ label: 'error', code: -32602 });
    expect(replyOutcome(errorReply(-32603, { code: 'LIMIT_EXCEEDED' })).label).toBe('limit_exceeded');
    // Not one of ours (or a prototype key): a plain error, never a label a server could choose.
    expect(replyOutcome(errorReply(-32603, { code: 'constructor' })).label).toBe('error');
  });

  it('labels a raw answer by what the scan found', () => {
    expect(answerOutcome({ chunks: [Buffer.from('{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"no"}}')], id: 1, idStart: 0, idEnd: 1, isError: true })).toEqual({
      label: 'error',
      code: -32000,
    });
    expect(answerOutcome({ chunks: [Buffer.from('{}')], id: 1, idStart: 0, idEnd: 1, isError: false }).label).toBe('ok');
  });

  it("tells a profile refusal from an unknown name, and a server's own refusal from both", () => {
    const view = viewFor(catalog, profile);
    expect(refusalOf('tools/call', { name: 'gh__delete' }, -32602, view, catalog)).toBe('profile');
    expect(refusalOf('tools/call', { name: 'gh__nope' }, -32602, view, catalog)).toBe('unknown');
    expect(refusalOf('tools/call', { name: 'gh__read' }, -32602, view, catalog)).toBeUndefined();
    expect(refusalOf('tools/call', { name: 'gh__delete' }, -32603, view, catalog)).toBeUndefined();
    expect(refusalOf('resources/read', { uri: 'gh://r' }, -32002, view, catalog)).toBe('profile');
    expect(refusalOf('resources/read', { uri: 'gh://r' }, -32002, viewFor(catalog, undefined), catalog)).toBeUndefined();
  });
});

describe('Observer', () => {
  it('with nothing switched on, runs the request and hands its reply back untouched', async () => {
    const observer = new Observer(() => catalog);
    const reply = { jsonrpc: '2.0', id: 7, result: {} };
    await expect(observer.request(session(), req('tools/list'), async () => reply)).resolves.toBe(reply);
    const answer = { ok: 1 };
    await expect(observer.call('gh', 'tools/call', {}, async () => answer)).resolves.toBe(answer);
  });

  it('counts forwarded calls by outcome, failures by gateway code, and in-flight back to zero', async () => {
    const observer = new Observer(() => catalog);
    const stats = (observer.stats = new ObservedStats(new Set()));
    let release!: (v: unknown) => void;
    const pending = observer.call('gh', 'tools/call', {}, () => new Promise((r) => (release = r)));
    expect(stats.serverCall('gh', 'tools/call').inFlight).toBe(1);
    release({ jsonrpc: '2.0', id: 1, result: {} });
    await pending;
    await observer.call('gh', 'tools/call', {}, async () => ({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'no' } }));
    await expect(observer.call('gh', 'tools/call', {}, () => Promise.reject(new GatewayError('SERVER_TIMEOUT', 'late')))).rejects.toThrow('late');
    const s = stats.serverCall('gh', 'tools/call');
    expect(s.inFlight).toBe(0);
    expect(s.ok).toBe(1);
    expect(Object.fromEntries(s.outcomes)).toEqual({ error: 1, server_timeout: 1 });
    expect(s.latency.count).toBe(3);
  });

  it('counts a client asking for a tool its profile hides as a policy refusal', async () => {
    const observer = new Observer(() => catalog);
    const stats = (observer.stats = new ObservedStats(new Set(['tools/call'])));
    await observer.request(session(profile), req('tools/call', { name: 'gh__delete' }), async () => errorReply(-32602));
    await observer.request(session(profile), req('tools/call', { name: 'gh__read' }), async () => ({ jsonrpc: '2.0', id: 7, result: {} }));
    expect(Object.fromEntries(stats.refusals.get('tools/call')!)).toEqual({ profile: 1 });
    const c = stats.clientRequest('tools/call');
    expect([c.ok, c.outcomes.get('error'), c.inFlight]).toEqual([1, 1, 0]);
  });

  it('starts the inbound span before the handler runs, ends it with the outcome, and sends the traced params', async () => {
    const events: string[] = [];
    const sink: TraceSink = {
      inbound: (_s, r) => (events.push(`in ${r.method}`), { span: 'in' }),
      outbound: (server, method, params) => (events.push(`out ${server} ${method}`), { span: { span: 'out' }, params: { ...params, _meta: { traceparent: 'x' } } }),
      end: (span, outcome) => void events.push(`end ${(span as { span: string }).span} ${outcome.label}`),
      shutdown: async () => {},
    };
    const observer = new Observer(() => catalog);
    observer.tracing = sink;
    let sent: Record<string, any> | undefined;
    await observer.request(session(), req('tools/call', { name: 'gh__read' }), async () => {
      events.push('handler');
      await observer.call('gh', 'tools/call', { name: 'read' }, async (p) => ((sent = p), { jsonrpc: '2.0', id: 1, result: {} }));
      return errorReply(-32603, { code: 'CANCELLED' });
    });
    expect(events).toEqual(['in tools/call', 'handler', 'out gh tools/call', 'end out ok', 'end in cancelled']);
    expect(sent).toEqual({ name: 'read', _meta: { traceparent: 'x' } });
  });

  it('keeps each distinct audit entry once, and counts findings in answers per server', () => {
    const observer = new Observer(() => catalog);
    observer.stats = new ObservedStats(new Set());
    const entry = { server: 'gh', kind: 'result', item: 'read', change: 'stripped', why: 'tag characters' };
    observer.audited(entry);
    observer.audited({ ...entry });
    observer.audited({ ...entry, kind: 'tool' });
    expect(observer.recent.latest().map((e) => e.kind)).toEqual(['tool', 'result']);
    expect(observer.stats.resultFindings.get('gh')).toBe(1);
  });
});
