// The HTTP face's TCP connections, each charged to a principal: to its remote address until a
// request on it is authenticated, then to whoever made its last request. Past maxConnections a new
// connection is let in by closing another first (see victim()); it is closed itself only when none
// can go. Invariant: a connection is counted exactly once, from accept to its socket's close.

import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Slots } from '../jsonrpc/churn.js';
import type { HttpEndpointLogger } from './http-endpoint-options.js';
import type { Holding, Principals } from './principals.js';

const CONN = Symbol('switchboard.connection');

/** One accepted connection. */
export class Conn {
  /** In Connections.all while counted; undefined once closed or shed. */
  slot: number | undefined;
  /** Whom it is charged to: its address, then the principal of its last authenticated request. */
  holder: Holding;
  /** Whether a request on it was authenticated (it no longer counts as its address's). */
  authenticated = false;
  /** The principal of its last authenticated request (undefined: no authentication configured). */
  principal: string | undefined;
  /** Streams open on it (a GET stream, a subscriptions/listen reply). */
  streams = 0;

  constructor(
    readonly socket: Socket,
    holder: Holding,
    /** When it was accepted (ms). */
    readonly since: number,
  ) {
    this.holder = holder;
  }

  /**
   * Whether a request is being served on it. node:http keeps the response it is writing on the
   * socket (`_httpMessage`) from the request's headers until the response is finished: reading it
   * costs nothing per request, where a listener per response would.
   */
  get busy(): boolean {
    return (this.socket as unknown as { _httpMessage?: unknown })._httpMessage != null;
  }
}

/** The connection a request came on, while it is counted. */
export function connOf(socket: Socket): Conn | undefined {
  const conn = (socket as unknown as { [CONN]?: Conn })[CONN];
  return conn?.slot === undefined ? undefined : conn;
}

/** Shedding tiers, best victim first; a connection in none of them is never shed for another. */
enum Tier {
  /** No authenticated request and nothing being served, for longer than headersGrace: a trickler. */
  SlowUnauthenticated = 1,
  /** The same, younger, from an address that has several such (not the newcomer's). */
  CrowdedUnauthenticated,
  /** A keep-alive connection waiting for its next request. */
  Idle,
  /** A connection that only carries a stream. */
  Stream,
}

export class Connections {
  readonly all = new Slots<Conn>();

  constructor(
    private readonly principals: Principals,
    readonly max: number,
    private readonly graceMs: number,
    private readonly logger: HttpEndpointLogger,
  ) {}

  get size(): number {
    return this.all.size;
  }

  /** A new connection: counted against its address, then room made for it or it is closed. */
  accept(socket: Socket, now = Date.now()): void {
    const holder = this.principals.of(undefined, socket.remoteAddress);
    const conn = new Conn(socket, holder, now);
    holder.unauthenticated++;
    conn.slot = this.all.add(conn);
    (socket as unknown as { [CONN]?: Conn })[CONN] = conn;
    socket.once('close', () => this.forget(conn));
    // Over its share the address competes with itself: its slow ones go. A young one may be a
    // client whose headers are on their way (a busy gateway accepts bursts before reading them).
    const share = this.principals.shares.unauthenticatedConnections;
    while (holder.unauthenticated > share) {
      const slow = this.pick(conn, now, (c) => c.holder === holder && this.tier(c, conn, now) === Tier.SlowUnauthenticated);
      if (slow === undefined) break;
      this.shed(slow, 'its address has too many connections without an authenticated request (limits.perPrincipal.unauthenticatedConnections)');
    }
    if (this.all.size > this.max) this.shed(this.pick(conn, now) ?? conn, 'the face holds limits.maxConnections connections');
  }

  /**
   * Charges `conn` to the principal its request was authenticated as. False when that principal
   * is at its share of connections and has none idle to give up (the caller refuses the request).
   */
  identify(conn: Conn, principal: string | undefined): boolean {
    const from = conn.holder;
    const to = this.principals.of(principal, conn.socket.remoteAddress);
    if (conn.authenticated) from.connections--;
    else from.unauthenticated--;
    to.connections++;
    conn.holder = to;
    conn.authenticated = true;
    conn.principal = principal;
    if (from !== to) this.principals.release(from);
    if (to.connections <= this.principals.shares.connections) return true;
    const own = this.pick(conn, Date.now(), (c) => c.holder === to && c.authenticated && c.streams === 0 && !c.busy);
    if (own === undefined) return false;
    this.shed(own, 'its principal is at its share (limits.perPrincipal.connections)');
    return true;
  }

  /**
   * Takes one of the principal's streams for `res` on `conn`, given back when `res` closes. False
   * when the principal holds its share already.
   */
  takeStream(conn: Conn, res: ServerResponse): boolean {
    const holder = conn.holder;
    if (holder.streams >= this.principals.shares.streams) return false;
    holder.streams++;
    conn.streams++;
    res.once('close', () => {
      holder.streams--;
      conn.streams--;
      this.principals.release(holder);
    });
    return true;
  }

  /** Stops counting `conn` (its socket closed, or it was shed). Idempotent. */
  private forget(conn: Conn): void {
    if (conn.slot === undefined) return;
    this.all.remove(conn.slot, conn);
    conn.slot = undefined;
    if (conn.authenticated) conn.holder.connections--;
    else conn.holder.unauthenticated--;
    this.principals.release(conn.holder);
  }

  private shed(conn: Conn, why: string): void {
    this.logger.debug({ remote: conn.socket.remoteAddress, principal: conn.holder.anonymous ? undefined : conn.holder.key }, `connection closed: ${why}`);
    this.forget(conn);
    conn.socket.destroy();
  }

  /** Which tier `c` is in when `newcomer` needs room, if any. */
  private tier(c: Conn, newcomer: Conn, now: number): Tier | undefined {
    if (c === newcomer || c.busy) return c !== newcomer && c.streams > 0 && c.authenticated ? Tier.Stream : undefined;
    if (c.authenticated) return Tier.Idle;
    if (now - c.since >= this.graceMs) return Tier.SlowUnauthenticated;
    const h = c.holder;
    return h !== newcomer.holder && h.unauthenticated > 1 ? Tier.CrowdedUnauthenticated : undefined;
  }

  /**
   * The connection to close so that `newcomer` fits: the lowest tier; within it, the principal
   * to shed first (the anonymous, then whoever holds the most), then the oldest.
   */
  private pick(newcomer: Conn, now: number, only?: (c: Conn) => boolean): Conn | undefined {
    let best: Conn | undefined;
    let bestTier = 0;
    for (const c of this.all.values()) {
      if (only !== undefined && !only(c)) continue;
      const t = this.tier(c, newcomer, now);
      if (t === undefined) continue;
      if (best === undefined || t < bestTier || (t === bestTier && before(c, best, t))) {
        best = c;
        bestTier = t;
      }
    }
    return best;
  }
}

/** Within one tier: whether `a` goes before `b`. */
function before(a: Conn, b: Conn, tier: Tier): boolean {
  if (a.holder !== b.holder) {
    const ha = a.holder;
    const hb = b.holder;
    if (ha.anonymous !== hb.anonymous) return ha.anonymous;
    const held = tier <= Tier.CrowdedUnauthenticated ? ha.unauthenticated - hb.unauthenticated : ha.connections - hb.connections;
    if (held !== 0) return held > 0;
  }
  return a.since < b.since;
}
