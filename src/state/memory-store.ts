// The default store: one process, everything in Maps. It gives a single gateway the same
// resumability a cluster has (SSE events kept per session, replayed after Last-Event-ID), and
// tests can hand one instance to two endpoints in a process to act out two replicas. Bounded:
// events per session (maxEvents, oldest dropped), records expire with their TTL.

import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { SessionMessage, SessionRecord, StateStore, StoredEvent, StoreHealth } from './store.js';

/** Events kept per session by default: enough for a reconnect, never unbounded. */
export const DEFAULT_MAX_EVENTS = 1000;

interface Kept {
  record: SessionRecord;
  expiresAt: number;
}

interface Claim {
  readonly replica: string;
  readonly requestId: string | number;
}

export class MemoryStore implements StateStore {
  readonly kind = 'memory' as const;
  readonly replicaId: string;
  readonly health: StoreHealth = 'up';
  private readonly records = new Map<string, Kept>();
  private readonly events = new Map<string, StoredEvent[]>();
  private readonly listeners = new Map<string, Set<(message: SessionMessage) => void>>();
  private readonly claims = new Map<string, Map<string, Claim>>();
  /** Shared with the stores that share these maps: event ids stay unique within a session. */
  private readonly seq: { n: number } = { n: 0 };
  private key: { key: Buffer; keyId: string } | undefined;
  /** Replicas sharing this instance (tests acting out a cluster); all alive until they close. */
  private readonly alive: Set<string>;

  constructor(
    readonly maxEvents = DEFAULT_MAX_EVENTS,
    private readonly now: () => number = Date.now,
    /** Another MemoryStore whose maps this one shares, as a second replica in the same process. */
    shareWith?: MemoryStore,
  ) {
    this.replicaId = randomUUID().slice(0, 8);
    if (shareWith !== undefined) {
      this.records = shareWith.records;
      this.events = shareWith.events;
      this.listeners = shareWith.listeners;
      this.claims = shareWith.claims;
      this.alive = shareWith.alive;
      this.seq = shareWith.seq;
      this.key = shareWith.sharedKeySync();
    } else {
      this.alive = new Set();
    }
    this.alive.add(this.replicaId);
  }

  onHealth(): () => void {
    return () => {};
  }

  private sharedKeySync(): { key: Buffer; keyId: string } {
    if (this.key === undefined) {
      const key = randomBytes(32);
      this.key = { key, keyId: createHash('sha256').update(key).digest('hex').slice(0, 12) };
    }
    return this.key;
  }

  async sharedKey(): Promise<{ key: Buffer; keyId: string }> {
    return this.sharedKeySync();
  }

  async putSession(record: SessionRecord, ttlMs: number): Promise<void> {
    this.records.set(record.id, { record, expiresAt: this.now() + ttlMs });
  }

  async getSession(id: string): Promise<SessionRecord | undefined> {
    return this.live(id)?.record;
  }

  async touchSession(id: string, ttlMs: number): Promise<boolean> {
    const kept = this.live(id);
    if (kept === undefined) return false;
    kept.expiresAt = this.now() + ttlMs;
    return true;
  }

  async patchSession(id: string, patch: Partial<SessionRecord>): Promise<void> {
    const kept = this.live(id);
    if (kept === undefined) return;
    kept.record = { ...kept.record, ...patch, id };
    await this.publish(id, { kind: 'patched', patch });
  }

  async deleteSession(id: string): Promise<void> {
    this.records.delete(id);
    this.events.delete(id);
    this.claims.delete(id);
    await this.publish(id, { kind: 'ended' });
  }

  async countSessions(holder: string): Promise<number> {
    let n = 0;
    const now = this.now();
    for (const [id, kept] of this.records) {
      if (kept.expiresAt <= now) this.records.delete(id);
      else if (kept.record.holder === holder) n++;
    }
    return n;
  }

  async appendEvent(sessionId: string, stream: string, data: string): Promise<StoredEvent> {
    // Zero-padded so ids compare as strings in the order they were made.
    const event: StoredEvent = { id: (++this.seq.n).toString(36).padStart(10, '0'), stream, data };
    let list = this.events.get(sessionId);
    if (list === undefined) this.events.set(sessionId, (list = []));
    list.push(event);
    if (list.length > this.maxEvents) list.splice(0, list.length - this.maxEvents);
    await this.publish(sessionId, { kind: 'event', event });
    return event;
  }

  async eventsAfter(sessionId: string, lastEventId: string): Promise<{ stream: string; events: StoredEvent[] } | undefined> {
    const list = this.events.get(sessionId);
    if (list === undefined) return undefined;
    const at = list.findIndex((e) => e.id === lastEventId);
    if (at === -1) return undefined;
    const stream = list[at]!.stream;
    return { stream, events: list.slice(at + 1).filter((e) => e.stream === stream) };
  }

  async publish(sessionId: string, message: SessionMessage): Promise<void> {
    const set = this.listeners.get(sessionId);
    if (set === undefined) return;
    for (const listener of [...set]) listener(message);
  }

  async subscribe(sessionId: string, listener: (message: SessionMessage) => void): Promise<() => void> {
    let set = this.listeners.get(sessionId);
    if (set === undefined) this.listeners.set(sessionId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(sessionId) === set) this.listeners.delete(sessionId);
    };
  }

  async claimCall(sessionId: string, stream: string, requestId: string | number): Promise<void> {
    let claims = this.claims.get(sessionId);
    if (claims === undefined) this.claims.set(sessionId, (claims = new Map()));
    claims.set(stream, { replica: this.replicaId, requestId });
  }

  async settleCall(sessionId: string, stream: string): Promise<boolean> {
    return this.claims.get(sessionId)?.delete(stream) === true;
  }

  async callClaim(sessionId: string, stream: string): Promise<Claim | undefined> {
    return this.claims.get(sessionId)?.get(stream);
  }

  async isAlive(replicaId: string): Promise<boolean> {
    return this.alive.has(replicaId);
  }

  liveReplicas(): number {
    return Math.max(1, this.alive.size);
  }

  async close(): Promise<void> {
    this.alive.delete(this.replicaId);
  }

  private live(id: string): Kept | undefined {
    const kept = this.records.get(id);
    if (kept === undefined) return undefined;
    if (kept.expiresAt <= this.now()) {
      this.records.delete(id);
      this.events.delete(id);
      this.claims.delete(id);
      return undefined;
    }
    return kept;
  }
}
