// The app's state store and signing key: two apps sharing a store (two replicas) accept each
// other's cursors; apps with their own stores, or with listen.stateKey, sign as before.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../../src/app/app.js';
import { silentLogger } from '../../../src/log.js';
import { MemoryStore } from '../../../src/state/memory-store.js';
import { fakeServers } from '../../helpers/fake-transport.js';
import { gatewayConfig } from '../outbound/connection-harness.js';

vi.mock('../../../src/outbound/stdio-transport.js', async () => (await import('../../helpers/fake-transport.js')).fakeStdioModule());

const apps: App[] = [];
beforeEach(() => {
  fakeServers.clear();
  fakeServers.define('alpha', { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] });
});
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

async function started(store?: MemoryStore, extra: Record<string, unknown> = {}): Promise<App> {
  const app = new App(gatewayConfig({ servers: [{ name: 'alpha', command: 'alpha' }], ...extra }), silentLogger(), { stateStore: store });
  apps.push(app);
  await app.start();
  return app;
}

const cursor = { kind: 'tools' as const, offset: 1, afterKey: 'alpha__echo' };

describe('the state store in the app', () => {
  it('gives replicas sharing a store one signing key: a cursor from one decodes on the other', async () => {
    const first = new MemoryStore();
    const a = await started(first);
    const b = await started(new MemoryStore({ shareWith: first }));
    expect(b.router.cursors.decode(a.router.cursors.encode(cursor))).toMatchObject({ offset: 1, afterKey: 'alpha__echo' });
    expect(a.router.keyId).toBe(b.router.keyId);
  });

  it('keeps a key per process without a shared store', async () => {
    const a = await started();
    const b = await started();
    expect(a.state?.kind).toBe('memory');
    expect(b.router.cursors.decode(a.router.cursors.encode(cursor))).toBeUndefined();
  });

  it('signs with listen.stateKey when it is set, whatever the store', async () => {
    const key = 'one key for every process behind the balancer';
    const a = await started(undefined, { listen: { stateKey: key } });
    const b = await started(undefined, { listen: { stateKey: key } });
    expect(b.router.cursors.decode(a.router.cursors.encode(cursor))).toMatchObject({ offset: 1 });
  });

  it('closes the store with the app: the replica is no longer alive', async () => {
    const first = new MemoryStore();
    const a = await started(first);
    const second = new MemoryStore({ shareWith: first });
    await started(second);
    expect(first.liveReplicas()).toBe(2);
    await a.close();
    expect(await second.isAlive(first.replicaId)).toBe(false);
  });
});
