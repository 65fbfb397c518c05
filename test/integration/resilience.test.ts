// It keeps serving, loses nothing, leaks nothing: reconnects, hot reload, graceful shutdown,
// oversized messages and bad input, with the built CLI and misbehaving fixture servers.

import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, connectHttpClient, descendantPids, fixtureServer, gatewayMain, nodeBin, pidAlive, repoRoot, startGateway, waitFor, yamlServers } from '../helpers/index.js';
import { LineCollector, trackProcess } from '../helpers/processes.js';

afterAll(cleanup);

describe('a server that crashes', () => {
  it('is reconnected with backoff; its tools stay listed meanwhile and work again after', async () => {
    const gw = await startGateway(yamlServers([fixtureServer('good', 'echo'), fixtureServer('crashy', 'misbehaving')]));
    const client = await connectHttpClient(gw.url);
    const crash = await client.callTool({ name: 'crashy__crash', arguments: {} }).catch((e) => e);
    expect(crash.message).toMatch(/crashy/);
    // Down: listed, failing fast with a message that names the server and says it reconnects.
    const meanwhile = await client.callTool({ name: 'crashy__echo', arguments: { text: 'x' } }).catch((e) => e);
    expect(meanwhile.message ?? '').toMatch(/server "crashy" is unavailable|^$/);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('crashy__echo');
    await gw.waitForStderr(/"server":"crashy".*"msg":"reconnected"/);
    const back = await client.callTool({ name: 'crashy__echo', arguments: { text: 'back' } });
    expect((back.content as any)[0].text).toBe('back');
    await client.close();
  });
});

describe('a message over the size limit', () => {
  it('fails that call at once with a clear error and the server goes on', async () => {
    const gw = await startGateway(yamlServers([fixtureServer('big', 'misbehaving')], { limits: { maxMessageBytes: 65536 } }));
    const client = await connectHttpClient(gw.url);
    const started = Date.now();
    const err = await client.callTool({ name: 'big__big', arguments: { bytes: 500_000 } }).catch((e) => e);
    expect(err.message).toMatch(/over the limit of 65536 bytes/);
    expect(err.data?.code).toBe('MESSAGE_TOO_LARGE');
    expect(Date.now() - started).toBeLessThan(5000);
    const ok = await client.callTool({ name: 'big__big', arguments: { bytes: 1000 } });
    expect(((ok.content as any)[0].text as string).length).toBe(1000);
    await client.close();
  });
});

describe('hot reload', () => {
  it('starts added servers, stops removed ones, leaves unchanged ones alone, and tells clients', async () => {
    const before = yamlServers([fixtureServer('keep', 'echo'), fixtureServer('drop', 'misbehaving')]);
    const gw = await startGateway(before);
    const client = await connectHttpClient(gw.url);
    const pidOf = (name: string) => Number(gw.stderrLines.find((l) => l.includes(`"server":"${name}"`) && /pid=\d+/.test(l))?.match(/pid=(\d+)/)?.[1]);
    const children = descendantPids(gw.pid);
    const dropPid = pidOf('drop');
    expect(children).toContain(dropPid);
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));

    await writeFile(gw.configPath, yamlServers([fixtureServer('keep', 'echo'), fixtureServer('added', 'paginated', ['--tools', '2'])]));
    await gw.waitForStderr(/config reloaded \(file changed\): started added; stopped drop/);
    await changed;
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('added__t_1');
    expect(names).not.toContain('drop__echo');
    await waitFor(() => !pidAlive(dropPid), { timeout: 5000, message: 'removed server still running' });
    // The unchanged server is the same process as before.
    const keepBefore = children.filter((p) => p !== dropPid);
    expect(descendantPids(gw.pid)).toEqual(expect.arrayContaining(keepBefore));

    await writeFile(gw.configPath, 'servers:\n  - name: Not Valid\n');
    await gw.waitForStderr(/config not reloaded \(file changed\); the running config stays/);
    expect((await client.callTool({ name: 'keep__echo', arguments: { text: 'still' } })).content).toEqual([{ type: 'text', text: 'still' }]);
    await client.close();
  });

  it('keeps a session’s subscriptions when a reload restarts their server', async () => {
    const before = yamlServers([fixtureServer('int', 'interactive')]);
    const gw = await startGateway(before);
    const client = await connectHttpClient(gw.url);
    await client.subscribeResource({ uri: 'mem://counter' });
    await writeFile(gw.configPath, yamlServers([fixtureServer('int', 'interactive', [], { timeout: '30s' })]));
    await gw.waitForStderr(/config reloaded \(file changed\): restarted int/);
    // The new process was told about the subscription: its updates reach the client.
    const updated = new Promise<any>((resolve) => client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params)));
    await client.callTool({ name: 'int__bump', arguments: {} });
    expect((await updated).uri).toBe('mem://counter');
    await client.close();
  });

  it('reloads on SIGHUP too', async () => {
    const gw = await startGateway(yamlServers([fixtureServer('one', 'echo')]));
    await writeFile(gw.configPath, yamlServers([fixtureServer('one', 'echo'), fixtureServer('two', 'echo')]));
    // The file watcher may win the race; either way the new server must start.
    gw.proc.kill('SIGHUP');
    await gw.waitForStderr(/config reloaded \((SIGHUP|file changed)\): started two/);
  });
});

