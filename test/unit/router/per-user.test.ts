// PerUserConnections: one connection per (user, server), shared openings, idle reaping on a fake
// clock, least-recently-used eviction past the bounds, and refusal when nothing idle can go, so one
// user cannot take the pool from another.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerConfig } from '../../../src/config/types.js';
import { GatewayError } from '../../../src/errors.js';
import type { PerUserBounds } from '../../../src/router/per-user-config.js';
import { PerUserConnections } from '../../../src/router/per-user.js';

class FakeConnection {
  callsInFlight = 0;
  closed = false;
  constructor(
    readonly user: string,
    readonly server: string,
  ) {}
  async close(): Promise<void> {
    this.closed = true;
  }
}

const server = (name: string) => ({ name }) as ServerConfig;

function pool(bounds: Partial<PerUserBounds> = {}) {
  const opened: FakeConnection[] = [];
  const limits: PerUserBounds = { perUser: 4, total: 8, idleTimeoutMs: 60_000, ...bounds };
  const connections = new PerUserConnections<FakeConnection>(
    async (s, user) => {
      const c = new FakeConnection(user, s.name);
      opened.push(c);
      return c;
    },
    () => limits,
  );
  return { connections, opened, limits };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('PerUserConnections', () => {
  it('opens one connection per (user, server): the same user again reuses it, another user gets their own', async () => {
    const { connections, opened } = pool();
    const a1 = await connections.get(server('gh'), 'alice');
    const a2 = await connections.get(server('gh'), 'alice');
    const b = await connections.get(server('gh'), 'bob');
    expect(a1).toBe(a2);
    expect(b).not.toBe(a1);
    expect(opened.map((c) => `${c.user}/${c.server}`)).toEqual(['alice/gh', 'bob/gh']);
  });

  it('concurrent first calls of one user share one opening', async () => {
    const { connections, opened } = pool();
    const all = await Promise.all([connections.get(server('gh'), 'alice'), connections.get(server('gh'), 'alice'), connections.get(server('gh'), 'alice')]);
    expect(opened).toHaveLength(1);
    expect(new Set(all).size).toBe(1);
  });

  it('a failed opening is not kept: the next call opens again', async () => {
    let fail = true;
    const connections = new PerUserConnections<FakeConnection>(
      async (s, user) => {
        if (fail) throw new GatewayError('CONNECT_REQUIRED', 'no credential', { server: s.name });
        return new FakeConnection(user, s.name);
      },
      () => ({ perUser: 1, total: 1, idleTimeoutMs: 1000 }),
    );
    await expect(connections.get(server('gh'), 'alice')).rejects.toMatchObject({ code: 'CONNECT_REQUIRED' });
    expect(connections.count()).toBe(0);
    fail = false;
    await expect(connections.get(server('gh'), 'alice')).resolves.toBeInstanceOf(FakeConnection);
  });

  it('closes a connection idle for idleTimeoutMs, not one in use or with a call in flight', async () => {
    const { connections, opened } = pool({ idleTimeoutMs: 60_000 });
    await connections.get(server('gh'), 'alice');
    await connections.get(server('gh'), 'bob');
    const [alice, bob] = opened;
    bob!.callsInFlight = 1; // a long call: never reaped under it
    await vi.advanceTimersByTimeAsync(30_000);
    await connections.get(server('gh'), 'alice'); // used: its idle time starts again
    await vi.advanceTimersByTimeAsync(45_000);
    expect(alice!.closed).toBe(false);
    expect(bob!.closed).toBe(false);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(alice!.closed).toBe(true);
    expect(bob!.closed).toBe(false);
    bob!.callsInFlight = 0;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(bob!.closed).toBe(true);
    expect(connections.count()).toBe(0);
  });

  it("past the per-user bound, the user's least recently used idle connection closes to make room", async () => {
    const { connections, opened } = pool({ perUser: 2 });
    await connections.get(server('a'), 'alice');
    await connections.get(server('b'), 'alice');
    await connections.get(server('a'), 'alice'); // a is now the more recent
    await connections.get(server('c'), 'alice');
    expect(opened.find((c) => c.server === 'b')!.closed).toBe(true);
    expect(opened.find((c) => c.server === 'a')!.closed).toBe(false);
    expect(connections.count('alice')).toBe(2);
  });

  it('refuses a user at their bound with every connection busy (LIMIT_EXCEEDED, their own limit)', async () => {
    const { connections, opened } = pool({ perUser: 2 });
    await connections.get(server('a'), 'alice');
    await connections.get(server('b'), 'alice');
    for (const c of opened) c.callsInFlight = 1;
    const err = await connections.get(server('c'), 'alice').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'principal', server: 'c' });
    expect((err as GatewayError).retryAfterMs).toBeGreaterThan(0);
  });

  it('one user filling their share cannot starve another: the other still opens (an idle connection of anyone makes room at the total)', async () => {
    const { connections, opened } = pool({ perUser: 3, total: 4 });
    for (const s of ['a', 'b', 'c']) await connections.get(server(s), 'mallory');
    // Mallory at their bound: a fourth of theirs evicts one of theirs, never takes a fifth slot.
    await connections.get(server('d'), 'mallory');
    expect(connections.count('mallory')).toBe(3);
    await connections.get(server('a'), 'bob');
    expect(connections.count('bob')).toBe(1);
    // At the total with mallory's all busy and bob's idle: mallory is refused, bob is not.
    for (const c of opened) if (c.user === 'mallory') c.callsInFlight = 1;
    await expect(connections.get(server('e'), 'mallory')).rejects.toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'principal' });
    await expect(connections.get(server('b'), 'bob')).resolves.toBeInstanceOf(FakeConnection);
    expect(connections.count()).toBe(4);
  });

  it('at the total with nothing idle, a newcomer is refused with the gateway limit', async () => {
    const { connections, opened } = pool({ perUser: 2, total: 2 });
    await connections.get(server('a'), 'alice');
    await connections.get(server('a'), 'bob');
    for (const c of opened) c.callsInFlight = 1;
    await expect(connections.get(server('a'), 'carol')).rejects.toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'gateway' });
  });

  it('closeUser (revoke), closeServer (reload) and closeAll (shutdown) close what they name', async () => {
    const { connections, opened } = pool();
    await connections.get(server('a'), 'alice');
    await connections.get(server('b'), 'alice');
    await connections.get(server('a'), 'bob');
    await connections.closeUser('alice', 'a');
    expect(opened.filter((c) => c.closed).map((c) => `${c.user}/${c.server}`)).toEqual(['alice/a']);
    await connections.closeServer('a');
    expect(opened.filter((c) => c.closed).map((c) => `${c.user}/${c.server}`)).toEqual(['alice/a', 'bob/a']);
    await connections.closeAll();
    expect(opened.every((c) => c.closed)).toBe(true);
    expect(connections.count()).toBe(0);
  });

  it('tells of every connection it closes (idle, evicted, revoked), so what was kept for it goes too', async () => {
    const told: FakeConnection[] = [];
    const limits = { perUser: 1, total: 8, idleTimeoutMs: 1000 };
    const connections = new PerUserConnections<FakeConnection>(
      async (s, user) => new FakeConnection(user, s.name),
      () => limits,
      Date.now,
      (c) => told.push(c),
    );
    const evicted = await connections.get(server('a'), 'alice');
    const revoked = await connections.get(server('b'), 'alice'); // evicts a (alice's bound is 1)
    await connections.closeUser('alice');
    const idle = await connections.get(server('c'), 'bob');
    await vi.advanceTimersByTimeAsync(1000);
    expect(told).toEqual([evicted, revoked, idle]);
  });

  it('a connection closed while it was opening is closed once it opens, and not kept', async () => {
    let finish!: (c: FakeConnection) => void;
    const connections = new PerUserConnections<FakeConnection>(
      () => new Promise((resolve) => (finish = resolve)),
      () => ({ perUser: 1, total: 1, idleTimeoutMs: 1000 }),
    );
    const opening = connections.get(server('a'), 'alice');
    const closing = connections.closeUser('alice');
    const c = new FakeConnection('alice', 'a');
    finish(c);
    await opening;
    await closing;
    expect(c.closed).toBe(true);
    expect(connections.count()).toBe(0);
  });
});
