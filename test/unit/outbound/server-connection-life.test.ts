// A ServerConnection's life after a failure, in simulated time: backing off with the backoff's
// delays (doubling, jitter within ±20%, capped), reconnecting with onReconnect, giving up at the
// crash-loop limit, and the downtime grace that keeps a dropped server's items listed a while.

import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServers, type FakeServerScript } from '../../helpers/fake-transport.js';
import { serverConfig, watched, type Watched } from './connection-harness.js';

vi.mock('../../../src/outbound/stdio-transport.js', async () => (await import('../../helpers/fake-transport.js')).fakeStdioModule());

const up: FakeServerScript = {
  tools: [
    { name: 'a', inputSchema: { type: 'object' } },
    { name: 'b', inputSchema: { type: 'object' } },
  ],
};
const reconnect = (initialDelay: number, maxDelay: number, maxFailures: number) => ({ reconnect: { initialDelay, maxDelay, maxFailures } });

beforeEach(() => {
  fakeServers.clear();
  vi.useFakeTimers();
  // No jitter unless a test asks for it: delays are then exactly the backoff's base.
  vi.spyOn(Math, 'random').mockReturnValue(0.5);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** The delay until the next attempt, as the connection announced it. */
const delayOf = (w: Watched) => w.connection.retryAt! - Date.now();

/** Waits for a backing-off state reported after the first `since` changes, and returns its delay. */
async function backoffAfter(w: Watched, since: number): Promise<number> {
  await w.until((_c) => w.changes.slice(since).some((change) => change.state === 'backing-off'));
  return delayOf(w);
}

describe('reconnecting', () => {
  it('backs off with doubling delays up to the cap, tries again exactly when each is due, then reconnects', async () => {
    // Up, then four refused starts, then up again.
    fakeServers.define('flaky', (attempt) => (attempt === 1 || attempt === 6 ? up : 'refuse'));
    const w = watched(serverConfig('flaky', reconnect(100, 400, 10)));
    await w.connection.connect();
    let since = w.changes.length;
    fakeServers.latest('flaky').drop();
    const delays: number[] = [];
    for (let attempt = 2; attempt <= 6; attempt++) {
      const delay = await backoffAfter(w, since);
      since = w.changes.length;
      delays.push(delay);
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(fakeServers.attempts('flaky')).toBe(attempt - 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(fakeServers.attempts('flaky')).toBe(attempt);
    }
    expect(delays).toEqual([100, 200, 400, 400, 400]);
    await w.until((c) => c.state === 'ready');
    expect(w.reconnects).toBe(1);
    expect(w.connection.lists.tools).toHaveLength(2);
    // Calls flow again, on the new pipe.
    expect(await w.connection.request('ping')).toEqual({});
  });

  it('jitter keeps each delay within ±20% of its base', async () => {
    await fc.assert(
      fc.asyncProperty(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), async (r) => {
        vi.spyOn(Math, 'random').mockReturnValue(r);
        fakeServers.define('refusing', () => 'refuse');
        const w = watched(serverConfig('refusing', reconnect(1000, 30_000, 10)));
        await w.connection.connect();
        const delay = delayOf(w);
        await w.connection.close();
        expect(delay).toBeGreaterThanOrEqual(800);
        expect(delay).toBeLessThanOrEqual(1200);
      }),
      { numRuns: 50 },
    );
  });

  it('gives up at the crash-loop limit: failed, with its reason, and no timer left behind', async () => {
    fakeServers.define('dead', () => 'refuse');
    const w = watched(serverConfig('dead', reconnect(100, 1000, 3)));
    await w.connection.connect();
    await vi.runAllTimersAsync();
    expect(w.connection.state).toBe('failed');
    expect(w.connection.problem).toContain('cannot start');
    // The first attempt and three retries; then nothing more is scheduled.
    expect(fakeServers.attempts('dead')).toBe(4);
    expect(vi.getTimerCount()).toBe(0);
    const err = await w.connection.forward('tools/call', {}).catch((e) => e);
    expect(err).toMatchObject({ code: 'SERVER_UNAVAILABLE', server: 'dead' });
  });

  // Two refused starts, then up: the failure count stands at 2 of maxFailures 2 when it comes up.
  const twoFailuresThenUp = (attempt: number) => (attempt <= 2 ? 'refuse' : up);

  it('a server that dies soon after it came up is still in a crash loop: its failures keep counting', async () => {
    fakeServers.define('looping', twoFailuresThenUp);
    const w = watched(serverConfig('looping', reconnect(100, 100, 2)));
    await w.connection.connect();
    await vi.advanceTimersByTimeAsync(200);
    await w.until((c) => c.state === 'ready');
    await vi.advanceTimersByTimeAsync(1000);
    fakeServers.latest('looping').drop();
    await w.until((c) => c.state === 'failed');
    expect(fakeServers.attempts('looping')).toBe(3);
  });

  it('a server that stayed up for 30 s starts counting its failures afresh', async () => {
    fakeServers.define('stable', twoFailuresThenUp);
    const w = watched(serverConfig('stable', reconnect(100, 100, 2)));
    await w.connection.connect();
    await vi.advanceTimersByTimeAsync(200);
    await w.until((c) => c.state === 'ready');
    await vi.advanceTimersByTimeAsync(30_000);
    const since = w.changes.length;
    fakeServers.latest('stable').drop();
    expect(await backoffAfter(w, since)).toBe(100);
    await vi.advanceTimersByTimeAsync(100);
    await w.until((c) => c.state === 'ready');
    expect(w.reconnects).toBe(1);
  });

  it('close() while backing off cancels the retry', async () => {
    fakeServers.define('closing', () => 'refuse');
    const w = watched(serverConfig('closing'));
    await w.connection.connect();
    expect(w.connection.state).toBe('backing-off');
    await w.connection.close();
    expect(w.connection.state).toBe('closed');
    await vi.runAllTimersAsync();
    expect(fakeServers.attempts('closing')).toBe(1);
  });
});

describe('downtime grace', () => {
  it("keeps a dropped server's items listed for downtimeGrace (calls fail at once), then removes them", async () => {
    fakeServers.define('dropping', (attempt) => (attempt === 1 ? up : 'refuse'));
    const w = watched(serverConfig('dropping', { downtimeGrace: '10s', ...reconnect(500, 2000, 100) }));
    await w.connection.connect();
    const droppedAt = Date.now();
    fakeServers.latest('dropping').drop();
    await w.until((c) => c.state === 'backing-off');
    expect(w.connection).toMatchObject({ listed: true, lists: { tools: [{ name: 'a' }, { name: 'b' }] } });
    const err = await w.connection.forward('tools/call', { name: 'a' }).catch((e) => e);
    expect(err).toMatchObject({ code: 'SERVER_UNAVAILABLE', message: expect.stringMatching(/exited with code 1 \(reconnecting in 1s\)/) });

    // Several failed reconnects happen meanwhile; none of them moves the end of the grace.
    await vi.advanceTimersByTimeAsync(9_999);
    expect(fakeServers.attempts('dropping')).toBeGreaterThan(3);
    expect(w.connection.listed).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(w.connection).toMatchObject({ listed: false, lists: { tools: [] } });
    const removal = w.changes.find((c) => !c.listed)!;
    expect(removal.at - droppedAt).toBe(10_000);
    vi.clearAllTimers();
  });

  it('a server back within the grace never leaves the catalog', async () => {
    fakeServers.define('blip', (attempt) => (attempt === 2 ? 'refuse' : up));
    const w = watched(serverConfig('blip', { downtimeGrace: '10s', ...reconnect(1000, 1000, 10) }));
    await w.connection.connect();
    fakeServers.latest('blip').drop();
    await vi.advanceTimersByTimeAsync(2000);
    await w.until((c) => c.state === 'ready');
    await vi.advanceTimersByTimeAsync(20_000);
    expect(w.changes.every((c) => c.listed)).toBe(true);
    expect(w.connection.lists.tools).toHaveLength(2);
  });

  it('a server that never came up is not listed at all while it retries', async () => {
    fakeServers.define('never', () => 'refuse');
    const w = watched(serverConfig('never', { downtimeGrace: '10s' }));
    await w.connection.connect();
    expect(w.connection.listed).toBe(false);
    expect(w.changes.every((c) => !c.listed)).toBe(true);
    await w.connection.close();
  });
});
