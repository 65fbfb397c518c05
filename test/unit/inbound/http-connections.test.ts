// Which connection goes when the HTTP face is full, and what each principal is charged: sockets are
// fakes (an address, a response in progress or not, destroy), the clock is a number.

import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Connections, connOf, type Conn } from '../../../src/inbound/http-connections.js';
import { Principals, type Shares } from '../../../src/inbound/principals.js';

class FakeSocket extends EventEmitter {
  destroyed = false;
  /** What node:http keeps while it serves a request on the socket. */
  _httpMessage: object | null = null;
  /** Its response is a stream (which may be shed), not a call (which may not). */
  streaming = false;
  /** Ends the stream, when one is open on it. */
  endStream?: () => void;
  /** Set when something closed it while it served a call. */
  cutMidCall = false;
  constructor(readonly remoteAddress: string) {
    super();
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.cutMidCall = this._httpMessage !== null && !this.streaming;
    this.emit('close');
  }
  /** The client hangs up. */
  hangUp(): void {
    this._httpMessage = null;
    this.destroy();
  }
}

const once = (f: () => void) => {
  let done = false;
  return () => {
    if (!done) (done = true), f();
  };
};
const NO_LOG = { debug() {}, info() {}, warn() {}, error() {} };
const GRACE = 1000;
const WIDE: Shares = { sessions: 100, streams: 100, connections: 100, callsInFlight: 100, unauthenticatedConnections: 100 };

function face(max: number, shares: Partial<Shares> = {}) {
  const principals = new Principals({ ...WIDE, ...shares });
  const conns = new Connections(principals, max, GRACE, NO_LOG);
  const open = (address: string, now: number) => {
    const s = new FakeSocket(address);
    conns.accept(s as unknown as Socket, now);
    return s;
  };
  const conn = (s: FakeSocket) => connOf(s as unknown as Socket) as Conn;
  /** A request on `s` authenticated as `principal`, being served until `done()`. */
  const request = (s: FakeSocket, principal: string | undefined) => {
    s._httpMessage = {};
    const ok = conn(s) === undefined ? false : conns.identify(conn(s), principal);
    return { ok, done: () => (s._httpMessage = null) };
  };
  const stream = (s: FakeSocket, principal: string) => {
    request(s, principal);
    s.streaming = true;
    const res = new EventEmitter();
    return conns.takeStream(conn(s), res as unknown as ServerResponse) ? () => res.emit('close') : undefined;
  };
  return { principals, conns, open, conn, request, stream };
}

describe('a full face makes room for a newcomer', () => {
  it('closes first a connection that sent no authenticated request for longer than the grace', () => {
    const f = face(3);
    const slow = f.open('10.0.0.9', 0);
    const busyUnauth = f.open('10.0.0.9', 0);
    busyUnauth._httpMessage = {}; // its request is being authenticated: not shed
    const alice = f.open('127.0.0.1', 0);
    f.request(alice, 'alice').done();
    const canary = f.open('127.0.0.1', 1500);
    expect(slow.destroyed).toBe(true);
    expect([busyUnauth, alice, canary].map((s) => s.destroyed)).toEqual([false, false, false]);
  });

  it('closes a young unauthenticated one only from another address that has several', () => {
    const f = face(4);
    const mine = f.open('127.0.0.1', 0);
    const a = f.open('10.0.0.2', 10);
    const b = f.open('10.0.0.2', 20);
    const lone = f.open('10.0.0.3', 0);
    f.open('127.0.0.1', 30);
    expect(a.destroyed).toBe(true);
    expect([mine, b, lone].map((s) => s.destroyed)).toEqual([false, false, false]);
  });

  it("never closes a young connection of the newcomer's own address for it: the stream goes instead", () => {
    const f = face(3);
    const s1 = f.open('127.0.0.1', 0);
    const s2 = f.open('127.0.0.1', 0);
    f.stream(s1, 'alice');
    f.stream(s2, 'alice');
    const canary = f.open('127.0.0.1', 100); // its headers are on their way
    const again = f.open('127.0.0.1', 110); // alice opening one more stream
    expect(canary.destroyed).toBe(false);
    expect(again.destroyed).toBe(false);
    expect(s1.destroyed).toBe(true);
    expect(s2.destroyed).toBe(false);
  });

  it('closes an idle keep-alive connection before a stream, of whoever holds the most, oldest first', () => {
    const f = face(4);
    const [a1, a2, b1, b2] = ['127.0.0.1', '127.0.0.1', '127.0.0.1', '127.0.0.1'].map((addr, i) => f.open(addr, i));
    f.stream(a1!, 'alice');
    f.request(a2!, 'alice').done();
    f.request(b1!, 'bob').done();
    f.stream(b2!, 'bob');
    f.request(f.open('127.0.0.1', 10), 'carol'); // closes an idle one: alice's and bob's hold 2 each, alice's is older
    expect([a1, a2, b1, b2].map((s) => s!.destroyed)).toEqual([false, true, false, false]);
    f.open('127.0.0.1', 20); // bob now holds the most: his idle one
    expect(b1!.destroyed).toBe(true);
  });

  it('closes the newcomer itself when everything else is busy with requests', () => {
    const f = face(2);
    f.request(f.open('127.0.0.1', 0), 'alice');
    f.request(f.open('127.0.0.1', 0), 'bob');
    const late = f.open('127.0.0.1', 5000);
    expect(late.destroyed).toBe(true);
    expect(f.conns.size).toBe(2);
  });
});

