// One connection's resource subscriptions on a fake host: a burst of unsubscribes (a session that
// held many URIs ends) reaches the server one request at a time, never past its call limit; a URI
// wanted again before its turn stays held; one unsubscribed while its subscribe was in flight is
// released once the server answered; a 2026-07-28 connection opens one listen stream per burst.

import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.js';
import type { Era } from '../../../src/outbound/era.js';
import { ResourceSubscriptions } from '../../../src/outbound/resource-subscriptions.js';

function host(era: Era = 'stateful') {
  const calls: Array<{ method: string; uri: string; answer: () => void; done?: boolean }> = [];
  const inFlight = new Map<string, number>();
  const maxInFlight = new Map<string, number>();
  let relistens = 0;
  const h = {
    name: 'files',
    logger: silentLogger(),
    // The way each era side has it (era-side.ts, stateless-side.ts).
    way: () => (era === 'stateless' ? ResourceSubscriptions.byListen : ResourceSubscriptions.byRequests),
    checkReady: () => {},
    capabilities: () => ({ resources: { subscribe: true } }),
    request: (method: string, params: Record<string, any>) =>
      new Promise<unknown>((resolve) => {
        const n = (inFlight.get(method) ?? 0) + 1;
        inFlight.set(method, n);
        maxInFlight.set(method, Math.max(maxInFlight.get(method) ?? 0, n));
        calls.push({ method, uri: params.uri, answer: () => (inFlight.set(method, inFlight.get(method)! - 1), resolve({})) });
      }),
    relisten: async () => void relistens++,
  };
  return {
    h,
    calls,
    maxInFlight: (method: string) => maxInFlight.get(method) ?? 0,
    relistens: () => relistens,
    /** Answers every request sent, until none is left (the queue sends the next one on each answer). */
    async drain() {
      for (;;) {
        await new Promise((r) => setImmediate(r));
        const open = calls.filter((c) => !c.done);
        if (open.length === 0) return;
        for (const c of open) (c.done = true), c.answer();
      }
    },
  };
}

describe('stateful era', () => {
  it('unsubscribes a burst one request at a time', async () => {
    const t = host();
    const subs = new ResourceSubscriptions(t.h);
    const uris = Array.from({ length: 50 }, (_, i) => `file:///${i}`);
    const subscribed = Promise.all(uris.map((u) => subs.subscribe(u)));
    await t.drain();
    await subscribed;
    const released = Promise.all(uris.map((u) => subs.unsubscribe(u)));
    await t.drain();
    await released;
    expect(t.calls.filter((c) => c.method === 'resources/unsubscribe').map((c) => c.uri)).toEqual(uris);
    expect(t.maxInFlight('resources/subscribe')).toBe(50); // the callers' own burst (their limits bound it)
    expect(t.maxInFlight('resources/unsubscribe')).toBe(1);
  });

  it('a URI wanted again before its turn stays held: the server is not told to drop it', async () => {
    const t = host();
    const subs = new ResourceSubscriptions(t.h);
    const first = Promise.all([subs.subscribe('file:///a'), subs.subscribe('file:///b')]);
    await t.drain();
    await first;
    const released = Promise.all([subs.unsubscribe('file:///a'), subs.unsubscribe('file:///b')]);
    const again = subs.subscribe('file:///b'); // held by the server still: no request
    await t.drain();
    await Promise.all([released, again]);
    expect(t.calls.map((c) => `${c.method} ${c.uri}`)).toEqual(['resources/subscribe file:///a', 'resources/subscribe file:///b', 'resources/unsubscribe file:///a']);
    expect([...subs.uris]).toEqual(['file:///b']);
  });

  it('a URI dropped while its subscribe is in flight is released once the server answered', async () => {
    const t = host();
    const subs = new ResourceSubscriptions(t.h);
    const subscribed = subs.subscribe('file:///a');
    const released = subs.unsubscribe('file:///a');
    await t.drain();
    await Promise.all([subscribed, released]);
    expect(t.calls.map((c) => `${c.method} ${c.uri}`)).toEqual(['resources/subscribe file:///a', 'resources/unsubscribe file:///a']);
  });
});

describe('2026-07-28', () => {
  it('one listen stream for all the changes of one turn', async () => {
    const t = host('stateless');
    const subs = new ResourceSubscriptions(t.h);
    await Promise.all(Array.from({ length: 20 }, (_, i) => subs.subscribe(`file:///${i}`)));
    expect(t.relistens()).toBe(1);
    await Promise.all(Array.from({ length: 20 }, (_, i) => subs.unsubscribe(`file:///${i}`)));
    expect(t.relistens()).toBe(2);
    expect(subs.uris.size).toBe(0);
  });
});
