// How the Redis store lays out what it keeps: key names (all under "sb:" and state.keyPrefix), a
// session record as a hash of JSON-encoded fields (so a patch writes only the fields it changes),
// and in-flight claims as JSON. Pure: no I/O, no Redis client.

import type { SessionRecord } from './store.js';

/** The names of everything the store keeps in Redis; `base` is "sb:" + state.keyPrefix. */
export class RedisKeys {
  readonly base: string;
  /** Prefix of a holder's set of sessions, scored by when each expires (countSessions). */
  readonly holderPrefix: string;
  /** The set of replicas, scored by when each one's heartbeat expires (liveReplicas). */
  readonly replicas: string;
  /** The key cursors and requestState tokens are signed with, when no listen.stateKey is configured. */
  readonly sharedKey: string;

  constructor(keyPrefix = '') {
    // `sb:team:` whether the prefix is written `team` or `team:`.
    this.base = keyPrefix === '' || keyPrefix.endsWith(':') ? `sb:${keyPrefix}` : `sb:${keyPrefix}:`;
    this.holderPrefix = `${this.base}h:`;
    this.replicas = `${this.base}replicas`;
    this.sharedKey = `${this.base}key`;
  }

  record(id: string): string {
    return `${this.base}s:${id}`;
  }
  events(id: string): string {
    return `${this.base}e:${id}`;
  }
  claims(id: string): string {
    return `${this.base}k:${id}`;
  }
  channel(id: string): string {
    return `${this.base}c:${id}`;
  }
  /** A short-lived value (takeOnce, putValue). */
  value(key: string): string {
    return `${this.base}v:${key}`;
  }
  /** A topic's channel (signal, listen). */
  topic(topic: string): string {
    return `${this.base}t:${topic}`;
  }
  holder(holder: string): string {
    return this.holderPrefix + holder;
  }
  heartbeat(replicaId: string): string {
    return `${this.base}r:${replicaId}`;
  }
}

/** The holder, raw, in a field of its own: the scripts read it to find the session's count. */
const HOLDER_FIELD = '_h';

/**
 * Field, value, field, value… of a record or a patch. Every value is JSON (never ''), so '' can
 * stand for "delete this field" (a patch setting a key to undefined). `id` is the key, not a field.
 */
export function recordFields(record: Partial<SessionRecord>): string[] {
  const out: string[] = [];
  for (const [field, value] of Object.entries(record)) {
    if (field === 'id') continue;
    out.push(field, value === undefined ? '' : JSON.stringify(value));
    if (field === 'holder') out.push(HOLDER_FIELD, value === undefined ? '' : String(value));
  }
  return out;
}

/** The record a hash holds, or undefined when the hash is empty (gone or expired). */
export function recordOf(id: string, hash: Record<string, string>): SessionRecord | undefined {
  const out: Record<string, unknown> = {};
  let any = false;
  for (const [field, value] of Object.entries(hash)) {
    if (field === HOLDER_FIELD) continue;
    any = true;
    try {
      out[field] = JSON.parse(value);
    } catch {
      // A field this version cannot read (written by hand, or by a newer one): left out.
    }
  }
  return any ? ({ ...out, id } as unknown as SessionRecord) : undefined;
}

export interface Claim {
  readonly replica: string;
  readonly requestId: string | number;
}

export function claimOf(text: string | null | undefined): Claim | undefined {
  if (text === null || text === undefined) return undefined;
  try {
    const claim = JSON.parse(text) as Claim;
    return typeof claim.replica === 'string' && (typeof claim.requestId === 'string' || typeof claim.requestId === 'number') ? claim : undefined;
  } catch {
    return undefined;
  }
}

/** A stream entry id as XADD makes them (`1700000000000-0`); anything else names no event. */
export const ENTRY_ID = /^\d{1,20}-\d{1,20}$/;
