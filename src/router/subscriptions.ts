// Resource subscriptions across sessions: the server sees one subscription per URI however many
// sessions hold it (connection.subscribe on the first, unsubscribe after the last; the connection
// speaks each era's way: resources/subscribe or the listen filter), and each
// notifications/resources/updated goes only to the holders that may still read that URI, carrying
// it as each knows it. Keyed by connection, so per-session connections stay apart.
// Bounded: a holding (one subscriber, one URI on one connection) takes a slot of its session's
// limits.maxSubscriptionsPerSession and of the gateway's limits.maxSubscriptions from the moment
// it is asked for; the same holding asked for again takes none, and is never asked of the server
// twice. Unsubscribing frees the slot at once; a session's end frees all of its own.

import type { JsonObject } from '../protocol/json.js';
import { GatewayError, RpcError } from '../errors.js';
import { MAX_URI_LENGTH } from '../policy/uri.js';
import { ErrorCode, type JsonRpcNotification } from '../protocol/jsonrpc.js';
import type { Connection, Session } from './session.js';

/** Who hears a resource's updates: a session (resources/subscribe) or one of its listen streams. */
export interface Subscriber {
  send(notification: JsonRpcNotification): void;
}

export interface SubscriptionDeps {
  /** The limits in force (a reload may change them; read at each subscribe). */
  limits(): { maxSubscriptionsPerSession: number; maxSubscriptions: number };
  /** Whether `session` may still read `uri` of `connection`'s server, known to it as `exposedUri` (policy may have changed since). */
  mayHear(session: Session, connection: Connection, uri: string, exposedUri: string): boolean;
}

/**
 * Whose slots a holding takes: its session, or, on a stateless session (every stateless client of
 * one profile shares it), the listen stream, which is one client's.
 */
export type Account = object;

interface Holding {
  readonly exposedUri: string;
  /** The session it is for (the subscriber itself, or the session of its listen stream): whose view judges updates. */
  readonly session: Session;
  readonly account: Account;
}

/** One URI on one connection: who holds it, and the server's subscription to it (asked once). */
interface Entry {
  readonly holders: Map<Subscriber, Holding>;
  /** connection.subscribe() for this entry: pending while the server is asked, settled after. */
  asked?: Promise<void>;
}

export class Subscriptions {
  private readonly byConnection = new Map<Connection, Map<string, Entry>>();
  /** Holdings per account, and in all: what the limits count. */
  private readonly perAccount = new Map<Account, number>();
  /** Holdings per session (its accounts' together), so a session that holds none ends at no cost. */
  private readonly perSession = new Map<Session, number>();
  private total = 0;

  constructor(private readonly deps: SubscriptionDeps) {}

  /**
   * Adds `subscriber` as a holder of `uri` on `connection`, for `session` and on `account`; asks
   * the server on the first holder. Over a limit: LIMIT_EXCEEDED, and nothing is asked of anyone.
   */
  async subscribe(connection: Connection, uri: string, subscriber: Subscriber, exposedUri: string, session: Session = subscriber as Session, account: Account = session): Promise<void> {
    if (uri.length > MAX_URI_LENGTH || exposedUri.length > MAX_URI_LENGTH)
      throw new RpcError(ErrorCode.InvalidParams, `a resource URI longer than ${MAX_URI_LENGTH} characters cannot be subscribed to`);
    let uris = this.byConnection.get(connection);
    let entry = uris?.get(uri);
    if (entry?.holders.has(subscriber)) return entry.asked; // held already: no slot, no second request
    this.reserve(account);
    count(this.perSession, session, 1);
    if (!uris) this.byConnection.set(connection, (uris = new Map()));
    if (!entry) uris.set(uri, (entry = { holders: new Map() }));
    entry.holders.set(subscriber, { exposedUri, session, account });
    const asked = (entry.asked ??= connection.subscribe(uri));
    try {
      await asked;
    } catch (err) {
      // The server refused: every holder that waited for this answer goes (the first to hear it
      // removes them all), and the next subscriber asks again.
      if (entry.asked === asked) {
        entry.asked = undefined;
        for (const waiting of [...entry.holders.keys()]) this.remove(connection, uri, entry, waiting);
      }
      throw err;
    }
  }

  /** How many more holdings `account` may take now (the smaller of its own room and the gateway's). */
  room(account: Account): number {
    const { maxSubscriptionsPerSession, maxSubscriptions } = this.deps.limits();
    return Math.max(0, Math.min(maxSubscriptionsPerSession - (this.perAccount.get(account) ?? 0), maxSubscriptions - this.total));
  }

