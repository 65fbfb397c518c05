// Per-session connections (`isolation: per-session`): each session gets its own connection to
// such a server, opened on its first request there (concurrent first requests share one
// opening) and closed with the session.

import type { ServerConfig } from '../config/types.js';
import type { ServerConnection } from '../outbound/server-connection.js';
import type { SessionHandle } from './context.js';

interface Slot {
  opening: Promise<ServerConnection>;
  connection?: ServerConnection;
}

export class IsolatedConnections {
  private readonly bySession = new Map<SessionHandle, Map<string, Slot>>();

  constructor(private readonly create: (server: ServerConfig, session: SessionHandle) => Promise<ServerConnection>) {}

  get(server: ServerConfig, session: SessionHandle): Promise<ServerConnection> {
    let slots = this.bySession.get(session);
    if (!slots) this.bySession.set(session, (slots = new Map()));
    const known = slots.get(server.name);
    if (known) return known.opening;
    const slot: Slot = { opening: this.create(server, session) };
    slots.set(server.name, slot);
    slot.opening.then(
      (c) => (slot.connection = c),
      // A failed start is not kept: the next request tries again.
      () => slots!.delete(server.name),
    );
    return slot.opening;
  }

  /** The session's connections that are open now. */
  of(session: SessionHandle): ServerConnection[] {
    const out: ServerConnection[] = [];
    for (const slot of this.bySession.get(session)?.values() ?? []) if (slot.connection) out.push(slot.connection);
    return out;
  }

  all(): ServerConnection[] {
    return [...this.bySession.keys()].flatMap((s) => this.of(s));
  }

  async closeSession(session: SessionHandle): Promise<void> {
    const slots = this.bySession.get(session);
    if (!slots) return;
    this.bySession.delete(session);
    await Promise.all([...slots.values()].map((slot) => slot.opening.then((c) => c.close(), () => undefined)));
  }

  /** Closes every session's connection to one server (it left the config or changed). */
  async closeServer(name: string): Promise<void> {
    const closing: Promise<void>[] = [];
    for (const slots of this.bySession.values()) {
      const slot = slots.get(name);
      if (!slot) continue;
      slots.delete(name);
      closing.push(slot.opening.then((c) => c.close(), () => undefined));
    }
    await Promise.all(closing);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.bySession.keys()].map((s) => this.closeSession(s)));
  }
}
