// Proves the fixture servers behave as documented, using the official SDK client directly
// (no gateway involved). If one of these fails, gateway integration tests cannot be trusted.
import { afterAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, type McpError } from '@modelcontextprotocol/sdk/types.js';
import { JsonLinePeer, cleanup, connectHttpClient, connectStdioClient, fixtureParams, pidAlive, spawnFixture, startHttpFixture, stdioPid, stdioStderr, waitFor } from '../helpers/index.js';

afterAll(cleanup);

function text(result: unknown): string {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content;
  return content.map((c) => c.text ?? '').join('');
}

async function rpcError(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (err) {
    return err as McpError;
  }
  throw new Error('expected a JSON-RPC error');
}

/** Collects every page of a list method, checking that it really spans several pages. */
async function allPages<T>(list: (cursor?: string) => Promise<{ nextCursor?: string } & Record<string, unknown>>, key: string): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await list(cursor);
    pages++;
    items.push(...(page[key] as T[]));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return { items, pages };
}

describe('echo.mjs', () => {
  it('serves echo, add and N extra tools, with the configured name and tools-only capabilities', async () => {
    const client = await connectStdioClient(fixtureParams('echo', ['--tools', '3', '--name', 'alpha']));
    expect(client.getServerVersion()?.name).toBe('alpha');
    expect(client.getServerCapabilities()).toEqual({ tools: {} });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['echo', 'add', 'tool_0', 'tool_1', 'tool_2']);
    expect(text(await client.callTool({ name: 'echo', arguments: { text: 'hi there' } }))).toBe('hi there');
    expect(text(await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } }))).toBe('42');
    expect(text(await client.callTool({ name: 'tool_2', arguments: { text: 'x' } }))).toBe('x');
    expect((await rpcError(client.callTool({ name: 'nope', arguments: {} }))).code).toBe(ErrorCode.InvalidParams);
    expect(await client.ping()).toEqual({});
    await client.close();
  });

  it('frames correctly: split lines, several messages per chunk, concurrent requests, version echo', async () => {
    const f = spawnFixture('echo');
    const peer = new JsonLinePeer(f.proc, f.stdout);
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    peer.write(init.slice(0, 17));
    peer.write(`${init.slice(17)}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const initResponse = await peer.next((m) => m.id === 'init');
    expect((initResponse.result as { protocolVersion: string }).protocolVersion).toBe('2024-11-05');

    const calls = Array.from({ length: 50 }, (_, i) => peer.request('tools/call', { name: 'echo', arguments: { text: `n${i}` } }));
    const responses = await Promise.all(calls);
    responses.forEach((r, i) => {
      expect(text(r.result)).toBe(`n${i}`);
    });
    expect((await peer.request('no/such/method')).error?.code).toBe(-32601);

    const unknownVersion = await peer.request('initialize', {
      protocolVersion: '1999-01-01',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    });
    expect((unknownVersion.result as { protocolVersion: string }).protocolVersion).toBe('2025-11-25');
    expect(peer.garbage).toEqual([]);

    f.proc.stdin!.end(); // closing stdin is the polite shutdown
    expect(await f.exited).toEqual({ code: 0, signal: null });
  });
});

describe('paginated.mjs', () => {
  let client: Client;

  it('connects with all capabilities and the instructions', async () => {
    client = await connectStdioClient(fixtureParams('paginated', ['--name', 'pg', '--instructions', 'Use pg wisely.', '--uri-scheme', 'pgs']));
    expect(client.getServerVersion()?.name).toBe('pg');
    expect(client.getInstructions()).toBe('Use pg wisely.');
    expect(Object.keys(client.getServerCapabilities() ?? {}).sort()).toEqual(['completions', 'logging', 'prompts', 'resources', 'tools']);
  });

  it('pages tools, prompts, resources and templates with nextCursor', async () => {
    const tools = await allPages<{ name: string }>((cursor) => client.listTools({ cursor }), 'tools');
    expect(tools.pages).toBe(5);
    expect(tools.items.map((t) => t.name)).toEqual(Array.from({ length: 25 }, (_, i) => `t_${i}`));

    const prompts = await allPages<{ name: string }>((cursor) => client.listPrompts({ cursor }), 'prompts');
    expect(prompts.pages).toBe(2);
    expect(prompts.items).toHaveLength(7);

    const resources = await allPages<{ uri: string }>((cursor) => client.listResources({ cursor }), 'resources');
    expect(resources.pages).toBe(3);
    expect(resources.items.map((r) => r.uri)).toContain('pgs://item/11');

    const templates = await allPages<{ uriTemplate: string }>((cursor) => client.listResourceTemplates({ cursor }), 'resourceTemplates');
    expect(templates.pages).toBe(1);
    expect(templates.items.map((t) => t.uriTemplate)).toEqual(['pgs://tpl/{id}', 'pgs://tpl1/{id}', 'pgs://tpl2/{id}']);
  });

  it('rejects invalid cursors, and cursors from another list, with -32602', async () => {
    expect((await rpcError(client.listTools({ cursor: 'not-a-cursor' }))).code).toBe(ErrorCode.InvalidParams);
    const { nextCursor } = await client.listTools();
    expect(nextCursor).toBeTypeOf('string');
    expect((await rpcError(client.listPrompts({ cursor: nextCursor }))).code).toBe(ErrorCode.InvalidParams);
  });

  it('answers calls, prompts, reads, completions and setLevel', async () => {
    expect(text(await client.callTool({ name: 't_7', arguments: { value: 'v' } }))).toBe('pg:t_7:{"value":"v"}');
    const prompt = await client.getPrompt({ name: 'p_3', arguments: { topic: 'cats' } });
    expect(prompt.messages[0]).toEqual({ role: 'user', content: { type: 'text', text: 'pg:p_3 about cats' } });

    const read = await client.readResource({ uri: 'pgs://item/4' });
    expect(read.contents[0]).toMatchObject({ uri: 'pgs://item/4', text: 'pg item 4' });
    const tpl = await client.readResource({ uri: 'pgs://tpl/abc' });
    expect((tpl.contents[0] as { text: string }).text).toContain('abc');
    const missing = await rpcError(client.readResource({ uri: 'pgs://item/999' }));
    expect(missing).toMatchObject({ code: -32002 });
    expect(missing.message).toContain('Resource not found');

    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'p_0' },
      argument: { name: 'topic', value: 'al' },
    });
    expect(completion.completion.values).toEqual(['alpha', 'alps']);
    expect(await client.setLoggingLevel('debug')).toEqual({});
    await client.close();
  });

  it('honours --tools/--page/--tool-prefix', async () => {
    const c = await connectStdioClient(fixtureParams('paginated', ['--tools', '3', '--page', '2', '--tool-prefix', 'x_']));
    const tools = await allPages<{ name: string }>((cursor) => c.listTools({ cursor }), 'tools');
    expect(tools.pages).toBe(2);
    expect(tools.items.map((t) => t.name)).toEqual(['x_0', 'x_1', 'x_2']);
    await c.close();
  });
});

describe('misbehaving.mjs', () => {
  it('--exit-on-start: connect fails, the reason is on stderr', async () => {
    const err = await rpcError(connectStdioClient(fixtureParams('misbehaving', ['--exit-on-start'])));
    // The SDK reports the closed pipe as McpError ConnectionClosed (-32000).
    expect(err.code).toBe(ErrorCode.ConnectionClosed);
    expect((err as unknown as { stderr: string }).stderr).toMatch(/pid=\d+[\s\S]*exit-on-start/);
  });

  it('--fail-initialize: connect fails with the JSON-RPC error', async () => {
    const err = await rpcError(connectStdioClient(fixtureParams('misbehaving', ['--fail-initialize'])));
    expect(err.code).toBe(ErrorCode.InternalError);
    expect(err.message).toContain('initialize refused by fixture');
  });

  it('--hang-initialize: connect times out', async () => {
    const err = await rpcError(connectStdioClient(fixtureParams('misbehaving', ['--hang-initialize']), { timeoutMs: 300 }));
    expect(err.code).toBe(ErrorCode.RequestTimeout);
  });

  it('crash: the call fails, the connection closes and the process is gone', async () => {
    let closed!: () => void;
    const onClose = new Promise<void>((resolve) => (closed = resolve));
    const client = await connectStdioClient(fixtureParams('misbehaving'), {
      setup: (c) => (c.onclose = () => closed()),
    });
    const pid = stdioPid(client)!;
    expect(await stdioStderr(client).waitForLine(/^pid=\d+$/)).toBe(`pid=${pid}`);
    const err = await rpcError(client.callTool({ name: 'crash', arguments: {} }));
    expect(err.code).toBe(ErrorCode.ConnectionClosed);
    await onClose;
    await waitFor(() => !pidAlive(pid), { message: 'crashed fixture gone' });
  });

  it('hang never answers (and logs the cancellation); slow answers after ms with progress; big is exact', async () => {
    const client = await connectStdioClient(fixtureParams('misbehaving'));
    const hang = await rpcError(client.callTool({ name: 'hang', arguments: {} }, undefined, { timeout: 200 }));
    expect(hang.code).toBe(ErrorCode.RequestTimeout);
    // The SDK sends notifications/cancelled on timeout; the fixture reports it.
    await stdioStderr(client).waitForLine(/^cancelled id=\d+$/);

    const progress: number[] = [];
    const slow = await client.callTool({ name: 'slow', arguments: { ms: 50 } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(text(slow)).toBe('slept 50');
    // The fixture sends progress 0/1 and 1/1, but SDK 1.32 dispatches notifications a microtask
    // late, so the last one (sent right before the response) is dropped once the response lands.
    expect(progress[0]).toBe(0);

    // Slow calls overlap: 10 x 150 ms would take 1.5 s if the server serialised them.
    const t0 = Date.now();
    await Promise.all(Array.from({ length: 10 }, () => client.callTool({ name: 'slow', arguments: { ms: 150 } })));
    expect(Date.now() - t0).toBeLessThan(1000);

    expect(text(await client.callTool({ name: 'big', arguments: { bytes: 300_000 } }))).toHaveLength(300_000);
    await client.close();
  });

  it('garbage: the SDK client reports the junk via onerror and still gets the answer', async () => {
    const errors: string[] = [];
    const client = await connectStdioClient(fixtureParams('misbehaving'), {
      setup: (c) => (c.onerror = (e) => errors.push(e.message)),
    });
    expect(text(await client.callTool({ name: 'garbage', arguments: {} }))).toBe('ok after garbage');
    // Recorded SDK 1.32 behaviour: onerror gets the JSON SyntaxError for the non-JSON line, then
    // "Received a response for an unknown message ID: {...987654321...}"; neither closes the
    // connection and the real answer still arrives.
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/not valid JSON/);
    expect(errors[1]).toMatch(/unknown message ID.*987654321/);
    expect(text(await client.callTool({ name: 'echo', arguments: { text: 'still fine' } }))).toBe('still fine');
    await client.close();
  });

  it('--ignore-sigterm: survives SIGTERM and stdin end, only SIGKILL stops it', async () => {
    const f = spawnFixture('misbehaving', ['--ignore-sigterm']);
    await f.stderr.waitForLine(/^pid=/);
    const peer = new JsonLinePeer(f.proc, f.stdout);
    await peer.initialize();
    f.proc.stdin!.end();
    f.proc.kill('SIGTERM');
    await f.stderr.waitForLine(/^ignored SIGTERM$/);
    expect(pidAlive(f.pid)).toBe(true);
    f.proc.kill('SIGKILL');
    expect(await f.exited).toEqual({ code: null, signal: 'SIGKILL' });
  });
});

describe('http-server.mjs', () => {
  it('works over Streamable HTTP with stateful sessions and exits 0 on SIGTERM', async () => {
    const server = await startHttpFixture({ name: 'remote-one' });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connectHttpClient(server.url);
    expect(text(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('remote-one');
    expect(text(await client.callTool({ name: 'echo', arguments: { text: 'over http' } }))).toBe('over http');
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['greet']);
    const readme = await client.readResource({ uri: 'http://fixture/readme' });
    expect((readme.contents[0] as { text: string }).text).toBe('remote-one readme');

    // A request with an unknown session id is refused with 404.
    const res = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'nope' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(res.status).toBe(404);

    await client.close();
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  });

  it('works over the legacy HTTP+SSE transport (SDK SSEClientTransport)', async () => {
    const server = await startHttpFixture({ legacy: true });
    expect(server.url).toMatch(/\/sse$/);
    const client = await connectHttpClient(server.url, { transport: 'sse' });
    expect(text(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('http-fixture');
    expect(text(await client.callTool({ name: 'echo', arguments: { text: 'legacy' } }))).toBe('legacy');
    await client.close();
    server.proc.stdin!.end(); // end of stdin also stops it
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});
