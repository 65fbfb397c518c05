// Proves the 2026-07-28 fixture (modern-server.mjs) works with the official SDK v2 client
// directly, no gateway: tools, MRTR rounds answered by the client, listen streams, the HTTP
// wire rules, and its dual-era / modern-only faces. Gateway tests built on it rely on this.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { cleanup, trackClosable, type HttpFixture } from '../helpers/index.js';
import { STATELESS_VERSION, connectStatelessHttp, connectStatelessStdio, logLevelMeta, postMessage } from '../helpers/stateless-client.js';
import { statelessServerCommand, startStatelessHttpFixture } from '../helpers/stateless-fixture.js';

afterAll(cleanup);

const COUNTER = 'fixture://counter';

function text(result: unknown): string {
  const r = result as { content?: Array<{ text?: string }>; contents?: Array<{ text?: string }>; messages?: Array<{ content: { text?: string } }> };
  if (r.content) return r.content.map((c) => c.text ?? '').join('');
  if (r.contents) return r.contents.map((c) => c.text ?? '').join('');
  return (r.messages ?? []).map((m) => m.content.text ?? '').join('');
}

/** Resolves with the params of the next notification `method` the client receives. */
function nextNotification(client: Client, method: 'notifications/resources/updated' | 'notifications/tools/list_changed') {
  return new Promise<Record<string, unknown>>((resolve) => {
    client.setNotificationHandler(method, async (n) => resolve((n.params ?? {}) as Record<string, unknown>));
  });
}

async function rpcError(p: Promise<unknown>): Promise<{ code?: number; message: string; data?: unknown }> {
  try {
    await p;
  } catch (err) {
    return err as { code?: number; message: string; data?: unknown };
  }
  throw new Error('expected an error');
}

describe('modern fixture over Streamable HTTP, SDK v2 client pinned to 2026-07-28', () => {
  let fx: HttpFixture;
  beforeAll(async () => {
    fx = await startStatelessHttpFixture();
  });

  it('connects statelessly: discover result, serverInfo, plain tools', async () => {
    const { client } = await connectStatelessHttp(fx.url);
    expect(client.getProtocolEra()).toBe('modern');
    const discover = client.getDiscoverResult()!;
    expect(discover.supportedVersions).toEqual([STATELESS_VERSION]);
    expect(discover.capabilities).toMatchObject({ tools: { listChanged: true }, resources: { subscribe: true } });
    expect(client.getServerVersion()).toMatchObject({ name: 'modern-fixture' });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'add', 'ask_name', 'ask_llm', 'list_roots', 'two_step', 'progress']));
    expect(names).not.toContain('extra');
    expect(text(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('modern-fixture (modern)');
    expect(text(await client.callTool({ name: 'echo', arguments: { text: 'héllo' } }))).toBe('héllo');
    const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } });
    expect(sum.structuredContent).toEqual({ sum: 42 });
  });

  it('runs MRTR rounds for elicitation, sampling and roots through the client handlers', async () => {
    const { client, asked } = await connectStatelessHttp(fx.url);
    expect(text(await client.callTool({ name: 'ask_name', arguments: {} }))).toBe('Hello, Ada!');
    expect(asked).toEqual([{ method: 'elicitation/create', params: expect.objectContaining({ message: 'What is your name?' }) }]);
    expect(text(await client.callTool({ name: 'ask_llm', arguments: { prompt: 'Capital of France?' } }))).toBe('LLM said: Paris');
    expect(text(await client.callTool({ name: 'list_roots', arguments: {} }))).toBe('roots: file:///tmp/modern-root');
    expect(asked.map((a) => a.method)).toEqual(['elicitation/create', 'sampling/createMessage', 'roots/list']);
  });

  it('carries a sealed requestState across two rounds, and MRTR works on prompts/get and resources/read', async () => {
    const { client, asked } = await connectStatelessHttp(fx.url, { elicitContent: { name: 'Bo', color: 'red', confirm: true, topic: 'bees' } });
    expect(text(await client.callTool({ name: 'two_step', arguments: {} }))).toBe('Bo likes red');
    expect(asked.map((a) => (a.params as { message: string }).message)).toEqual(['Step 1: your name?', 'Step 2: your colour?']);
    expect(text(await client.getPrompt({ name: 'topic_prompt' }))).toBe('Write about bees.');
    expect(text(await client.readResource({ uri: 'fixture://guarded' }))).toBe('guarded text');
  });

  it('refuses an input request the client did not declare the capability for (-32021)', async () => {
    const { client } = await connectStatelessHttp(fx.url, { capabilities: {} });
    const err = await rpcError(client.callTool({ name: 'ask_name', arguments: {} }));
    expect(err.code).toBe(-32021);
    expect(err.data).toMatchObject({ requiredCapabilities: { elicitation: {} } });
  });

  it('streams progress for a progressToken, and logs only when the request sets a logLevel', async () => {
    const { client } = await connectStatelessHttp(fx.url);
    const seen: number[] = [];
    await client.callTool({ name: 'progress', arguments: { steps: 3 } }, { onprogress: (p) => void seen.push(p.progress) });
    expect(seen).toEqual([1, 2, 3]);

    const levels: string[] = [];
    client.setNotificationHandler('notifications/message', async (n) => void levels.push(n.params.level));
    await client.callTool({ name: 'log_levels', arguments: {} });
    expect(levels).toEqual([]);
    await client.callTool({ name: 'log_levels', arguments: {}, _meta: logLevelMeta('warning') });
    expect(levels).toEqual(['warning', 'error']);
  });

  it('delivers resources/updated and tools/list_changed on a subscriptions/listen stream', async () => {
    const { client } = await connectStatelessHttp(fx.url);
    const before = Number(text(await client.readResource({ uri: COUNTER })));
    const updated = nextNotification(client, 'notifications/resources/updated');
    const changed = nextNotification(client, 'notifications/tools/list_changed');
    const sub = await client.listen({ resourceSubscriptions: [COUNTER], toolsListChanged: true });
    expect(sub.honoredFilter).toEqual({ resourceSubscriptions: [COUNTER], toolsListChanged: true });

    await client.callTool({ name: 'update_counter', arguments: {} });
    expect(await updated).toMatchObject({ uri: COUNTER, _meta: { 'io.modelcontextprotocol/subscriptionId': expect.anything() } });
    expect(Number(text(await client.readResource({ uri: COUNTER })))).toBe(before + 1);

    await client.callTool({ name: 'toggle_extra_tool', arguments: {} });
    await changed;
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('extra');
    await client.callTool({ name: 'toggle_extra_tool', arguments: {} });
    await sub.close();
    expect(await sub.closed).toBe('local');
  });

  it('keeps the wire rules: POST only, headers checked against the body, unknown methods 404', async () => {
    expect((await fetch(fx.url, { method: 'GET' })).status).toBe(405);
    const meta = { 'io.modelcontextprotocol/protocolVersion': STATELESS_VERSION, 'io.modelcontextprotocol/clientCapabilities': {} };
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: meta } };
    const std = { 'mcp-protocol-version': STATELESS_VERSION, 'mcp-method': 'tools/call' };
    expect(await postMessage(fx.url, call, { ...std, 'mcp-name': 'echo' })).toMatchObject({ status: 200, data: { id: 7, result: { resultType: 'complete' } } });
    expect(await postMessage(fx.url, call, { ...std, 'mcp-name': `=?base64?${Buffer.from('echo').toString('base64')}?=` })).toMatchObject({ status: 200 });
    expect(await postMessage(fx.url, call, { ...std, 'mcp-name': 'add' })).toMatchObject({ status: 400, data: { id: 7, error: { code: -32020 } } });
    expect(await postMessage(fx.url, call, { 'mcp-method': 'tools/call', 'mcp-name': 'echo' })).toMatchObject({ status: 400, data: { error: { code: -32020 } } });
    const odd = { jsonrpc: '2.0', id: 8, method: 'no/such', params: { _meta: meta } };
    expect(await postMessage(fx.url, odd, { ...std, 'mcp-method': 'no/such' })).toMatchObject({ status: 404, data: { id: 8, error: { code: -32601 } } });
    const future = { ...call, params: { ...call.params, _meta: { ...meta, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } };
    expect(await postMessage(fx.url, future, { ...std, 'mcp-name': 'echo', 'mcp-protocol-version': '2099-01-01' })).toMatchObject({
      status: 400,
      data: { error: { code: -32022, data: { supported: [STATELESS_VERSION], requested: '2099-01-01' } } },
    });
  });

  it('answers a 2025-era initialize (dual-era); --modern-only refuses it with -32022 naming 2026-07-28', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } } };
    expect(await postMessage(fx.url, init)).toMatchObject({ status: 200, data: { result: { protocolVersion: '2025-11-25' } } });
    const strict = await startStatelessHttpFixture({ modernOnly: true });
    const refused = await postMessage(strict.url, init);
    expect(refused.status).toBe(400);
    expect(refused.data.error).toMatchObject({ code: -32022, data: { supported: [STATELESS_VERSION] } });
    const { client } = await connectStatelessHttp(strict.url, { mode: 'auto' });
    expect(client.getProtocolEra()).toBe('modern');
  });
});

