// Subscriptions in process, on fake connections: the limits per session and in all (refused at
// once, nothing asked of the server), one server subscription per URI however often it is asked
// for, slots freed by unsubscribing, a session's end and a connection's end, and updates only to
// holders whose policy still lets them read the URI.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import type { JsonRpcNotification } from '../../../src/protocol/jsonrpc.js';
import { Subscriptions } from '../../../src/router/subscriptions.js';
import type { Connection, Session } from '../../../src/router/session.js';

/** A connection that records what it is asked, and answers when told to (or at once). */
class FakeConnection {
  readonly subscribed: string[] = [];
  readonly unsubscribed: string[] = [];
  private pending: Array<{ uri: string; resolve: () => void; reject: (e: Error) => void }> = [];
  constructor(
    readonly name = 'files',
    private readonly manual = false,
  ) {}
  subscribe(uri: string): Promise<void> {
    this.subscribed.push(uri);
    if (!this.manual) return Promise.resolve();
    return new Promise((resolve, reject) => this.pending.push({ uri, resolve, reject }));
  }
  unsubscribe(uri: string): Promise<void> {
    this.unsubscribed.push(uri);
    return Promise.resolve();
  }
  answer(ok = true): void {
    for (const p of this.pending.splice(0)) ok ? p.resolve() : p.reject(new Error('refused'));
  }
}

class FakeSession {
  readonly sent: JsonRpcNotification[] = [];
  allows: (uri: string) => boolean = () => true;
  get view() {
    return { allowsUri: (uri: string) => this.allows(uri) } as unknown as Session['view'];
  }
  send(n: JsonRpcNotification): void {
    this.sent.push(n);
  }
}

const asConnection = (c: FakeConnection) => c as unknown as Connection;
const asSession = (s: FakeSession) => s as unknown as Session;

function subscriptions(limits = { maxSubscriptionsPerSession: 3, maxSubscriptions: 5 }) {
  return new Subscriptions({ limits: () => limits, mayHear: (session, _c, _uri, exposed) => session.view.allowsUri(exposed) });
}

async function refusal(p: Promise<unknown>): Promise<GatewayError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof GatewayError) return err;
    throw err;
  }
  throw new Error('not refused');
}

describe('limits', () => {
  it('past limits.maxSubscriptionsPerSession a session is refused at once (LIMIT_EXCEEDED, session), and the server hears nothing', async () => {
    const subs = subscriptions();
    const c = new FakeConnection();
    const a = new FakeSession();
    for (const uri of ['file:///1', 'file:///2', 'file:///3']) await subs.subscribe(asConnection(c), uri, a, uri, asSession(a));
    const err = await refusal(subs.subscribe(asConnection(c), 'file:///4', a, 'file:///4', asSession(a)));
    expect(err.toJsonRpc().data).toEqual({ code: 'LIMIT_EXCEEDED', limit: 'session', setting: 'limits.maxSubscriptionsPerSession', retryAfterMs: 1000 });
    expect(c.subscribed).toEqual(['file:///1', 'file:///2', 'file:///3']);
    expect(subs.held(a)).toBe(3);
  });

  it('past limits.maxSubscriptions every session is refused (LIMIT_EXCEEDED, gateway)', async () => {
    const subs = subscriptions();
    const c = new FakeConnection();
    const [a, b, d] = [new FakeSession(), new FakeSession(), new FakeSession()];
    for (const uri of ['file:///1', 'file:///2', 'file:///3']) await subs.subscribe(asConnection(c), uri, a, uri, asSession(a));
    // The same URI held by another session is another holding (it takes a slot) but not another server subscription.
    for (const uri of ['file:///1', 'file:///2']) await subs.subscribe(asConnection(c), uri, b, uri, asSession(b));
    const err = await refusal(subs.subscribe(asConnection(c), 'file:///9', d, 'file:///9', asSession(d)));
    expect(err.toJsonRpc().data).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'gateway', setting: 'limits.maxSubscriptions' });
    expect(c.subscribed).toEqual(['file:///1', 'file:///2', 'file:///3']);
    expect(subs.held()).toBe(5);
  });

  it('counts a burst before the server answers: concurrent subscribes cannot overshoot', async () => {
    const subs = subscriptions();
    const c = new FakeConnection('files', true);
    const a = new FakeSession();
    const tries = Array.from({ length: 10 }, (_, i) =>
      subs.subscribe(asConnection(c), `file:///${i}`, a, `file:///${i}`, asSession(a)).then(
        () => 'ok',
        (e) => e.code,
      ),
    );
    c.answer();
    expect(await Promise.all(tries)).toEqual(['ok', 'ok', 'ok', ...Array(7).fill('LIMIT_EXCEEDED')]);
    expect(c.subscribed).toHaveLength(3);
  });

  it('the same URI asked for again takes no slot and is not asked of the server again, even before it answered', async () => {
    const subs = subscriptions();
    const c = new FakeConnection('files', true);
    const a = new FakeSession();
    const tries = Array.from({ length: 5 }, () => subs.subscribe(asConnection(c), 'file:///x', a, 'file:///x', asSession(a)));
    c.answer();
    await Promise.all(tries);
    await subs.subscribe(asConnection(c), 'file:///x', a, 'file:///x', asSession(a));
    expect(c.subscribed).toEqual(['file:///x']);
    expect(subs.held(a)).toBe(1);
  });

  it('URIs longer than 8192 characters are refused (-32602)', async () => {
    const subs = subscriptions();
    const a = new FakeSession();
    const long = `file:///${'x'.repeat(8200)}`;
    await expect(subs.subscribe(asConnection(new FakeConnection()), long, a, long, asSession(a))).rejects.toMatchObject({ code: -32602 });
    expect(subs.held()).toBe(0);
  });
});

