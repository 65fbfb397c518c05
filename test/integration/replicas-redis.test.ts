// The same two-replica scenarios on Debian's redis-server (the store a cluster really uses): a
// session initialized on one replica served on the other, a POST stream cut after its priming
// event resumed on the other replica with every progress notification and the response once, and
// a DELETE on one ending the session everywhere.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, yamlServers } from '../helpers/index.js';
import { REDIS_SERVER, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { startReplicas, type Replicas } from '../helpers/replicas.js';
import { cutting } from '../helpers/cut-stream.js';

let redis: RedisServer | undefined;
let cluster: Replicas | undefined;
const clients: Client[] = [];
beforeAll(async () => {
  if (REDIS_SERVER !== undefined) redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await cluster?.close();
  cluster = undefined;
});

describe.skipIf(REDIS_SERVER === undefined)('two replicas on redis-server (skipped: no redis-server; .ci/run installs it)', () => {
  it('serve one session on both, resume a cut POST stream on the other one, and end it everywhere', async () => {
    cluster = await startReplicas(yamlServers([fixtureServer('i', 'interactive')], { state: { redis: redis!.url } }), 2, 'config');
    const c = cluster;
    expect(c.replicas.map((r) => r.store.kind)).toEqual(['redis', 'redis']);
    // POSTs to A, GETs (the GET stream, the resumption) to B; the first call's stream cut after its priming event.
    const cut = cutting((method) => c.to(method === 'POST' ? 0 : 1));
    const transport = new StreamableHTTPClientTransport(new URL(c.url), {
      fetch: cut.fetch,
      reconnectionOptions: { initialReconnectionDelay: 10, maxReconnectionDelay: 50, reconnectionDelayGrowFactor: 1, maxRetries: 3 },
    });
    const client = new Client({ name: 'redis-replicas', version: '1.0.0' }, { capabilities: {} });
    client.onerror = () => {};
    clients.push(client);
    await client.connect(transport);
    const progress: number[] = [];
    const result = await client.callTool({ name: 'i__progress', arguments: { steps: 4, text: 'all done' } }, undefined, { onprogress: (p) => progress.push(p.progress), timeout: 20_000 });
    expect(cut.state.primed).not.toBe('');
    expect(cut.state.resumedWith).toEqual([cut.state.primed]);
    expect((result.content as Array<{ text: string }>)[0]!.text).toBe('all done');
    expect(progress).toEqual([1, 2, 3, 4]);
    expect(c.replicas.map((r) => r.app.sessionCount)).toEqual([1, 1]);

    await transport.terminateSession();
    await expect.poll(() => c.replicas.map((r) => r.app.sessionCount)).toEqual([0, 0]);
  });
});
