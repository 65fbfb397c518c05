// The StateStore contract on both stores: MemoryStore (two instances sharing maps, an injected
// clock) and RedisStore (two instances on a real redis-server). Then what only Redis has: health
// that follows the server going away and coming back, methods that reject at once while it is
// away, auth in the URL, a configured signing key, and any stream name and data surviving a trip.

import { createHash } from 'node:crypto';
import { createClient } from '@redis/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { openStore } from '../../src/state/open-store.js';
import { RedisStore, type RedisStoreOptions } from '../../src/state/redis-store.js';
import { StoreDownError, type StateStore, type StoreHealth } from '../../src/state/store.js';
import { cleanup, waitFor } from '../helpers/processes.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { nextMessage, record, stateStoreContract } from './state-store.contract.js';

const MAX_EVENTS = 5;
const MAX_EVENT_BYTES = 2048;

stateStoreContract('memory', async () => {
  let now = 1_000_000;
  let first: MemoryStore | undefined;
  return {
    maxEvents: MAX_EVENTS,
    maxEventBytes: MAX_EVENT_BYTES,
    shortTtlMs: 1000,
    open: async () => (first = new MemoryStore({ maxEvents: MAX_EVENTS, maxEventBytes: MAX_EVENT_BYTES, now: () => now })),
    peer: async () => new MemoryStore({ maxEvents: MAX_EVENTS, maxEventBytes: MAX_EVENT_BYTES, now: () => now, shareWith: first }),
    outlive: async () => {
      now += 1001;
    },
  };
});

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(cleanup);

let prefixes = 0;
const stores: RedisStore[] = [];
/** A started RedisStore; every test gets keys of its own (keyPrefix) on the one redis-server. */
async function redisStore(options: Partial<RedisStoreOptions> = {}): Promise<RedisStore> {
  const store = new RedisStore({ url: redis.url, maxEvents: MAX_EVENTS, maxEventBytes: MAX_EVENT_BYTES, heartbeatMs: 600, commandTimeoutMs: 1000, keyPrefix: `t${prefixes}:`, ...options });
  stores.push(store);
  expect(await store.start(5000)).toBe('up');
  return store;
}
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
});

stateStoreContract('redis', async () => {
  prefixes++;
  return {
    maxEvents: MAX_EVENTS,
    maxEventBytes: MAX_EVENT_BYTES,
    shortTtlMs: 150,
    open: () => redisStore(),
    peer: () => redisStore(),
    // Redis expires the key itself and says nothing: look until it is gone.
    outlive: (store, id) => waitFor(async () => (await store.getSession(id)) === undefined, { timeout: 3000, interval: 20, message: `${id} expired` }),
  };
});

/** The next health `store` reports. */
const nextHealth = (store: StateStore) =>
  new Promise<StoreHealth>((resolve) => {
    const stop = store.onHealth((h) => {
      stop();
      resolve(h);
    });
  });