describe('freeing slots', () => {
  it('unsubscribe frees one at once; the server is told after the last holder', async () => {
    const subs = subscriptions();
    const c = new FakeConnection();
    const [a, b] = [new FakeSession(), new FakeSession()];
    for (const uri of ['file:///1', 'file:///2', 'file:///3']) await subs.subscribe(asConnection(c), uri, a, uri, asSession(a));
    await subs.subscribe(asConnection(c), 'file:///1', b, 'file:///1', asSession(b));
    await subs.unsubscribe(asConnection(c), 'file:///1', a);
    expect(c.unsubscribed).toEqual([]);
    await subs.subscribe(asConnection(c), 'file:///4', a, 'file:///4', asSession(a));
    await subs.unsubscribe(asConnection(c), 'file:///1', b);
    expect(c.unsubscribed).toEqual(['file:///1']);
    // Unsubscribing what is not held frees nothing.
    await subs.unsubscribe(asConnection(c), 'file:///1', b);
    expect([subs.held(a), subs.held(b), subs.held()]).toEqual([3, 0, 3]);
  });

  it('finds a holding by the URI its subscriber knows, whatever the catalog routes now', async () => {
    const subs = subscriptions();
    const c = new FakeConnection();
    const [a, b] = [new FakeSession(), new FakeSession()];
    await subs.subscribe(asConnection(c), 'file:///x', a, 'p+file:///x', asSession(a));
    expect(subs.heldAs(a, 'p+file:///x')).toEqual({ connection: c, uri: 'file:///x' });
    expect([subs.heldAs(a, 'file:///x'), subs.heldAs(b, 'p+file:///x')]).toEqual([undefined, undefined]);
  });

  it("a session's end frees everything held for it (its listen streams' too) and nobody else's", async () => {
    const subs = subscriptions({ maxSubscriptionsPerSession: 10, maxSubscriptions: 10 });
    const c = new FakeConnection();
    const [a, b] = [new FakeSession(), new FakeSession()];
    const stream = new FakeSession(); // a listen stream of a: it hears updates, a's slots pay
    await subs.subscribe(asConnection(c), 'file:///1', a, 'file:///1', asSession(a));
    await subs.subscribe(asConnection(c), 'file:///2', stream, 'file:///2', asSession(a));
    await subs.subscribe(asConnection(c), 'file:///2', b, 'file:///2', asSession(b));
    subs.dropSession(asSession(a));
    expect(c.unsubscribed).toEqual(['file:///1']);
    expect([subs.held(a), subs.held(b), subs.held()]).toEqual([0, 1, 1]);
  });

  it('a stateless client is its own account: its stream pays, its session (shared) does not', async () => {
    const subs = subscriptions({ maxSubscriptionsPerSession: 2, maxSubscriptions: 10 });
    const c = new FakeConnection();
    const shared = new FakeSession();
    const [s1, s2] = [new FakeSession(), new FakeSession()];
    for (const s of [s1, s2]) for (const uri of ['file:///1', 'file:///2']) await subs.subscribe(asConnection(c), uri, s, uri, asSession(shared), s);
    await expect(subs.subscribe(asConnection(c), 'file:///3', s1, 'file:///3', asSession(shared), s1)).rejects.toMatchObject({ limit: 'session' });
    expect([subs.held(s1), subs.held(s2), subs.held(shared), subs.room(s1)]).toEqual([2, 2, 0, 0]);
  });

  it('a server that refuses frees the slot of every holder that waited for it; the next one asks again', async () => {
    const subs = subscriptions();
    const c = new FakeConnection('files', true);
    const [a, b] = [new FakeSession(), new FakeSession()];
    const tries = [a, b].map((s) => subs.subscribe(asConnection(c), 'file:///x', s, 'file:///x', asSession(s)).catch((e) => e.message));
    c.answer(false);
    expect(await Promise.all(tries)).toEqual(['refused', 'refused']);
    expect(subs.held()).toBe(0);
    const again = subs.subscribe(asConnection(c), 'file:///x', a, 'file:///x', asSession(a));
    c.answer();
    await again;
    expect(c.subscribed).toEqual(['file:///x', 'file:///x']);
  });

  it('a connection that is gone frees its slots once, even for a subscribe still waiting on it', async () => {
    const subs = subscriptions();
    const c = new FakeConnection('files', true);
    const a = new FakeSession();
    const waiting = subs.subscribe(asConnection(c), 'file:///x', a, 'file:///x', asSession(a)).catch(() => 'failed');
    subs.dropConnection(asConnection(c));
    expect(subs.held()).toBe(0);
    c.answer(false);
    expect(await waiting).toBe('failed');
    expect([subs.held(), subs.held(a), subs.room(a)]).toEqual([0, 0, 3]);
  });
});