describe('modern fixture over stdio', () => {
  it('serves a pinned v2 client: tools, an MRTR round, a listen stream', async () => {
    const { client, asked } = await connectStatelessStdio(statelessServerCommand());
    expect(client.getProtocolEra()).toBe('modern');
    expect(text(await client.callTool({ name: 'echo', arguments: { text: 'over stdio' } }))).toBe('over stdio');
    expect(text(await client.callTool({ name: 'ask_name', arguments: {} }))).toBe('Hello, Ada!');
    expect(asked).toHaveLength(1);
    const updated = nextNotification(client, 'notifications/resources/updated');
    const sub = await client.listen({ resourceSubscriptions: [COUNTER] });
    await client.callTool({ name: 'update_counter', arguments: {} });
    expect(await updated).toMatchObject({ uri: COUNTER });
    expect(text(await client.readResource({ uri: COUNTER }))).toBe('1');
    await sub.close();
  });

  it("lands on the modern era in 'auto' mode", async () => {
    const { client } = await connectStatelessStdio(statelessServerCommand(), { mode: 'auto' });
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe(STATELESS_VERSION);
  });

  it('serves a 2025-era client too (input_required becomes a real elicitation/create), unless --modern-only', async () => {
    const legacy = trackClosable(new LegacyClient({ name: 'v1', version: '1' }, { capabilities: { elicitation: {} } }));
    legacy.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Cy' } }));
    const { command, args, cwd } = statelessServerCommand();
    await legacy.connect(new LegacyStdio({ command, args, cwd }));
    expect(text(await legacy.callTool({ name: 'whoami', arguments: {} }))).toBe('modern-fixture (legacy)');
    expect(text(await legacy.callTool({ name: 'ask_name', arguments: {} }))).toBe('Hello, Cy!');

    const refused = trackClosable(new LegacyClient({ name: 'v1', version: '1' }));
    const strict = statelessServerCommand({ modernOnly: true });
    const err = await rpcError(refused.connect(new LegacyStdio({ command: strict.command, args: strict.args, cwd: strict.cwd })));
    expect(err.message).toMatch(/Unsupported protocol version/);
  });
});
