// One connection's resource subscriptions, across reconnects: which URIs we want updates about,
// and how the server is told, the way its era side says (SubscriptionWay). Stateful era:
// resources/subscribe and unsubscribe, made again after a reconnect (the server forgets them with
// its connection). 2026-07-28: the listen stream's filter (the connection re-listens). Invariant: a URI is wanted only once the server agreed to it.
// A burst (a session that held a thousand URIs ends) is told one request at a time (stateful) or
// in one new listen stream (2026-07-28), never past the server's limit of calls in flight.

import { type JsonObject, valueAt } from '../protocol/json.js';
import { RpcError, describeError } from '../errors.js';
import type { Logger } from '../log.js';
import { ErrorCode } from '../protocol/jsonrpc.js';

export interface SubscriptionHost {
  readonly name: string;
  readonly logger: Logger;
  /** How the server is told, as its era side has it (era-side.ts: `subscriptions`). */
  way(): SubscriptionWay;
  /** Throws the connection's unavailability when it is not ready. */
  checkReady(): void;
  capabilities(): JsonObject;
  request(method: string, params: JsonObject): Promise<unknown>;
  /** 2026-07-28: opens a listen stream with the current URIs; resolves once it is acknowledged. */
  relisten(): Promise<void>;
}

/** How subscriptions reach a server: each era side holds one (ResourceSubscriptions.byRequests or byListen). */
export interface SubscriptionWay {
  /** Tells the server `uri` is wanted (already in `subs.uris`); rejects when it refuses. */
  add(subs: ResourceSubscriptions, uri: string): Promise<void>;
  /** Tells it `uri` is no longer wanted (already gone from `subs.uris`). */
  drop(subs: ResourceSubscriptions, uri: string): Promise<void>;
  /** After a refused add of a URI that was not wanted before (now gone from `subs.uris` again). */
  undo(subs: ResourceSubscriptions): void;
}

export class ResourceSubscriptions {
  /** Stateful era: resources/subscribe per URI; unsubscribes one at a time. */
  static readonly byRequests: SubscriptionWay = {
    add: (subs, uri) => subs.hold(uri),
    drop: async (subs, uri) => {
      if (!subs.held.has(uri) && !subs.asking.has(uri)) return;
      const turn = subs.releasing.then(() => subs.release(uri));
      subs.releasing = turn.catch(() => {});
      await turn;
    },
    undo: () => {}, // the server holds nothing it refused
  };

  /** 2026-07-28: the listen stream's filter, renewed for each burst of changes. */
  static readonly byListen: SubscriptionWay = {
    add: (subs, _uri) => {
      const host = subs.host;
      if (!valueAt(host.capabilities(), 'resources', 'subscribe')) return Promise.reject(new RpcError(ErrorCode.MethodNotFound, `server "${host.name}" offers no resource subscriptions`));
      return subs.relisten();
    },
    drop: (subs) => subs.relisten(),
    undo: (subs) => void subs.relisten().catch(() => {}),
  };

  private readonly wanted = new Set<string>();
  /** Of those, the ones the current stateful-era server holds. */
  private readonly held = new Set<string>();
  /** resources/subscribe requests in flight, so a URI is asked for once (restore and the router race after a reconnect). */
  private readonly asking = new Map<string, Promise<void>>();
  /** The unsubscribes waiting their turn, one at a time: the tail of their chain. */
  private releasing: Promise<void> = Promise.resolve();
  /** 2026-07-28: the new listen stream that the changes made in one synchronous run share. */
  private relistening?: Promise<void>;

  constructor(private readonly host: SubscriptionHost) {}

  get uris(): ReadonlySet<string> {
    return this.wanted;
  }

  async subscribe(uri: unknown): Promise<void> {
    if (typeof uri !== 'string') throw new RpcError(ErrorCode.InvalidParams, 'params.uri must be a string');
    const host = this.host;
    host.checkReady();
    const had = this.wanted.has(uri);
    this.wanted.add(uri);
    const way = host.way();
    try {
      await way.add(this, uri);
    } catch (err) {
      if (!had) {
        this.wanted.delete(uri);
        way.undo(this);
      }
      throw err;
    }
  }

  async unsubscribe(uri: unknown): Promise<void> {
    if (typeof uri !== 'string' || !this.wanted.delete(uri)) return;
    try {
      this.host.checkReady();
    } catch {
      return; // nothing is held on a server that is gone
    }
    return this.host.way().drop(this, uri);
  }

  /** resources/unsubscribe, in its turn, unless the URI is wanted again by then (the server keeps it). */
  private async release(uri: string): Promise<void> {
    await this.asking.get(uri)?.catch(() => {});
    if (this.wanted.has(uri) || !this.held.delete(uri)) return;
    await this.host.request('resources/unsubscribe', { uri });
  }

  /** One new listen stream for the changes made before the next microtask (a session's end drops all its URIs at once). */
  private relisten(): Promise<void> {
    this.relistening ??= Promise.resolve().then(() => {
      this.relistening = undefined;
      return this.host.relisten();
    });
    return this.relistening;
  }

  /** A new connection to the server: it holds nothing of ours yet. */
  connected(): void {
    this.held.clear();
    this.asking.clear();
  }

  /** resources/subscribe, unless the server holds the URI already or is being asked for it. */
  private hold(uri: string): Promise<void> {
    if (this.held.has(uri)) return Promise.resolve();
    let asked = this.asking.get(uri);
    if (!asked) {
      asked = this.host.request('resources/subscribe', { uri }).then(() => {
        if (this.asking.get(uri) === asked) this.held.add(uri);
      });
      const settle = () => {
        if (this.asking.get(uri) === asked) this.asking.delete(uri);
      };
      asked.then(settle, settle);
      this.asking.set(uri, asked);
    }
    return asked;
  }

  /** Stateful era, after a reconnect: subscribe again to every URI still wanted. */
  async restore(): Promise<void> {
    for (const uri of [...this.wanted]) {
      try {
        await this.hold(uri);
      } catch (err) {
        this.host.logger.warn({ err: describeError(err) }, 'subscribing again after a reconnect failed');
      }
    }
  }
}
