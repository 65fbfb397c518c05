// The outbound era adapter: what a ServerConnection does differently for a server of each era,
// behind one shape, chosen at the handshake (handshake.ts). The connection itself is era-blind:
// it forwards, fetches lists and takes notifications through its side. The stateless side
// (2026-07-28) is stateless-side.ts; the stateful one (2024-11-05 … 2025-11-25) is below.

import type { Peer, PeerAnswer } from '../jsonrpc/peer.js';
import type { JsonRpcNotification } from '../protocol/jsonrpc.js';
import type { ListKind } from '../protocol/mcp.js';
import { statefulParams } from './envelope.js';
import type { Era } from './era.js';
import { fetchAll, type FetchedList, type ListBounds } from './list-fetch.js';
import type { ForwardOptions } from './server-connection-types.js';
import { ResourceSubscriptions, type SubscriptionWay } from './resource-subscriptions.js';
import type { JsonObject } from '../protocol/json.js';

export interface EraSide<O> {
  readonly era: Era;
  /** A request to the server, as its era wants it (the envelope, or the trace keys only). */
  forward(peer: Peer<O>, method: string, params: JsonObject | undefined, options: ForwardOptions<O>): Promise<PeerAnswer>;
  /** Whether a client notification of this method is sent to the server at all. */
  notifies(method: string): boolean;
  /** Every page of one list. */
  fetch(peer: Peer<O>, kind: ListKind, bounds: ListBounds, previous?: FetchedList): Promise<FetchedList>;
  /** A server notification as the connection should see it, or undefined when it is the side's own business. */
  receive(n: JsonRpcNotification): JsonRpcNotification | undefined;
  /** The server was opened, before its lists are fetched. */
  opened(): void;
  /** The connection is ready (again). */
  ready(): void;
  /** How resource subscriptions reach the server (resource-subscriptions.ts). */
  readonly subscriptions: SubscriptionWay;
}

export interface StatefulHost {
  readonly name: string;
  /** Subscribes again, after a reconnect, to every resource still wanted (resource-subscriptions.ts). */
  restoreSubscriptions(): void;
}

/** A server of the stateful era: the session was made by the handshake; requests carry only the trace keys. */
export class StatefulSide<O> implements EraSide<O> {
  readonly era = 'stateful' as const;
  /** resources/subscribe and unsubscribe, made again after a reconnect (ready()). */
  readonly subscriptions = ResourceSubscriptions.byRequests;

  constructor(private readonly host: StatefulHost) {}

  forward(peer: Peer<O>, method: string, params: JsonObject | undefined, options: ForwardOptions<O>): Promise<PeerAnswer> {
    return peer.requestRaw(method, statefulParams(params, options.envelope), options);
  }

  notifies(): boolean {
    return true;
  }

  fetch(peer: Peer<O>, kind: ListKind, bounds: ListBounds, previous?: FetchedList): Promise<FetchedList> {
    return fetchAll(peer, kind, bounds, this.host.name, previous);
  }

  receive(n: JsonRpcNotification): JsonRpcNotification {
    return n;
  }

  opened(): void {}

  ready(): void {
    this.host.restoreSubscriptions();
  }
}