describe('shutdown', () => {
  it('lets a call in flight finish on SIGTERM, then exits 0 with no process left', async () => {
    const gw = await startGateway(yamlServers([fixtureServer('slow', 'misbehaving')]));
    const client = await connectHttpClient(gw.url);
    const pids = descendantPids(gw.pid);
    let started!: () => void;
    const reached = new Promise<void>((resolve) => (started = resolve));
    // The fixture reports progress 0 as it starts: the call is in the server's hands.
    const call = client.callTool({ name: 'slow__slow', arguments: { ms: 800 } }, undefined, { onprogress: () => started() });
    await reached;
    gw.proc.kill('SIGTERM');
    const r = await call;
    expect(JSON.stringify(r.content)).not.toMatch(/error/i);
    expect((await gw.exited).code).toBe(0);
    await waitFor(() => pids.every((p) => !pidAlive(p)), { timeout: 5000, message: 'server process left behind' });
  });

  it('in stdio mode, answers what is in flight when stdin closes, then exits 0', async () => {
    const dir = (await startGateway(yamlServers([]), { mode: 'stdio' })).dir; // only for a temp folder
    const file = `${dir}/stdio.yaml`;
    await writeFile(file, yamlServers([fixtureServer('slow', 'misbehaving')]));
    const child = trackProcess(spawn(nodeBin, [gatewayMain, 'serve', '--stdio', '-c', file], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] }));
    const out = new LineCollector(child.stdout);
    const send = (m: object) => child.stdin!.write(`${JSON.stringify(m)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await out.waitForLine(/"id":1/);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow__slow', arguments: { ms: 500 } } });
    child.stdin!.end();
    const answer = JSON.parse(await out.waitForLine(/"id":2/));
    expect(answer.result).toBeDefined();
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
  });
});

describe('bad input from a stdio client', () => {
  it('answers each with the right JSON-RPC error and keeps the session going', async () => {
    const dir = (await startGateway(yamlServers([]), { mode: 'stdio' })).dir;
    const file = `${dir}/bad.yaml`;
    await writeFile(file, yamlServers([fixtureServer('echo', 'echo')], { limits: { maxMessageBytes: 4096 } }));
    const child = trackProcess(spawn(nodeBin, [gatewayMain, 'serve', '--stdio', '-c', file], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] }));
    // Replies in arrival order, one per line.
    const queue: string[] = [];
    const waiting: ((l: string) => void)[] = [];
    let buffer = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) !== -1) {
        const l = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const w = waiting.shift();
        if (w) w(l);
        else queue.push(l);
      }
    });
    const reply = async () => JSON.parse(queue.length ? queue.shift()! : await new Promise<string>((r) => waiting.push(r)));
    const line = (text: string) => child.stdin!.write(`${text}\n`);
    line('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}');
    expect((await reply()).id).toBe(1);
    line('{not json');
    expect((await reply()).error.code).toBe(-32700);
    line('{"jsonrpc":"2.0","id":2}');
    expect((await reply()).error.code).toBe(-32600);
    line('{"jsonrpc":"2.0","id":3,"method":"no/such/method"}');
    expect(await reply()).toMatchObject({ id: 3, error: { code: -32601 } });
    line('[{"jsonrpc":"2.0","id":4,"method":"ping"}]');
    expect((await reply()).error.message).toMatch(/batches are not supported/);
    line(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'ping', params: { pad: 'x'.repeat(10_000) } }));
    expect((await reply()).error.message).toMatch(/exceeds the limit of 4096 bytes/);
    line('{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo__echo","arguments":{"text":"alive"}}}');
    expect((await reply()).result.content[0].text).toBe('alive');
    child.stdin!.end();
  });
});
