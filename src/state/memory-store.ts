// The default store: one process, everything in Maps. It gives a single gateway the same
// resumability a cluster has (SSE events kept per session, replayed after Last-Event-ID), and
// tests can hand one instance to two endpoints in a process to act out two replicas. Bounded:
// events per session by count and by bytes, all sessions' events by bytes (the session keeping
// the most loses its oldest first; past that, an event is kept as its stand-in), one event by
// bytes (stand-in.ts);
// records expire with their TTL.

import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { MemoryValues } from './memory-values.js';
import { DEFAULT_MAX_EVENT_BYTES, eventBytes, keptForm, standIn } from './stand-in.js';
import type { SessionMessage, SessionRecord, StateStore, StoredEvent, StoreHealth } from './store.js';

/** Events kept per session by default: enough for a reconnect, never unbounded. */
export const DEFAULT_MAX_EVENTS = 1000;
/** Event data kept per session by default. */
export const DEFAULT_MAX_SESSION_BYTES = 4 * 1024 * 1024;
/** Event data kept across all sessions by default: what one process spends on resumption. */
export const DEFAULT_MAX_TOTAL_BYTES = 64 * 1024 * 1024;

export interface MemoryStoreOptions {
  /** Events kept per session (default 1000); the oldest beyond it go. */
  readonly maxEvents?: number;
  /** An event larger than this is kept as its stand-in (default 64 KiB, state.maxEventBytes). */
  readonly maxEventBytes?: number;
  /** Event data kept per session (default 4 MiB); the session's oldest events beyond it go. */
  readonly maxSessionBytes?: number;
  /** Event data kept across sessions (default 64 MiB); shared by the stores that share maps. */
  readonly maxTotalBytes?: number;
  readonly now?: () => number;
  /** Another MemoryStore whose maps this one shares, as a second replica in the same process. */
  readonly shareWith?: MemoryStore;
}

