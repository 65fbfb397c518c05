// A server that stays down: its items outlive it for `downtimeGrace`, then leave the catalog and
// come back when it does; and a server that dies at every start is given up on after
// `reconnect.maxFailures` failures in a row. Built CLI, misbehaving fixture servers.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, connectHttpClient, fixtureServer, startGateway, trackDir, yamlServers } from '../helpers/index.js';

afterAll(cleanup);

/** Every notifications/tools/list_changed a client gets, and a way to await the n-th one. */
function listChangedCounter() {
  let count = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  return {
    setup(client: Client) {
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        count++;
        for (const w of waiters.filter((w) => count >= w.n)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      });
    },
    get count() {
      return count;
    },
    /** Resolves once `n` have arrived in all (at once if they have). */
    reach(n: number, timeoutMs = 10_000): Promise<void> {
      if (count >= n) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${count} tools/list_changed of ${n} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
  };
}

const toolNames = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();

describe('a server that stays down', () => {
  it('keeps its tools listed for downtimeGrace, then drops them with list_changed, and brings them back when it returns', async () => {
    const dir = trackDir(await mkdtemp(path.join(os.tmpdir(), 'switchboard-downtime-')));
    const blocker = path.join(dir, 'stay-down');
    const gw = await startGateway(
      yamlServers([
        fixtureServer('good', 'echo'),
        fixtureServer('flaky', 'misbehaving', ['--exit-on-start-if-exists', blocker], {
          reconnect: { initialDelay: '100ms', maxDelay: '200ms', maxFailures: 1000 },
          // Longer than a failed restart (backoff ≤ 240 ms + a node start-up) takes: the grace
          // runs from the drop, not from the last failed attempt.
          downtimeGrace: '1s',
        }),
      ]),
    );
    const changes = listChangedCounter();
    const client = await connectHttpClient(gw.url, { setup: (c) => changes.setup(c) });
    const all = await toolNames(client);
    expect(all).toContain('flaky__echo');
    expect(all).toContain('good__echo');
    const goodTools = all.filter((n) => n.startsWith('good__'));
    const before = changes.count;

    // It dies mid-call and cannot come back while the file exists.
    await writeFile(blocker, '');
    const crashedAt = Date.now();
    const crash = await client.callTool({ name: 'flaky__crash', arguments: {} }).catch((e) => e);
    expect(crash).toBeInstanceOf(Error);
    expect(crash.message).toMatch(/flaky/);

    // Within the grace: still listed, and calls fail at once, saying it is unavailable.
    const [during, call] = await Promise.all([
      toolNames(client),
      (async () => {
        const t0 = Date.now();
        const err = await client.callTool({ name: 'flaky__echo', arguments: { text: 'x' } }).catch((e) => e);
        return { err, ms: Date.now() - t0 };
      })(),
    ]);
    expect(during).toEqual(all);
    expect(call.err).toBeInstanceOf(Error);
    expect(call.err.message).toMatch(/server "flaky" is unavailable/);
    expect(call.err.data?.code).toBe('SERVER_UNAVAILABLE');
    expect(call.ms).toBeLessThan(2000);
    expect(changes.count).toBe(before);
    // It keeps trying (and failing) meanwhile.
    await gw.waitForStderr(/"server":"flaky".*--exit-on-start-if-exists/);

    // The grace ends: one list_changed, its tools are gone, the others' stay. (The grace runs
    // from the drop: were each failed retry to restart it, this line would never come.)
    await gw.waitForStderr(/"server":"flaky".*still down after 1s; its items leave the catalog/);
    await changes.reach(before + 1);
    expect(Date.now() - crashedAt).toBeGreaterThanOrEqual(950);
    expect(await toolNames(client)).toEqual(goodTools);
    const gone = await client.callTool({ name: 'flaky__echo', arguments: { text: 'x' } }).catch((e) => e);
    expect(gone.code).toBe(-32602); // out of the catalog: an unknown tool now
    expect((await client.callTool({ name: 'good__echo', arguments: { text: 'still here' } })).content).toEqual([{ type: 'text', text: 'still here' }]);
    expect(changes.count).toBe(before + 1);

    // Let it start again: it reconnects, another list_changed, its tools are back and work.
    await rm(blocker);
    await gw.waitForStderr(/"server":"flaky".*"msg":"reconnected"/);
    await changes.reach(before + 2);
    expect(await toolNames(client)).toEqual(all);
    expect((await client.callTool({ name: 'flaky__echo', arguments: { text: 'back' } })).content).toEqual([{ type: 'text', text: 'back' }]);
    expect(changes.count).toBe(before + 2);
    await client.close();
  });
});

describe('a server that dies at every start', () => {
  it('is started maxFailures + 1 times, then given up on for good', async () => {
    const fast = { initialDelay: '50ms', maxDelay: '100ms' };
    const gw = await startGateway(
      yamlServers([
        fixtureServer('good', 'echo'),
        // protocol: stateful, so that the count is of attempts only: with the era probe a process
        // that dies at once is started twice on the first attempt (it may have died of the probe).
        fixtureServer('loop', 'misbehaving', ['--exit-on-start'], { reconnect: { ...fast, maxFailures: 3 }, protocol: 'stateful' }),
        // A clock made of events: the same crash loop, given up on 4 tries (≥ 320 ms of backoff)
        // later. Were `loop` to try again, it would within 120 ms of giving up.
        fixtureServer('clock', 'misbehaving', ['--exit-on-start'], { reconnect: { ...fast, maxFailures: 7 }, protocol: 'stateful' }),
      ]),
    );
    await gw.waitForStderr(/"server":"loop".*server failed \(gave up after 3 attempts in a row\)/);
    await gw.waitForStderr(/"server":"clock".*server failed \(gave up after 7 attempts in a row\)/);

    // Backoff.failed() gives up on failure maxFailures + 1: the first start and 3 retries.
    const lines = (name: string, re: RegExp) => gw.stderrLines.filter((l) => l.includes(`"server":"${name}"`) && re.test(l));
    const pids = lines('loop', /"msg":"pid=\d+"/).map((l) => Number(/pid=(\d+)/.exec(l)![1]));
    expect(pids).toHaveLength(4);
    expect(new Set(pids).size).toBe(4);
    expect(lines('loop', /"msg":"misbehaving: --exit-on-start given, exiting with code 1"/)).toHaveLength(4);
    expect(lines('loop', /server down; reconnecting/)).toHaveLength(3);
    expect(lines('loop', /server failed/)).toHaveLength(1);
    expect(lines('clock', /"msg":"pid=\d+"/)).toHaveLength(8);

    // The others are unaffected.
    const client = await connectHttpClient(gw.url);
    expect((await client.callTool({ name: 'good__echo', arguments: { text: 'fine' } })).content).toEqual([{ type: 'text', text: 'fine' }]);
    await client.close();
  });
});