describe('shares', () => {
  it('an address over its unauthenticated share loses its slow ones, never a young one', () => {
    const f = face(100, { unauthenticatedConnections: 2 });
    const old = [f.open('10.0.0.2', 0), f.open('10.0.0.2', 100), f.open('10.0.0.2', 200)];
    const young = f.open('10.0.0.2', 900);
    f.open('10.0.0.2', 1250); // five held, three of them slow: the slow go, as far as needed to hold two
    expect(old.map((s) => s.destroyed)).toEqual([true, true, true]);
    expect(young.destroyed).toBe(false);
    // A burst of young ones (a busy gateway accepts them before it reads their headers) stays.
    const burst = Array.from({ length: 5 }, () => f.open('10.0.0.2', 1260));
    expect(burst.some((s) => s.destroyed)).toBe(false);
    expect(f.open('10.0.0.3', 1300).destroyed).toBe(false);
  });

  it('a principal at its share of connections gives up its own idle one, or is refused when all are busy', () => {
    const f = face(100, { connections: 2 });
    const a1 = f.open('127.0.0.1', 0);
    const a2 = f.open('127.0.0.1', 0);
    const r1 = f.request(a1, 'alice');
    f.request(a2, 'alice').done();
    expect(f.request(f.open('127.0.0.1', 0), 'alice').ok).toBe(true);
    expect(a2.destroyed).toBe(true);
    expect(f.request(f.open('127.0.0.1', 0), 'alice').ok).toBe(false);
    expect(f.request(f.open('127.0.0.1', 0), 'bob').ok).toBe(true);
    r1.done();
  });

  it('a principal at its share of streams is refused one more; a closed one is given back', () => {
    const f = face(100, { streams: 1 });
    const close = f.stream(f.open('127.0.0.1', 0), 'alice');
    expect(close).toBeDefined();
    expect(f.stream(f.open('127.0.0.1', 0), 'alice')).toBeUndefined();
    close!();
    expect(f.stream(f.open('127.0.0.1', 0), 'alice')).toBeDefined();
  });

  it('a connection moves to the principal of its latest request', () => {
    const f = face(100);
    const s = f.open('127.0.0.1', 0);
    const anon = f.principals.of(undefined, '127.0.0.1');
    expect(anon.unauthenticated).toBe(1);
    f.request(s, 'alice').done();
    const alice = f.principals.of('alice', undefined);
    expect([anon.unauthenticated, alice.connections]).toEqual([0, 1]);
    f.request(s, 'bob').done();
    expect([alice.connections, f.principals.of('bob', undefined).connections]).toEqual([0, 1]);
    s.destroy();
    expect(f.principals.size).toBe(0);
  });
});

describe('under any sequence of connections, requests, streams and closes', () => {
  type Op =
    | { op: 'open'; address: number; at: number }
    | { op: 'request'; which: number; principal: number | undefined }
    | { op: 'done'; which: number }
    | { op: 'stream'; which: number; principal: number }
    | { op: 'close'; which: number };
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ op: fc.constant('open' as const), address: fc.nat(3), at: fc.nat(3000) }),
    fc.record({ op: fc.constant('request' as const), which: fc.nat(40), principal: fc.option(fc.nat(2), { nil: undefined }) }),
    fc.record({ op: fc.constant('done' as const), which: fc.nat(40) }),
    fc.record({ op: fc.constant('stream' as const), which: fc.nat(40), principal: fc.nat(2) }),
    fc.record({ op: fc.constant('close' as const), which: fc.nat(40) }),
  );

  it('holds at most maxConnections, never cuts a call, and charges every open connection exactly once', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), fc.integer({ min: 1, max: 8 }), (ops, max) => {
        const f = face(max, { connections: 3, unauthenticatedConnections: 3, streams: 2 });
        const sockets: FakeSocket[] = [];
        const closers: (() => void)[] = [];
        let now = 0;
        for (const o of ops) {
          const s = 'which' in o ? sockets[o.which % Math.max(1, sockets.length)] : undefined;
          if (o.op === 'open') {
            now += o.at;
            sockets.push(f.open(`10.0.0.${o.address}`, now));
            expect(f.conns.size).toBeLessThanOrEqual(max);
          } else if (s === undefined || s.destroyed) continue;
          // One response at a time: nothing more is served on a socket a stream holds (a request
          // pipelined behind a stream that never ends is never answered anyway).
          else if (s.streaming && o.op !== 'done' && o.op !== 'close') continue;
          else if (o.op === 'request') f.request(s, o.principal === undefined ? undefined : `p${o.principal}`);
          else if (o.op === 'done') {
            // The response ends: a stream's too (the stream is the response).
            s.endStream?.();
            s.endStream = undefined;
            s._httpMessage = null;
            s.streaming = false;
          } else if (o.op === 'stream') {
            const close = f.stream(s, `p${o.principal}`);
            if (close) closers.push((s.endStream = once(close)));
          } else s.hangUp();
          expect(sockets.filter((x) => x.cutMidCall)).toEqual([]);
        }
        // What the holdings say equals what the open connections are.
        const open = sockets.filter((s) => !s.destroyed).map(f.conn);
        expect(open.every((c) => c !== undefined)).toBe(true);
        expect(f.conns.size).toBe(open.length);
        const expected = new Map<object, { unauthenticated: number; connections: number }>();
        for (const c of open) {
          const e = expected.get(c.holder) ?? { unauthenticated: 0, connections: 0 };
          if (c.authenticated) e.connections++;
          else e.unauthenticated++;
          expected.set(c.holder, e);
        }
        for (const [h, e] of expected) expect({ unauthenticated: (h as Conn['holder']).unauthenticated, connections: (h as Conn['holder']).connections }).toEqual(e);
        for (const close of closers) close();
        for (const s of sockets) s.hangUp();
        expect(f.principals.size).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
});
