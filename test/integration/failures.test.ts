// Servers that fail, crash, hang or ignore SIGTERM: the gateway keeps serving the others, answers
// calls to a broken server with a clear error quickly, and leaves no process behind.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, connectHttpClient, fixtureServer, pidAlive, startGateway, waitFor, yamlServers, type HttpGateway } from '../helpers/index.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

afterAll(cleanup);

describe('a gateway in front of misbehaving servers', () => {
  let gw: HttpGateway;
  let client: Client;

  beforeAll(async () => {
    gw = await startGateway(
      yamlServers([
        fixtureServer('good', 'echo'),
        fixtureServer('gone', 'misbehaving', ['--exit-on-start']),
        fixtureServer('mute', 'misbehaving', ['--hang-initialize'], { startupTimeout: '1s' }),
        fixtureServer('crashy', 'misbehaving'),
        fixtureServer('slowpoke', 'misbehaving', [], { timeout: '300ms' }),
        fixtureServer('stubborn', 'misbehaving', ['--ignore-sigterm']),
      ]),
    );
    client = await connectHttpClient(gw.url);
  });

  afterAll(async () => {
    await client?.close();
  });

  it('starts anyway, and says which servers failed and why', async () => {
    const all = gw.stderrLines.join('\n');
    expect(all).toMatch(/good: connected/);
    expect(all).toMatch(/gone: down, reconnecting.* — .*exited with code 1/);
    expect(all).toMatch(/mute: down, reconnecting.*(did not answer initialize|did not finish starting)/);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('good__echo');
    expect(tools.some((t) => t.startsWith('gone__') || t.startsWith('mute__'))).toBe(false);
  });

  it('answers a call whose server crashes mid-call with an error, and keeps serving the others', async () => {
    const started = Date.now();
    const crash = await client.callTool({ name: 'crashy__crash', arguments: { code: 3 } }).catch((e) => e);
    expect(crash.code).toBe(-32603);
    expect(crash.message).toMatch(/crashy/);
    expect(crash.message).toMatch(/closed|exited/);
    // Later calls fail fast, naming the server, while its tools stay listed.
    const again = await client.callTool({ name: 'crashy__echo', arguments: { text: 'x' } }).catch((e) => e);
    expect(again.message).toMatch(/server "crashy" is unavailable/);
    expect(Date.now() - started).toBeLessThan(10_000);
    const ok = await client.callTool({ name: 'good__echo', arguments: { text: 'still here' } });
    expect((ok.content as any)[0].text).toBe('still here');
  });

  it('times a hung call out at the server timeout, cancels it at the server, and says so', async () => {
    const err = await client.callTool({ name: 'slowpoke__hang', arguments: {} }).catch((e) => e);
    expect(err.message).toMatch(/slowpoke did not answer tools\/call within/);
    await gw.waitForStderr(/cancelled id=/);
    const ok = await client.callTool({ name: 'slowpoke__echo', arguments: { text: 'fine' } });
    expect((ok.content as any)[0].text).toBe('fine');
  });

  it('survives garbage on a server stdout', async () => {
    const g = await client.callTool({ name: 'slowpoke__garbage', arguments: {} });
    expect(g.isError).toBeFalsy();
    const ok = await client.callTool({ name: 'good__echo', arguments: { text: 'after garbage' } });
    expect((ok.content as any)[0].text).toBe('after garbage');
  });

  it('ends every server process on SIGTERM, even one that ignores SIGTERM', async () => {
    const pids = gw.stderrLines.flatMap((l) => [...l.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1])));
    expect(pids.length).toBeGreaterThanOrEqual(4);
    await client.close();
    const exit = await gw.stop();
    expect(exit.code).toBe(0);
    await waitFor(() => pids.every((p) => !pidAlive(p)), { timeout: 5000, message: 'server processes still alive' });
  });
});
