// Resource subscriptions across sessions: the server sees one subscription per URI however many
// sessions hold it (connection.subscribe on the first, unsubscribe after the last; the connection
// speaks each era's way: resources/subscribe or the listen filter), and each
// notifications/resources/updated goes only to the sessions that subscribed, carrying the URI as
// that session knows it. Keyed by connection, so per-session connections stay apart.

import type { JsonRpcNotification } from '../protocol/jsonrpc.js';
import type { Connection } from './session.js';

/** Who hears a resource's updates: a session (resources/subscribe) or one of its listen streams. */
export interface Subscriber {
  send(notification: JsonRpcNotification): void;
}

type Holders = Map<Subscriber, string>;

export class Subscriptions {
  private readonly byConnection = new Map<Connection, Map<string, Holders>>();

  /** Adds `session` as a holder of `uri` on `connection`; tells the server on the first one. */
  async subscribe(connection: Connection, uri: string, session: Subscriber, exposedUri: string): Promise<void> {
    let uris = this.byConnection.get(connection);
    const holders = uris?.get(uri);
    if (holders && holders.size > 0) {
      holders.set(session, exposedUri);
      return;
    }
    await connection.subscribe(uri);
    if (!uris) this.byConnection.set(connection, (uris = new Map()));
    let now = uris.get(uri);
    if (!now) uris.set(uri, (now = new Map()));
    now.set(session, exposedUri);
  }

  /** Removes `session` as a holder; tells the server after the last one. */
  async unsubscribe(connection: Connection, uri: string, session: Subscriber): Promise<void> {
    const uris = this.byConnection.get(connection);
    const holders = uris?.get(uri);
    if (!holders?.delete(session) || holders.size > 0) return;
    uris!.delete(uri);
    if (uris!.size === 0) this.byConnection.delete(connection);
    await connection.unsubscribe(uri);
  }

  /** Delivers a server's resources/updated to the sessions holding that URI. */
  updated(connection: Connection, params: Record<string, any>): void {
    const holders = this.byConnection.get(connection)?.get(params.uri);
    if (!holders) return;
    for (const [session, exposedUri] of holders) {
      session.send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { ...params, uri: exposedUri } });
    }
  }

  /**
   * The connection is new (a reload restarted the server) or came back: make sure it holds every
   * URI sessions hold. subscribe() is a no-op for a URI the connection already holds (it restores
   * its own after a reconnect).
   */
  async resubscribe(connection: Connection): Promise<void> {
    const uris = this.byConnection.get(connection);
    if (!uris) return;
    await Promise.all([...uris.keys()].map((uri) => connection.subscribe(uri).catch(() => undefined)));
  }

  /** A session ended: release everything it held. */
  dropSession(session: Subscriber): void {
    for (const [connection, uris] of this.byConnection) {
      for (const [uri, holders] of uris) {
        if (holders.has(session)) void this.unsubscribe(connection, uri, session).catch(() => {});
      }
    }
  }

  /** The server behind `from` is now reached through `to` (a reload restarted it). */
  transfer(from: Connection, to: Connection): void {
    const uris = this.byConnection.get(from);
    if (!uris) return;
    this.byConnection.delete(from);
    this.byConnection.set(to, uris);
  }

  /** A connection is gone: its subscriptions went with it. */
  dropConnection(connection: Connection): void {
    this.byConnection.delete(connection);
  }
}
