// Connections of per-user servers (issue 33): one per (user, server), opened on a user's first call
// there (concurrent first calls share the opening), closed after `idleTimeoutMs` with no call in
// flight, on revoke, on the server's removal or change, and at shutdown (a stdio server's process
// with it: each user has their own). Bounded per user and in total: past a bound the least
// recently used idle connection (of that user, or of anyone) is closed to make room, else the call
// is refused, so one user can never hold the whole pool.

import type { ServerConfig } from '../config/types.js';
import { GatewayError } from '../errors.js';
import type { PerUserBounds } from './per-user-config.js';

/** What the pool needs of a connection: whether calls are in flight on it, and closing it. */
export interface Pooled {
  readonly callsInFlight: number;
  close(): Promise<void>;
}

interface Slot<C> {
  readonly user: string;
  readonly server: string;
  readonly opening: Promise<C>;
  connection?: C;
  lastUsed: number;
  timer?: NodeJS.Timeout;
}

const keyOf = (user: string, server: string) => `${user}\u0000${server}`;

export class PerUserConnections<C extends Pooled> {
  /** In use order: a Map keeps insertion order, and a use moves its slot to the end (least recent first). */
  private readonly slots = new Map<string, Slot<C>>();
  private readonly perUser = new Map<string, number>();

  constructor(
    /** Opens `user`'s own connection to `server` (the app builds connections); rejects when it cannot. */
    private readonly open: (server: ServerConfig, user: string) => Promise<C>,
    /** `credentials.connections`, read at each opening and timer (a reload may change it). */
    private readonly bounds: () => PerUserBounds,
    private readonly now: () => number = Date.now,
    /** Told of each connection it closes (idle, evicted, revoked, removed): what was kept for it goes too. */
    private readonly closed: (connection: C) => void = () => {},
  ) {}

  /** `user`'s connection to `server`, opened if there is none. */
  get(server: ServerConfig, user: string): Promise<C> {
    const key = keyOf(user, server.name);
    const known = this.slots.get(key);
    if (known !== undefined) {
      known.lastUsed = this.now();
      this.slots.delete(key);
      this.slots.set(key, known);
      return known.opening;
    }
    const refusal = this.makeRoom(user, server.name);
    if (refusal !== undefined) return Promise.reject(refusal);
    const slot: Slot<C> = { user, server: server.name, opening: this.open(server, user), lastUsed: this.now() };
    this.slots.set(key, slot);
    this.perUser.set(user, (this.perUser.get(user) ?? 0) + 1);
    slot.opening.then(
      (c) => {
        if (this.slots.get(key) !== slot) return; // closed while it opened: close() took care of it
        slot.connection = c;
        this.arm(slot, this.bounds().idleTimeoutMs);
      },
      // A failed opening is not kept: the next call tries again.
      () => this.forget(slot),
    );
    return slot.opening;
  }

  /** Connections open or opening: all, or one user's. */
  count(user?: string): number {
    return user === undefined ? this.slots.size : (this.perUser.get(user) ?? 0);
  }

  /** The open connections (for what the registry tells every connection, like log levels). */
  all(): C[] {
    const out: C[] = [];
    for (const slot of this.slots.values()) if (slot.connection !== undefined) out.push(slot.connection);
    return out;
  }

  /** Revoke: `user`'s connections (to `server`, or to every server) close. */
  closeUser(user: string, server?: string): Promise<void> {
    return this.closeWhere((s) => s.user === user && (server === undefined || s.server === server));
  }

  /** The server left the config or changed: every user's connection to it closes. */
  closeServer(server: string): Promise<void> {
    return this.closeWhere((s) => s.server === server);
  }

  closeAll(): Promise<void> {
    return this.closeWhere(() => true);
  }

  private async closeWhere(which: (slot: Slot<C>) => boolean): Promise<void> {
    const closing: Promise<void>[] = [];
    for (const slot of [...this.slots.values()]) if (which(slot)) closing.push(this.close(slot));
    await Promise.all(closing);
  }

  private close(slot: Slot<C>): Promise<void> {
    this.forget(slot);
    return slot.opening.then(
      (c) => {
        this.closed(c);
        return c.close();
      },
      () => undefined,
    );
  }

  private forget(slot: Slot<C>): void {
    const key = keyOf(slot.user, slot.server);
    if (this.slots.get(key) !== slot) return;
    this.slots.delete(key);
    clearTimeout(slot.timer);
    const n = (this.perUser.get(slot.user) ?? 1) - 1;
    if (n === 0) this.perUser.delete(slot.user);
    else this.perUser.set(slot.user, n);
  }

  /** Closes what must go for `user` to open one more; the refusal when nothing can. */
  private makeRoom(user: string, server: string): GatewayError | undefined {
    const { perUser, total } = this.bounds();
    if (this.count(user) >= perUser) {
      const idle = this.leastRecentIdle((s) => s.user === user);
      if (idle === undefined) return refused(server, `you already hold ${this.count(user)} per-user connections, all busy (credentials.connections.perUser)`, 'principal');
      void this.close(idle);
    }
    if (this.slots.size >= total) {
      const idle = this.leastRecentIdle(() => true);
      if (idle === undefined) return refused(server, `${this.slots.size} per-user connections are open and busy (credentials.connections.total)`, 'gateway');
      void this.close(idle);
    }
    return undefined;
  }

  private leastRecentIdle(which: (slot: Slot<C>) => boolean): Slot<C> | undefined {
    for (const slot of this.slots.values()) if (slot.connection !== undefined && slot.connection.callsInFlight === 0 && which(slot)) return slot;
    return undefined;
  }

  /** Checks the slot after `ms`: closed if unused for idleTimeoutMs with nothing in flight, else checked again later. */
  private arm(slot: Slot<C>, ms: number): void {
    slot.timer = setTimeout(() => {
      const idleMs = this.bounds().idleTimeoutMs;
      const unused = this.now() - slot.lastUsed;
      if (slot.connection!.callsInFlight > 0) return this.arm(slot, idleMs);
      if (unused < idleMs) return this.arm(slot, idleMs - unused);
      void this.close(slot);
    }, ms);
    slot.timer.unref();
  }
}

/** A server's refusal of the credential itself: a 401, or an OAuth login needed that no refresh avoided. */
export function refusesCredential(err: unknown): boolean {
  // The transport's error may arrive wrapped (the Peer names the server around it): its causes are looked at too.
  for (let e = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof GatewayError && e.status === 401) return true;
    if ((e as { code?: unknown }).code === 'AUTH_REQUIRED') return true;
  }
  return false;
}

function refused(server: string, why: string, limit: 'principal' | 'gateway'): GatewayError {
  return new GatewayError('LIMIT_EXCEEDED', `server "${server}": ${why}`, { server, retryAfterMs: 5000, limit });
}
