// The gateway's faces speaking 2026-07-28 to the official SDK v2 client, in front of 2025-era
// servers (interactive.mjs, echo.mjs): stateless calls, server requests bridged into input
// rounds (MRTR), listen streams fed by legacy list changes and resource updates, per-request log
// levels, progress, cancellation by closing the stream, and a v1 client served beside it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { cleanup, connectHttpClient, fixtureServer, startGateway, stdioGatewayParams, yamlServers, type HttpGateway } from '../helpers/index.js';
import { STATELESS_VERSION, connectStatelessHttp, connectStatelessStdio, logLevelMeta, postMessage } from '../helpers/stateless-client.js';

afterAll(cleanup);

const CONFIG = yamlServers([fixtureServer('int', 'interactive'), fixtureServer('echo', 'echo')]);
const META = { 'io.modelcontextprotocol/protocolVersion': STATELESS_VERSION, 'io.modelcontextprotocol/clientCapabilities': {} };
const STD = { 'mcp-protocol-version': STATELESS_VERSION };

function text(result: unknown): string {
  const r = result as { content?: Array<{ text?: string }>; contents?: Array<{ text?: string }> };
  return (r.content ?? r.contents ?? []).map((c) => c.text ?? '').join('');
}

async function rpcError(p: Promise<unknown>): Promise<{ code?: number; message: string; data?: any }> {
  try {
    await p;
  } catch (err) {
    return err as { code?: number; message: string; data?: any };
  }
  throw new Error('expected an error');
}

/** Resolves with the params of the next notification `method` the client receives. */
function next(client: Client, method: 'notifications/resources/updated' | 'notifications/tools/list_changed' | 'notifications/message') {
  return new Promise<Record<string, any>>((resolve) => {
    client.setNotificationHandler(method, async (n) => resolve((n.params ?? {}) as Record<string, any>));
  });
}

