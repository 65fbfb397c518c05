// The store behind what several replicas must share: stateful sessions' records, the events of
// their SSE streams (for resumption with Last-Event-ID), messages between replicas about one
// session, in-flight claims that make a call answered exactly once, and the live replicas. One
// interface, two implementations: in memory (the default: one process, nothing to install) and
// Redis (state.redis). test/contract/state-store.test.ts runs one suite against both.
//
// Nothing here is on the per-message path of a call answered with plain JSON: the HTTP endpoint
// consults the store when a session id is not in its own map, when an SSE stream opens or carries
// an event, and at a lazily paced TTL refresh.

import type { JsonObject } from '../protocol/json.js';

/** What any replica needs to serve a stateful (2024-11-05 … 2025-11-25) session it did not open. */
export interface SessionRecord {
  readonly id: string;
  /** The revision agreed in initialize. */
  readonly protocolVersion: string;
  readonly clientCapabilities: JsonObject;
  readonly clientInfo?: JsonObject;
  /** The client profile's name (clients[].name), or undefined for the default profile. */
  readonly profile?: string;
  /** Whom the HTTP face authenticated (profile token or OAuth subject): later requests must match. */
  readonly principal?: string;
  /** The principal's key for shares (principals.ts), so cluster-wide counts find it. */
  readonly holder: string;
  /** logging/setLevel's level, when the client set one. */
  readonly logLevel?: string;
  /** Resource URIs the client subscribed to, as it named them. */
  readonly subscriptions: readonly string[];
  /** Id of the key cursors and requestState tokens are signed with (state.ts: keyId). */
  readonly keyId: string;
  /** The replica that wrote the record last. */
  readonly replica: string;
}

/** One stored SSE event. `id` is the store's, increasing within a session. */
export interface StoredEvent {
  readonly id: string;
  /** The stream of the session it belongs to (GET stream or one POST's), as named in SSE ids. */
  readonly stream: string;
  /** The JSON-RPC message, serialised; '' for a priming event (or the stand-in of a notification too large to keep). */
  readonly data: string;
}

/** Messages replicas send each other about one session (over the store's pub/sub). */
export type SessionMessage =
  /** An event was appended to one of the session's streams: the replica holding that stream writes it. */
  | { readonly kind: 'event'; readonly event: StoredEvent }
  /** The client answered a server→client request (sampling, elicitation, roots) on another replica. */
  | { readonly kind: 'answer'; readonly message: JsonObject }
  /** The client cancelled a request it made on another replica. */
  | { readonly kind: 'cancel'; readonly requestId: string | number }
  /** The session ended (DELETE, expiry, shed): every replica drops its copy. */
  | { readonly kind: 'ended' }
  /** A patch to the record (log level, subscriptions) every holder applies to its copy. */
  | { readonly kind: 'patched'; readonly patch: Partial<SessionRecord> };

/** Whether the store can be used now; a replica serves the sessions it holds either way. */
export type StoreHealth = 'up' | 'down';

export interface StateStore {
  readonly kind: 'memory' | 'redis';
  /** This replica's id (random per process; in Redis keys and in-flight claims). */
  readonly replicaId: string;
  /** 'down' while Redis is unreachable; memory is always 'up'. */
  readonly health: StoreHealth;
  /** Called on every change of health (rxjs lives in the implementations that need it). */
  onHealth(listener: (health: StoreHealth) => void): () => void;

  /** The key shared by every replica for cursors and requestState tokens (created once, SET NX). */
  sharedKey(): Promise<{ readonly key: Buffer; readonly keyId: string }>;

  putSession(record: SessionRecord, ttlMs: number): Promise<void>;
  getSession(id: string): Promise<SessionRecord | undefined>;
  /** Pushes the record's expiry `ttlMs` from now; false when it no longer exists. */
  touchSession(id: string, ttlMs: number): Promise<boolean>;
  /** Merges `patch` into the record (no-op when it is gone) and tells the session's other holders. */
  patchSession(id: string, patch: Partial<SessionRecord>): Promise<void>;
  /** Deletes the record, its events and claims, and tells every holder ('ended'). */
  deleteSession(id: string): Promise<void>;
  /** Stateful sessions of `holder` alive in the cluster (for limits.perPrincipal.sessions). */
  countSessions(holder: string): Promise<number>;

  /**
   * Appends an event to `stream` of the session (bounded: the oldest beyond `maxEvents` per session
   * go) and publishes it to the session's holders; resolves with the stored event. An event over
   * maxEventBytes (or, in memory, past the store's byte bounds) is stored as its stand-in
   * (stand-in.ts) and resolves as such, while the holders hear it in full under the same id: the
   * live stream writes `data` itself with that id, a resumption replays the stand-in.
   */
  appendEvent(sessionId: string, stream: string, data: string): Promise<StoredEvent>;
  /** The events of the stream that `lastEventId` belongs to, after it, oldest first; undefined if unknown. */
  eventsAfter(sessionId: string, lastEventId: string): Promise<{ readonly stream: string; readonly events: StoredEvent[] } | undefined>;

  /** Sends a message to every replica holding the session (including this one). */
  publish(sessionId: string, message: SessionMessage): Promise<void>;
  /** Hears the session's messages until the returned function is called. */
  subscribe(sessionId: string, listener: (message: SessionMessage) => void): Promise<() => void>;

  /** Records that this replica serves `stream` (a POST's request) of the session. */
  claimCall(sessionId: string, stream: string, requestId: string | number): Promise<void>;
  /**
   * Takes the claim on `stream` away from whoever holds it, once: true for exactly one caller, who
   * then answers the request (the owner finishing it, or a replica answering for a dead owner).
   */
  settleCall(sessionId: string, stream: string): Promise<boolean>;
  /** The claim on `stream`, if any: which replica holds it and for which request. */
  callClaim(sessionId: string, stream: string): Promise<{ readonly replica: string; readonly requestId: string | number } | undefined>;

  /** Whether `replicaId` is alive (heartbeat within its TTL); this replica always is. */
  isAlive(replicaId: string): Promise<boolean>;
  /** Live replicas, this one included (at least 1): cluster-wide limits are split between them. */
  liveReplicas(): number;

  /**
   * Marks `key` as taken for `ttlMs`: true for exactly one caller across the replicas sharing the
   * store, false for every later one until it expires (single-use connect links, issue 33).
   */
  takeOnce(key: string, ttlMs: number): Promise<boolean>;
  /** Keeps a short-lived value every replica can take (a connect flow waiting for its callback). */
  putValue(key: string, value: string, ttlMs: number): Promise<void>;
  /** Reads and deletes the value at once: exactly one caller gets it; undefined when gone or expired. */
  takeValue(key: string): Promise<string | undefined>;
  /** Tells every replica's listeners of `topic` (a user connected a server), this one's included. */
  signal(topic: string): Promise<void>;
  /** Hears `topic`'s signals until the returned function is called; resolves once in place. */
  listen(topic: string, listener: () => void): Promise<() => void>;

  /** Stops heartbeats and subscriptions, closes connections. Idempotent. */
  close(): Promise<void>;
}

/**
 * What a store's methods reject with while it cannot reach its backend (Redis down, a command timed
 * out): at once, never after a queue's worth of waiting. The HTTP face answers new sessions 503
 * with Retry-After; the sessions a replica holds keep working from its own copy.
 */
export class StoreDownError extends Error {
  override readonly name = 'StoreDownError';
  constructor(message = 'the state store is unreachable', options?: { cause?: unknown }) {
    super(message, options);
  }
}