describe('RedisStore only', () => {
  it('goes down when Redis stops, rejects at once while down, and comes back up by itself', async () => {
    prefixes++;
    const store = await redisStore();
    const peer = await redisStore();
    expect(store.health).toBe('up');
    await store.putSession(record('s1'), 60_000);
    const before = await nextMessage(peer, 's1');
    const down = nextHealth(store);
    await redis.stop();
    expect(await down).toBe('down');
    expect(store.health).toBe('down');
    const started = performance.now();
    const attempts: Promise<unknown>[] = [
      store.getSession('s1'),
      store.putSession(record('s2'), 1000),
      store.appendEvent('s1', 'get', '{}'),
      store.eventsAfter('s1', '1-0'),
      store.publish('s1', { kind: 'ended' }),
      store.subscribe('s1', () => {}),
      store.settleCall('s1', 'p'),
      store.countSessions('p:team'),
      store.isAlive(peer.replicaId),
    ];
    for (const attempt of attempts) await expect(attempt).rejects.toBeInstanceOf(StoreDownError);
    expect(performance.now() - started).toBeLessThan(200);
    // This replica is alive whatever Redis says, and still counts itself.
    expect(await store.isAlive(store.replicaId)).toBe(true);
    expect(store.liveReplicas()).toBeGreaterThanOrEqual(1);

    const up = nextHealth(store);
    await redis.restart();
    expect(await up).toBe('up');
    // The peer's connections come back on their own schedule (backoff with jitter).
    if (peer.health !== 'up') expect(await nextHealth(peer)).toBe('up');
    // A restarted Redis is empty (no persistence here) and has forgotten the scripts: both are fine.
    await store.putSession(record('s3'), 60_000);
    expect(await peer.getSession('s3')).toEqual(record('s3'));
    // The subscription made before the outage is back (node-redis resubscribes), and new ones work.
    await store.publish('s1', { kind: 'cancel', requestId: 1 });
    expect(await before.message).toEqual({ kind: 'cancel', requestId: 1 });
    const after = await nextMessage(peer, 's3');
    await store.publish('s3', { kind: 'ended' });
    expect(await after.message).toEqual({ kind: 'ended' });
  });

  it('goes down when Redis stops answering (a hung server), and up when it answers again', async () => {
    prefixes++;
    const store = await redisStore({ commandTimeoutMs: 300, heartbeatMs: 600 });
    const admin = createClient({ url: redis.url });
    admin.on('error', () => {});
    await admin.connect();
    try {
      const down = nextHealth(store);
      // The socket stays open and quiet: only the command timeout (here, the heartbeat's) notices.
      await admin.sendCommand(['CLIENT', 'PAUSE', '1500', 'ALL']);
      expect(await down).toBe('down');
      const started = performance.now();
      await expect(store.getSession('s1')).rejects.toBeInstanceOf(StoreDownError);
      expect(performance.now() - started).toBeLessThan(100);
      expect(await nextHealth(store)).toBe('up');
      expect(await store.getSession('s1')).toBeUndefined();
    } finally {
      await admin.close();
    }
  });

  it('is down while its Redis is a read-only replica (mid-failover), up once it is primary again', async () => {
    const own = await startRedis();
    const store = new RedisStore({ url: own.url, heartbeatMs: 600, commandTimeoutMs: 500 });
    stores.push(store);
    expect(await store.start(5000)).toBe('up');
    const admin = createClient({ url: own.url });
    admin.on('error', () => {});
    await admin.connect();
    try {
      const down = nextHealth(store);
      // Demoted: it follows a primary that is not there, and refuses writes (READONLY).
      await admin.sendCommand(['REPLICAOF', '127.0.0.1', '1']);
      expect(await down).toBe('down');
      await expect(store.putSession(record('s1'), 60_000)).rejects.toBeInstanceOf(StoreDownError);
      const up = nextHealth(store);
      await admin.sendCommand(['REPLICAOF', 'NO', 'ONE']);
      expect(await up).toBe('up');
      await store.putSession(record('s1'), 60_000);
      expect(await store.getSession('s1')).toEqual(record('s1'));
    } finally {
      await admin.close();
      await store.close();
      await own.stop();
    }
  });

  it('closes at once while Redis is away', async () => {
    const own = await startRedis();
    const store = new RedisStore({ url: own.url });
    stores.push(store);
    expect(await store.start(5000)).toBe('up');
    const down = nextHealth(store);
    await own.stop();
    expect(await down).toBe('down');
    const started = performance.now();
    await store.close();
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('any stream name and data survive a round trip', async () => {
    prefixes++;
    const store = await redisStore({ maxEvents: 1000 });
    const text = fc.string({ unit: 'binary', maxLength: 200 });
    await fc.assert(
      fc.asyncProperty(text, text, text, async (stream, data, other) => {
        const before = await store.appendEvent('p', stream, 'x');
        await store.appendEvent('p', `${stream}~`, other);
        const event = await store.appendEvent('p', stream, data);
        expect(event).toEqual({ id: event.id, stream, data });
        expect(await store.eventsAfter('p', before.id)).toEqual({ stream, events: [event] });
      }),
      { numRuns: 60 },
    );
  });

  it('derives the signing key from a configured listen.stateKey, the same on every replica', async () => {
    prefixes++;
    const secret = 'a-configured-secret-of-at-least-32-chars';
    const a = await redisStore({ stateKey: secret });
    const b = await redisStore({ stateKey: secret });
    const expected = createHash('sha256').update(secret).digest();
    expect((await a.sharedKey()).key.equals(expected)).toBe(true);
    expect((await b.sharedKey()).keyId).toBe(createHash('sha256').update(expected).digest('hex').slice(0, 12));
  });

  it('logs in with the password of the URL; a wrong one stays down', async () => {
    const guarded = await startRedis({ password: 'p@ss word' });
    prefixes++;
    const store = await redisStore({ url: guarded.url });
    await store.putSession(record('s1'), 60_000);
    expect(await store.getSession('s1')).toEqual(record('s1'));
    const wrong = new RedisStore({ url: guarded.url.replace('p%40ss%20word', 'nope'), commandTimeoutMs: 500 });
    stores.push(wrong);
    expect(await wrong.start(300)).toBe('down');
    await expect(wrong.getSession('s1')).rejects.toBeInstanceOf(StoreDownError);
    await wrong.close();
    await guarded.stop();
  });
});

describe('openStore', () => {
  const config = (redisUrl?: string) => ({ listen: { stateKey: undefined }, state: { redis: redisUrl, keyPrefix: 'open:', maxEvents: 7, maxEventBytes: 2048, heartbeatMs: 1000 } });

  it('is memory without state.redis', async () => {
    const store = await openStore(config(), silentLogger());
    expect(store).toBeInstanceOf(MemoryStore);
    expect((store as MemoryStore).maxEvents).toBe(7);
    expect((store as MemoryStore).maxEventBytes).toBe(2048);
    await store.close();
  });

  it('is Redis with it, up once connected', async () => {
    const store = await openStore(config(redis.url), silentLogger());
    expect(store.kind).toBe('redis');
    expect(store.health).toBe('up');
    await store.close();
    // Closed: its heartbeat is gone at once.
    const other = await redisStore({ keyPrefix: 'open:' });
    expect(await other.isAlive(store.replicaId)).toBe(false);
  });
});

describe('MemoryStore only: bytes', () => {
  const answer = (id: number, bytes: number) => {
    const shell = JSON.stringify({ jsonrpc: '2.0', id, result: { text: '' } });
    return shell.replace('""', `"${'x'.repeat(bytes - shell.length)}"`);
  };
  const ids = (found: { events: { id: string }[] } | undefined) => found?.events.map((e) => e.id);

  it('keeps at most maxSessionBytes of a session, dropping its oldest events', async () => {
    const store = new MemoryStore({ maxEventBytes: 4000, maxSessionBytes: 10_000 });
    const prime = await store.appendEvent('s1', 'post-1', '');
    const kept: string[] = [];
    for (let i = 0; i < 6; i++) kept.push((await store.appendEvent('s1', 'post-1', answer(i, 3000))).id);
    // 3 × 3000 fit in 10 000; the priming event and the three oldest answers went.
    expect(await store.eventsAfter('s1', prime.id)).toBeUndefined();
    expect(await store.eventsAfter('s1', kept[2]!)).toBeUndefined();
    expect(ids(await store.eventsAfter('s1', kept[3]!))).toEqual(kept.slice(4));
    expect(store.keptBytes).toBe(9000);
    await store.deleteSession('s1');
    expect(store.keptBytes).toBe(0);
  });

  it('keeps at most maxTotalBytes across sessions (and replicas sharing it): the session keeping the most gives way, oldest first', async () => {
    const first = new MemoryStore({ maxEventBytes: 4000, maxTotalBytes: 10_000 });
    const peer = new MemoryStore({ maxEventBytes: 4000, maxTotalBytes: 10_000, shareWith: first });
    const a1 = await first.appendEvent('a', 'post-1', answer(1, 3000));
    const a2 = await first.appendEvent('a', 'post-1', answer(2, 3000));
    const a3 = await first.appendEvent('a', 'post-1', answer(3, 3000));
    expect(first.keptBytes).toBe(9000);
    // Session b's first answer is kept whole: a, which keeps the most, loses its oldest.
    const b1 = await peer.appendEvent('b', 'post-1', answer(4, 3000));
    expect(b1.data).toBe(answer(4, 3000));
    expect(await peer.eventsAfter('a', a1.id)).toBeUndefined();
    expect(ids(await peer.eventsAfter('a', a2.id))).toEqual([a3.id]);
    expect(peer.keptBytes).toBeLessThanOrEqual(10_000);
    // a appending again: still the biggest, so its own oldest goes, not b's.
    const a4 = await first.appendEvent('a', 'post-1', answer(5, 3000));
    expect(a4.data).toBe(answer(5, 3000));
    expect(await first.eventsAfter('a', a2.id)).toBeUndefined();
    expect(ids(await first.eventsAfter('a', a3.id))).toEqual([a4.id]);
    expect(first.keptBytes).toBeLessThanOrEqual(10_000);
    // One client's many sessions do not push another's out: a second, small session keeps its events.
    const c1 = await peer.appendEvent('c', 'post-1', answer(6, 500));
    for (let i = 0; i < 5; i++) await first.appendEvent(`flood-${i}`, 'post-1', answer(10 + i, 3000));
    expect(await peer.eventsAfter('c', c1.id)).toEqual({ stream: 'post-1', events: [] });
    expect(first.keptBytes).toBeLessThanOrEqual(10_000);
    // The only session left to give is the appender, down to its new event: past that, the event gives way.
    const solo = new MemoryStore({ maxEventBytes: 4000, maxSessionBytes: 100_000, maxTotalBytes: 5000 });
    await solo.appendEvent('s', 'post-1', answer(1, 3000));
    const s2 = await solo.appendEvent('s', 'post-1', answer(2, 3000));
    expect(s2.data).toBe(answer(2, 3000));
    expect(solo.keptBytes).toBe(3000);
    // A notification that does not fit alone is kept as an empty event.
    const tiny = new MemoryStore({ maxEventBytes: 4000, maxTotalBytes: 1500 });
    const note = await tiny.appendEvent('b', 'post-1', JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'y'.repeat(2000) } }));
    expect(note.data).toBe('');
  });
});
