// Per-session connections (`isolation: per-session`): each session gets its own connection to
// such a server, opened on its first request there (concurrent first requests share one
// opening) and closed with the session.

import type { ServerConfig } from '../config/types.js';
import { GatewayError } from '../errors.js';
import type { Connection, Session } from './session.js';

interface Slot {
  opening: Promise<Connection>;
  connection?: Connection;
}

export class IsolatedConnections {
  private readonly bySession = new Map<Session, Map<string, Slot>>();

  /** Slots open or opening, across sessions and servers. */
  private count = 0;

  constructor(
    private readonly create: (server: ServerConfig, session: Session) => Promise<Connection>,
    /** limits.maxIsolatedConnections, read at each opening (a reload may change it). */
    private readonly max: () => number,
  ) {}

  get(server: ServerConfig, session: Session): Promise<Connection> {
    const known = this.bySession.get(session)?.get(server.name);
    if (known) return known.opening;
    // Each one may be a process: past the cap a session's first call there is refused, not queued.
    if (this.count >= this.max()) {
      return Promise.reject(
        new GatewayError('LIMIT_EXCEEDED', `${this.count} per-session connections are open already (limits.maxIsolatedConnections)`, { server: server.name, retryAfterMs: 5000, limit: 'gateway' }),
      );
    }
    let slots = this.bySession.get(session);
    if (!slots) this.bySession.set(session, (slots = new Map()));
    const slot: Slot = { opening: this.create(server, session) };
    slots.set(server.name, slot);
    this.count++;
    slot.opening.then(
      (c) => (slot.connection = c),
      // A failed start is not kept: the next request tries again.
      () => this.release(slots!, server.name, slot),
    );
    return slot.opening;
  }

  /** Forgets a slot (failed, or closed with its session or server); counted once. */
  private release(slots: Map<string, Slot>, name: string, slot: Slot): void {
    if (slots.get(name) !== slot) return;
    slots.delete(name);
    this.count--;
  }

  /** The session's connections that are open now. */
  of(session: Session): Connection[] {
    const out: Connection[] = [];
    for (const slot of this.bySession.get(session)?.values() ?? []) if (slot.connection) out.push(slot.connection);
    return out;
  }

  all(): Connection[] {
    return [...this.bySession.keys()].flatMap((s) => this.of(s));
  }

  async closeSession(session: Session): Promise<void> {
    const slots = this.bySession.get(session);
    if (!slots) return;
    this.bySession.delete(session);
    const closing = [...slots].map(([name, slot]) => {
      this.release(slots, name, slot);
      return slot.opening.then(
        (c) => c.close(),
        () => undefined,
      );
    });
    await Promise.all(closing);
  }

  /** Closes every session's connection to one server (it left the config or changed). */
  async closeServer(name: string): Promise<void> {
    const closing: Promise<void>[] = [];
    for (const slots of this.bySession.values()) {
      const slot = slots.get(name);
      if (!slot) continue;
      this.release(slots, name, slot);
      closing.push(
        slot.opening.then(
          (c) => c.close(),
          () => undefined,
        ),
      );
    }
    await Promise.all(closing);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.bySession.keys()].map((s) => this.closeSession(s)));
  }
}