describe('updates', () => {
  it('reach each holder as it knows the URI, and only while its policy still lets it read it', async () => {
    const subs = subscriptions();
    const c = new FakeConnection();
    const [a, b] = [new FakeSession(), new FakeSession()];
    await subs.subscribe(asConnection(c), 'file:///x', a, 'p+file:///x', asSession(a));
    await subs.subscribe(asConnection(c), 'file:///x', b, 'file:///x', asSession(b));
    b.allows = () => false; // a reload took the URI from b's profile
    subs.updated(asConnection(c), { uri: 'file:///x', title: 't' });
    subs.updated(asConnection(c), { uri: 'file:///other' });
    expect(a.sent).toEqual([{ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'p+file:///x', title: 't' } }]);
    expect(b.sent).toEqual([]);
  });
});

describe('whatever the order of subscribes, unsubscribes and session ends', () => {
  it('counts match what is held, never pass the limits, and the server holds each URI exactly while someone does', async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('sub' as const), session: fc.nat(2), uri: fc.nat(5) }),
      fc.record({ kind: fc.constant('unsub' as const), session: fc.nat(2), uri: fc.nat(5) }),
      fc.record({ kind: fc.constant('end' as const), session: fc.nat(2) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 60 }), async (ops) => {
        const limits = { maxSubscriptionsPerSession: 3, maxSubscriptions: 5 };
        const subs = subscriptions(limits);
        const c = new FakeConnection();
        let sessions = [new FakeSession(), new FakeSession(), new FakeSession()];
        const model = sessions.map(() => new Set<number>());
        for (const o of ops) {
          const s = sessions[o.session]!;
          if (o.kind === 'sub') {
            const uri = `file:///${o.uri}`;
            const room = !model[o.session]!.has(o.uri) && (model[o.session]!.size >= limits.maxSubscriptionsPerSession || model.reduce((n, m) => n + m.size, 0) >= limits.maxSubscriptions);
            const outcome = await subs.subscribe(asConnection(c), uri, s, uri, asSession(s)).then(
              () => 'ok',
              (e) => e.code,
            );
            expect(outcome).toBe(room ? 'LIMIT_EXCEEDED' : 'ok');
            if (!room) model[o.session]!.add(o.uri);
          } else if (o.kind === 'unsub') {
            await subs.unsubscribe(asConnection(c), `file:///${o.uri}`, s);
            model[o.session]!.delete(o.uri);
          } else {
            subs.dropSession(asSession(s));
            model[o.session]!.clear();
            sessions = sessions.map((x, i) => (i === o.session ? new FakeSession() : x));
          }
          sessions.forEach((x, i) => {
            expect(subs.held(x)).toBe(model[i]!.size);
          });
          expect(subs.held()).toBe(model.reduce((n, m) => n + m.size, 0));
          // The server holds exactly the URIs some session holds, each asked for once per holding spell.
          const wanted = new Set(model.flatMap((m) => [...m].map((u) => `file:///${u}`)));
          const server = new Map<string, number>();
          for (const u of c.subscribed) server.set(u, (server.get(u) ?? 0) + 1);
          for (const u of c.unsubscribed) server.set(u, server.get(u)! - 1);
          expect(new Set([...server].filter(([, n]) => n > 0).map(([u]) => u))).toEqual(wanted);
          expect([...server.values()].every((n) => n === 0 || n === 1)).toBe(true);
        }
      }),
    );
  });
});