  /** Holdings on `account` now, and in all. */
  held(account?: Account): number {
    return account === undefined ? this.total : (this.perAccount.get(account) ?? 0);
  }

  /** Removes `subscriber` as a holder; tells the server after the last one. */
  async unsubscribe(connection: Connection, uri: string, subscriber: Subscriber): Promise<void> {
    const entry = this.byConnection.get(connection)?.get(uri);
    if (!entry?.holders.has(subscriber)) return;
    if (this.remove(connection, uri, entry, subscriber)) await connection.unsubscribe(uri);
  }

  /**
   * Where `subscriber` holds the URI it knows as `exposedUri`: for an unsubscribe the catalog can
   * no longer route (a reload took the URI from the catalog or from the profile), so the slot can
   * still be freed. A scan: the rare path.
   */
  heldAs(subscriber: Subscriber, exposedUri: string): { connection: Connection; uri: string } | undefined {
    for (const [connection, uris] of this.byConnection) {
      for (const [uri, entry] of uris) if (entry.holders.get(subscriber)?.exposedUri === exposedUri) return { connection, uri };
    }
    return undefined;
  }

  /** Delivers a server's resources/updated to the holders of that URI that may still read it. */
  updated(connection: Connection, params: JsonObject): void {
    const uri = params.uri;
    if (typeof uri !== 'string') return;
    const entry = this.byConnection.get(connection)?.get(uri);
    if (!entry) return;
    for (const [subscriber, { exposedUri, session }] of entry.holders) {
      if (!this.deps.mayHear(session, connection, uri, exposedUri)) continue;
      subscriber.send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { ...params, uri: exposedUri } });
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

  /** A session ended: release everything held for it (its own and its listen streams'). */
  dropSession(session: Session): void {
    if (!this.perSession.has(session)) return;
    for (const [connection, uris] of this.byConnection) {
      for (const [uri, entry] of uris) {
        for (const [subscriber, holding] of entry.holders) {
          if (holding.session === session && this.remove(connection, uri, entry, subscriber)) void connection.unsubscribe(uri).catch(() => {});
        }
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

  /** A connection is gone: its subscriptions went with it, and their slots are free. */
  dropConnection(connection: Connection): void {
    const uris = this.byConnection.get(connection);
    if (!uris) return;
    this.byConnection.delete(connection);
    for (const entry of uris.values()) {
      for (const holding of entry.holders.values()) this.release(holding);
      entry.holders.clear(); // a subscribe still waiting on it finds nothing left to release
    }
  }

  /** Takes a slot on `account`, or refuses with the limit that is full. */
  private reserve(account: Account): void {
    if (this.room(account) < 1) this.refuse(account, 1);
    count(this.perAccount, account, 1);
    this.total++;
  }

  /** Throws the LIMIT_EXCEEDED that `wanted` more holdings on `account` run into (its own limit first). */
  refuse(account: Account, wanted: number): never {
    const { maxSubscriptionsPerSession, maxSubscriptions } = this.deps.limits();
    const mine = this.perAccount.get(account) ?? 0;
    if (mine + wanted > maxSubscriptionsPerSession) {
      throw new GatewayError(
        'LIMIT_EXCEEDED',
        `this client holds ${mine} resource subscriptions; ${wanted} more would pass limits.maxSubscriptionsPerSession (${maxSubscriptionsPerSession}): unsubscribe from some first`,
        { limit: 'session', setting: 'limits.maxSubscriptionsPerSession', retryAfterMs: 1000 },
      );
    }
    throw new GatewayError('LIMIT_EXCEEDED', `the gateway holds ${this.total} resource subscriptions; ${wanted} more would pass limits.maxSubscriptions (${maxSubscriptions})`, {
      limit: 'gateway',
      setting: 'limits.maxSubscriptions',
      retryAfterMs: 5000,
    });
  }

  private release(holding: Holding): void {
    count(this.perAccount, holding.account, -1);
    count(this.perSession, holding.session, -1);
    this.total--;
  }

  /** Removes one holder and frees its slot; true when it was the URI's last (the server is to be told). */
  private remove(connection: Connection, uri: string, entry: Entry, subscriber: Subscriber): boolean {
    const holding = entry.holders.get(subscriber)!;
    entry.holders.delete(subscriber);
    this.release(holding);
    if (entry.holders.size > 0) return false;
    const uris = this.byConnection.get(connection);
    if (uris?.get(uri) === entry) {
      uris.delete(uri);
      if (uris.size === 0) this.byConnection.delete(connection);
    }
    return true;
  }
}

/** Adds `by` to `key`'s count; a count of zero leaves the map. */
function count<K>(counts: Map<K, number>, key: K, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}
