// Early spawning (start-up): a child spawned before its transport exists is adopted, unchanged, by
// the first transport started with the same spawn options, and only by one; a child nobody adopts
// is killed by dropEarly. Real children (the echo fixture), no timing assumptions.

import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.js';
import { StdioTransport, dropEarly, spawnEarly } from '../../../src/outbound/stdio-transport.js';
import type { JsonRpcMessage } from '../../../src/protocol/jsonrpc.js';
import { NO_SINK, type TransportSink } from '../../../src/transport.js';
import { fixture, nodeBin, repoRoot } from '../../helpers/paths.js';
import { pidAlive as alive, waitFor } from '../../helpers/processes.js';

const spawnOptions = (env: Record<string, string> = {}) => ({ command: nodeBin, args: [fixture('echo')], env, cwd: repoRoot });

/** What each transport's sink heard, by transport. */
const sinks = new Map<StdioTransport, { answered: Array<(m: JsonRpcMessage) => void>; closed: Array<(r?: Error) => void> }>();
function sinkOf(transport: StdioTransport): TransportSink {
  const heard = { answered: [] as Array<(m: JsonRpcMessage) => void>, closed: [] as Array<(r?: Error) => void> };
  sinks.set(transport, heard);
  return { ...NO_SINK, message: (m) => heard.answered.shift()?.(m), close: (r) => heard.closed.shift()?.(r) };
}

/** initialize over the transport: resolves with the server's answer. */
function initialize(transport: StdioTransport): Promise<JsonRpcMessage> {
  const answered = new Promise<JsonRpcMessage>((resolve) => sinks.get(transport)!.answered.push(resolve));
  void transport.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '0' } } });
  return answered;
}

const started: StdioTransport[] = [];
async function startTransport(env?: Record<string, string>): Promise<StdioTransport> {
  const transport = new StdioTransport({ ...spawnOptions(env), logger: silentLogger() });
  started.push(transport);
  await transport.start(sinkOf(transport));
  return transport;
}

afterEach(async () => {
  await dropEarly();
  await Promise.all(started.splice(0).map((t) => t.close()));
});

describe('spawnEarly', () => {
  it('the transport with the same options adopts the early child, which serves it', async () => {
    const pid = spawnEarly(spawnOptions());
    expect(pid).toBeTypeOf('number');
    const transport = await startTransport();
    expect(transport.pid).toBe(pid);
    expect(await initialize(transport)).toMatchObject({ id: 1, result: { serverInfo: expect.any(Object) } });
  });

  it('each early child is adopted once: the next transport spawns its own', async () => {
    const pid = spawnEarly(spawnOptions());
    const first = await startTransport();
    const second = await startTransport();
    expect(first.pid).toBe(pid);
    expect(second.pid).not.toBe(pid);
    expect(await initialize(second)).toMatchObject({ id: 1 });
  });

  it('a child that dies before it is adopted still has its say: its stderr reaches the transport', async () => {
    const options = { command: nodeBin, args: [fixture('misbehaving'), '--exit-on-start'], env: {}, cwd: repoRoot };
    const pid = spawnEarly(options)!;
    // Adopted only once it is gone: everything it wrote came before any transport listened.
    await waitFor(() => !alive(pid), { message: 'the early child exits' });
    const transport = new StdioTransport({ ...options, logger: silentLogger() });
    const sink = sinkOf(transport);
    const closed = new Promise<Error | undefined>((resolve) => sinks.get(transport)!.closed.push(resolve));
    started.push(transport);
    await transport.start(sink);
    expect(transport.pid).toBe(pid);
    const reason = await closed;
    expect(transport.lastStderr.join('\n')).toMatch(/--exit-on-start given/);
    expect(String(reason?.message)).toMatch(/exited with code 1/);
  });

  it('a transport with other options (here the env) does not adopt it, and dropEarly kills it', async () => {
    const pid = spawnEarly(spawnOptions({ MODE: 'a' }))!;
    const transport = await startTransport({ MODE: 'b' });
    expect(transport.pid).not.toBe(pid);
    expect(alive(pid)).toBe(true);
    await dropEarly();
    expect(alive(pid)).toBe(false);
    expect(await initialize(transport)).toMatchObject({ id: 1 });
  });
});