describe('HTTP face, SDK v2 client pinned to 2026-07-28, 2025-era servers behind', () => {
  let gw: HttpGateway;
  beforeAll(async () => {
    gw = await startGateway(CONFIG);
  });

  it('connects statelessly: discover names the gateway, tools are listed and called', async () => {
    const { client } = await connectStatelessHttp(gw.url);
    expect(client.getProtocolEra()).toBe('modern');
    const discover = client.getDiscoverResult()!;
    expect(discover.supportedVersions).toContain(STATELESS_VERSION);
    expect((discover as any)._meta['io.modelcontextprotocol/serverInfo'].name).toBe('switchboard');
    expect(discover.capabilities.tools).toBeDefined();
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo__echo', 'int__ask_elicitation']));
    expect(text(await client.callTool({ name: 'echo__echo', arguments: { text: 'héllo' } }))).toBe('héllo');
  });

  it('turns a 2025 server’s elicitation, sampling and roots requests into input rounds the client answers', async () => {
    const { client, asked } = await connectStatelessHttp(gw.url);
    expect(text(await client.callTool({ name: 'int__ask_elicitation', arguments: {} }))).toBe('elicited: {"action":"accept","content":{"name":"Ada","color":"teal","confirm":true,"topic":"owls"}}');
    expect(text(await client.callTool({ name: 'int__ask_sampling', arguments: { prompt: 'Capital of France?' } }))).toBe('sampled: Paris');
    expect(text(await client.callTool({ name: 'int__ask_roots', arguments: {} }))).toBe('[{"uri":"file:///tmp/modern-root","name":"modern root"}]');
    expect(asked.map((a) => a.method)).toEqual(['elicitation/create', 'sampling/createMessage', 'roots/list']);
    expect(asked[0]!.params).toMatchObject({ message: 'Your name?' });
  });

  it('answers -32021 naming the capability when the server needed one this client lacks', async () => {
    const { client, asked } = await connectStatelessHttp(gw.url, { capabilities: { elicitation: {} } });
    const err = await rpcError(client.callTool({ name: 'int__ask_sampling', arguments: {} }));
    expect(err.code).toBe(-32021);
    expect(err.data).toEqual({ requiredCapabilities: { sampling: {} } });
    expect(asked).toEqual([]);
  });

  it('refuses a tampered or foreign requestState, and re-asks what a retry left out', async () => {
    const params = { name: 'int__ask_elicitation', arguments: {}, _meta: { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } };
    const headers = { ...STD, 'mcp-method': 'tools/call', 'mcp-name': 'int__ask_elicitation' };
    const r1 = await postMessage(gw.url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params }, headers);
    expect(r1.status).toBe(200);
    expect(r1.headers.get('mcp-session-id')).toBeNull();
    const { inputRequests, requestState } = r1.data.result;
    expect(r1.data.result.resultType).toBe('input_required');
    const [key] = Object.keys(inputRequests);
    expect(inputRequests[key!]).toMatchObject({ method: 'elicitation/create', params: { message: 'Your name?' } });

    const tampered = await postMessage(gw.url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { ...params, requestState: `${requestState}x`, inputResponses: {} } }, headers);
    expect(tampered.data.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    const otherArgs = await postMessage(gw.url, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { ...params, arguments: { mode: 'form' }, requestState, inputResponses: {} } }, headers);
    expect(otherArgs.data.error.code).toBe(-32602);
    const malformed = await postMessage(gw.url, { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { ...params, requestState, inputResponses: { [key!]: 12345 } } }, headers);
    expect(malformed.data.error.code).toBe(-32602);

    // Still valid after those refusals; a retry without the answer is asked again.
    const again = await postMessage(gw.url, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { ...params, requestState, inputResponses: { unrelated: {} } } }, headers);
    expect(again.data.result).toMatchObject({ resultType: 'input_required', inputRequests: { [key!]: { method: 'elicitation/create' } } });
    const done = await postMessage(
      gw.url,
      { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { ...params, requestState: again.data.result.requestState, inputResponses: { [key!]: { action: 'decline' } } } },
      headers,
    );
    expect(done.data.result).toMatchObject({ resultType: 'complete', content: [{ text: 'elicited: {"action":"decline"}' }] });
    // A state is good for one resumption only.
    const replay = await postMessage(gw.url, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { ...params, requestState: again.data.result.requestState, inputResponses: {} } }, headers);
    expect(replay.data.error.code).toBe(-32602);
  });

  it('relays progress on the request’s own stream', async () => {
    const { client } = await connectStatelessHttp(gw.url);
    const seen: number[] = [];
    await client.callTool({ name: 'int__progress', arguments: { steps: 3 } }, { onprogress: (p) => void seen.push(p.progress) });
    expect(seen).toEqual([1, 2, 3]);
  });

  it('sends log lines only to a request that asked for them, at its level', async () => {
    const { client } = await connectStatelessHttp(gw.url);
    const lines: Record<string, any>[] = [];
    client.setNotificationHandler('notifications/message', async (n) => void lines.push(n.params as Record<string, any>));
    await client.callTool({ name: 'int__log', arguments: { level: 'error', message: 'unasked' } });
    await client.callTool({ name: 'int__log', arguments: { level: 'info', message: 'too quiet' }, _meta: logLevelMeta('warning') });
    await client.callTool({ name: 'int__log', arguments: { level: 'error', message: 'wanted' }, _meta: logLevelMeta('warning') });
    expect(lines.map((l) => l.data)).toEqual(['wanted']);
    expect(lines[0]).toMatchObject({ level: 'error', logger: 'int/tool' });
  });

  it('cancels the server’s call when the client closes the request’s stream', async () => {
    const { client } = await connectStatelessHttp(gw.url);
    const ac = new AbortController();
    const call = client.callTool({ name: 'int__wait_cancel', arguments: {} }, { signal: ac.signal }).catch((e) => e);
    const waiting = await gw.waitForStderr(/waiting id=/);
    ac.abort();
    await call;
    const cancelled = await gw.waitForStderr(/cancelled id=/);
    expect(cancelled.match(/cancelled id=(\w+)/)?.[1]).toBe(waiting.match(/waiting id=(\w+)/)?.[1]);
  });

  it('feeds a listen stream from a 2025 server’s list changes and resource updates, tagged and filtered', async () => {
    const { client } = await connectStatelessHttp(gw.url);
    const changed = next(client, 'notifications/tools/list_changed');
    const updated = next(client, 'notifications/resources/updated');
    const uri = (await client.listResources()).resources.find((r) => r.name === 'counter')!.uri;
    const sub = await client.listen({ toolsListChanged: true, resourceSubscriptions: [uri, 'nope://no-server-serves-this'] });
    expect(sub.honoredFilter).toEqual({ toolsListChanged: true, resourceSubscriptions: [uri] });

    await client.callTool({ name: 'int__bump', arguments: {} });
    expect(await updated).toMatchObject({ uri, _meta: { 'io.modelcontextprotocol/subscriptionId': expect.anything() } });
    await client.callTool({ name: 'int__add_tool', arguments: { name: 'fresh' } });
    expect(await changed).toMatchObject({ _meta: { 'io.modelcontextprotocol/subscriptionId': expect.anything() } });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('int__fresh');
    await client.callTool({ name: 'int__remove_tool', arguments: { name: 'fresh' } });
    await sub.close();
    expect(await sub.closed).toBe('local');
  });

  it('keeps the wire rules of the revision', async () => {
    expect((await fetch(gw.url, { method: 'GET', headers: { accept: 'text/event-stream' } })).status).toBe(405);
    expect((await fetch(gw.url, { method: 'DELETE' })).status).toBe(405);
    const call = (id: number, extra: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo__echo', arguments: { text: 'x' }, _meta: META, ...extra } });
    const ok = await postMessage(gw.url, call(1), { ...STD, 'mcp-method': 'tools/call', 'mcp-name': `=?base64?${Buffer.from('echo__echo').toString('base64')}?=` });
    expect(ok).toMatchObject({ status: 200, data: { id: 1, result: { resultType: 'complete', content: [{ text: 'x' }] } } });
    expect(await postMessage(gw.url, call(2), { ...STD, 'mcp-method': 'tools/call', 'mcp-name': 'echo__add' })).toMatchObject({ status: 400, data: { id: 2, error: { code: -32020 } } });
    expect(await postMessage(gw.url, call(3), { 'mcp-method': 'tools/call', 'mcp-name': 'echo__echo' })).toMatchObject({ status: 400, data: { id: 3, error: { code: -32020 } } });
    const odd = { jsonrpc: '2.0', id: 4, method: 'ping', params: { _meta: META } };
    expect(await postMessage(gw.url, odd, { ...STD, 'mcp-method': 'ping' })).toMatchObject({ status: 404, data: { id: 4, error: { code: -32601 } } });
    const future = { 'io.modelcontextprotocol/protocolVersion': '2099-01-01', 'io.modelcontextprotocol/clientCapabilities': {} };
    const refused = await postMessage(gw.url, { jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: future } }, { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' });
    expect(refused).toMatchObject({ status: 400, data: { id: 5, error: { code: -32022, data: { supported: [STATELESS_VERSION], requested: '2099-01-01' } } } });
    const bare = await postMessage(gw.url, { jsonrpc: '2.0', id: 6, method: 'server/discover', params: {} }, { ...STD, 'mcp-method': 'server/discover' });
    expect(bare).toMatchObject({ status: 400, data: { id: 6, error: { code: -32602 } } });
    const list = await postMessage(gw.url, { jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: META } }, { ...STD, 'mcp-method': 'tools/list' });
    expect(list.data.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'public', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'switchboard' } } });
    // Neither era's request without a session names the way forward: 400 with the id echoed.
    const lost = await postMessage(gw.url, { jsonrpc: '2.0', id: 8, method: 'tools/list' });
    expect(lost).toMatchObject({ status: 400, data: { id: 8, error: { code: -32600 } } });
    expect(lost.data.error.message).toMatch(/initialize.*2026-07-28/);
  });

  it('serves the tasks extension over a 2025 server’s tasks', async () => {
    const withTasks = { ...META, 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } };
    const call = (id: number, method: string, params: Record<string, unknown>, meta = withTasks) =>
      postMessage(
        gw.url,
        { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } },
        { ...STD, 'mcp-method': method, ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : typeof params.taskId === 'string' ? { 'mcp-name': params.taskId } : {}) },
      );
    const discover = await call(1, 'server/discover', {});
    expect(discover.data.result.capabilities.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });

    // Without the extension declared, a tool its server runs only as a task cannot be served.
    const refused = await call(2, 'tools/call', { name: 'int__task_only', arguments: { ms: 20 } }, META);
    expect(refused).toMatchObject({ status: 400, data: { error: { code: -32021, data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } } } });

    const created = await call(3, 'tools/call', { name: 'int__task_only', arguments: { ms: 20 } });
    expect(created.data.result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 60000 });
    const taskId = created.data.result.taskId as string;
    expect(taskId).toMatch(/^task-/);
    let done = await call(4, 'tasks/get', { taskId });
    for (let i = 5; done.data.result.status === 'working'; i++) done = await call(i, 'tasks/get', { taskId });
    expect(done.data.result).toMatchObject({ resultType: 'complete', taskId, status: 'completed', result: { content: [{ text: expect.stringMatching(/done$/) }] } });
    expect((await call(50, 'tasks/cancel', { taskId })).data.result).toMatchObject({ resultType: 'complete' });
    expect((await call(51, 'tasks/get', { taskId: 'task-unknown' })).data.error.code).toBe(-32602);
    expect((await call(52, 'tasks/get', { taskId }, META)).data.error.code).toBe(-32021);
    // tasks/result and tasks/list left the core: 404.
    expect((await call(53, 'tasks/result', { taskId })).status).toBe(404);
  });

  it('serves a v2 client in auto mode statelessly and a v1 client in a session, side by side', async () => {
    const auto = await connectStatelessHttp(gw.url, { mode: 'auto' });
    expect(auto.client.getProtocolEra()).toBe('modern');
    const v1 = await connectHttpClient(gw.url);
    const [a, b] = await Promise.all([auto.client.callTool({ name: 'echo__echo', arguments: { text: 'modern' } }), v1.callTool({ name: 'echo__echo', arguments: { text: 'legacy' } })]);
    expect([text(a), text(b)]).toEqual(['modern', 'legacy']);
  });
});

describe('stdio face, SDK v2 client pinned to 2026-07-28', () => {
  it('serves tools, an input round and a listen stream on one connection', async () => {
    const params = stdioGatewayParams(CONFIG);
    const { client, asked } = await connectStatelessStdio({ command: params.command, args: params.args, cwd: params.cwd, env: params.env });
    expect(client.getProtocolEra()).toBe('modern');
    expect(text(await client.callTool({ name: 'echo__echo', arguments: { text: 'over stdio' } }))).toBe('over stdio');
    expect(text(await client.callTool({ name: 'int__ask_sampling', arguments: {} }))).toBe('sampled: Paris');
    expect(asked.map((a) => a.method)).toEqual(['sampling/createMessage']);
    const changed = next(client, 'notifications/tools/list_changed');
    const sub = await client.listen({ toolsListChanged: true });
    await client.callTool({ name: 'int__add_tool', arguments: { name: 'late' } });
    await changed;
    await sub.close();
    expect(await sub.closed).toBe('local');
  });
});