/** One session's kept events and the bytes of their data. */
interface Events {
  readonly list: StoredEvent[];
  bytes: number;
}

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
  private readonly events = new Map<string, Events>();
  /** Bytes of event data kept across sessions (shared like the maps). */
  private readonly kept: { bytes: number } = { bytes: 0 };
  private readonly listeners = new Map<string, Set<(message: SessionMessage) => void>>();
  private readonly claims = new Map<string, Map<string, Claim>>();
  private readonly values: MemoryValues;
  /** Shared with the stores that share these maps: event ids stay unique within a session. */
  private readonly seq: { n: number } = { n: 0 };
  private key: { key: Buffer; keyId: string } | undefined;
  /** Replicas sharing this instance (tests acting out a cluster); all alive until they close. */
  private readonly alive: Set<string>;

  readonly maxEvents: number;
  readonly maxEventBytes: number;
  readonly maxSessionBytes: number;
  readonly maxTotalBytes: number;
  private readonly now: () => number;

  constructor(options: MemoryStoreOptions = {}) {
    const { shareWith } = options;
    this.maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
    this.maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
    this.maxSessionBytes = options.maxSessionBytes ?? DEFAULT_MAX_SESSION_BYTES;
    this.maxTotalBytes = options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
    this.now = options.now ?? Date.now;
    this.replicaId = randomUUID().slice(0, 8);
    if (shareWith !== undefined) {
      this.records = shareWith.records;
      this.events = shareWith.events;
      this.kept = shareWith.kept;
      this.listeners = shareWith.listeners;
      this.claims = shareWith.claims;
      this.values = MemoryValues.sharing(shareWith.values, this.now);
      this.alive = shareWith.alive;
      this.seq = shareWith.seq;
      this.key = shareWith.sharedKeySync();
    } else {
      this.alive = new Set();
      this.values = new MemoryValues(this.now);
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
    this.dropEvents(id);
    this.claims.delete(id);
    await this.publish(id, { kind: 'ended' });
  }

  async countSessions(holder: string): Promise<number> {
    let n = 0;
    const now = this.now();
    for (const [id, kept] of this.records) {
      if (kept.expiresAt <= now) this.forget(id);
      else if (kept.record.holder === holder) n++;
    }
    return n;
  }

  /**
   * Keeps the event (or its stand-in when over maxEventBytes) within the bounds: the session's
   * oldest events go while it is over maxEvents, maxSessionBytes or the total; if the total is
   * still over, this event is kept as its stand-in. The holders hear it in full, with its id.
   */
  async appendEvent(sessionId: string, stream: string, data: string): Promise<StoredEvent> {
    // Zero-padded so ids compare as strings in the order they were made.
    const id = (++this.seq.n).toString(36).padStart(10, '0');
    let events = this.events.get(sessionId);
    if (events === undefined) this.events.set(sessionId, (events = { list: [], bytes: 0 }));
    const stored = this.keep(events, { id, stream, data: keptForm(data, this.maxEventBytes) }, data);
    await this.publish(sessionId, { kind: 'event', event: stored.data === data ? stored : { id, stream, data } });
    return stored;
  }

  private keep(events: Events, event: StoredEvent, original: string): StoredEvent {
    const { list } = events;
    this.account(events, event.data, 1);
    list.push(event);
    let drop = 0;
    while (drop < list.length - 1 && (list.length - drop > this.maxEvents || events.bytes > this.maxSessionBytes)) {
      this.account(events, list[drop]!.data, -1);
      drop++;
    }
    if (drop > 0) list.splice(0, drop);
    if (this.kept.bytes > this.maxTotalBytes) this.shrinkBiggest(events);
    if (this.kept.bytes <= this.maxTotalBytes && events.bytes <= this.maxSessionBytes) return event;
    // Nothing older is left to drop: the event itself gives way (if it still can).
    if (event.data !== original || original === '') return event;
    const small: StoredEvent = { ...event, data: standIn(original) };
    this.account(events, event.data, -1);
    this.account(events, small.data, 1);
    list[list.length - 1] = small;
    return small;
  }

  /**
   * Over the total: the session keeping the most bytes loses its oldest events first, so one
   * client's many sessions cannot push everyone else's out (the appending session keeps at least
   * the event just added).
   */
  private shrinkBiggest(appending: Events): void {
    while (this.kept.bytes > this.maxTotalBytes) {
      let biggest: Events | undefined;
      for (const events of this.events.values()) {
        const droppable = events === appending ? events.list.length > 1 : events.list.length > 0;
        if (droppable && (biggest === undefined || events.bytes > biggest.bytes)) biggest = events;
      }
      if (biggest === undefined) return;
      // Sixteen at most, then the biggest is looked for again; one splice, no shifting per event.
      let drop = 0;
      const floor = biggest === appending ? 1 : 0;
      while (biggest.list.length - drop > floor && this.kept.bytes > this.maxTotalBytes) {
        this.account(biggest, biggest.list[drop]!.data, -1);
        drop++;
        if (drop % 16 === 0) break;
      }
      biggest.list.splice(0, drop);
    }
  }

  private account(events: Events, data: string, sign: 1 | -1): void {
    const bytes = sign * eventBytes(data);
    events.bytes += bytes;
    this.kept.bytes += bytes;
  }

  /** Bytes of event data kept now, across sessions (for tests and the attack's numbers). */
  get keptBytes(): number {
    return this.kept.bytes;
  }

  async eventsAfter(sessionId: string, lastEventId: string): Promise<{ stream: string; events: StoredEvent[] } | undefined> {
    const list = this.events.get(sessionId)?.list;
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

  async takeOnce(key: string, ttlMs: number): Promise<boolean> {
    return this.values.takeOnce(key, ttlMs);
  }

  async putValue(key: string, value: string, ttlMs: number): Promise<void> {
    this.values.put(key, value, ttlMs);
  }

  async takeValue(key: string): Promise<string | undefined> {
    return this.values.take(key);
  }

  async signal(topic: string): Promise<void> {
    this.values.signal(topic);
  }

  async listen(topic: string, listener: () => void): Promise<() => void> {
    return this.values.listen(topic, listener);
  }

  async close(): Promise<void> {
    this.alive.delete(this.replicaId);
  }

  /** An expired session: its record, events and claims go. */
  private forget(id: string): void {
    this.records.delete(id);
    this.dropEvents(id);
    this.claims.delete(id);
  }

  private dropEvents(id: string): void {
    const events = this.events.get(id);
    if (events === undefined) return;
    this.kept.bytes -= events.bytes;
    this.events.delete(id);
  }

  private live(id: string): Kept | undefined {
    const kept = this.records.get(id);
    if (kept === undefined) return undefined;
    if (kept.expiresAt <= this.now()) {
      this.forget(id);
      return undefined;
    }
    return kept;
  }
}
