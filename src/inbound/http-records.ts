// The HTTP face's link to the state store for stateful sessions: each session's record written at
// initialize, its TTL pushed lazily, patched and deleted as the session changes and ends; a session
// another replica initialized looked up by id and adopted; and every held session following the
// messages other replicas send about it ('ended', 'patched'). Never on the per-call path: a session
// held here is a Map hit, and the TTL refresh is fire and forget at most once a quarter TTL.

import type { SessionMessage, SessionRecord, StateStore } from '../state/store.js';
import type { HttpEndpointLogger } from './http-endpoint-options.js';
import type { SessionEntry } from './http-session.js';

/** What a lookup of a session not held here found. */
export type Lookup = SessionRecord | 'not-found' | 'down';

export class SessionRecords {
  /** True from the first failure of an outage until the store is up again: logged once per outage. */
  private failing = false;
  private readonly offHealth: () => void;

  constructor(
    readonly store: StateStore,
    /** The record's TTL: the session idle timeout. */
    readonly ttlMs: number,
    private readonly logger: HttpEndpointLogger,
    /** Id of the key the gateway signs cursors with now. */
    private readonly keyId: () => string,
  ) {
    this.offHealth = store.onHealth((health) => {
      if (health === 'up' && this.failing) {
        this.failing = false;
        logger.info({ store: store.kind }, 'state store reachable again');
      }
    });
  }

  /** Whether other replicas may share the sessions (Redis, or memory stores shared in one process). */
  get shared(): boolean {
    return this.store.kind !== 'memory' || this.store.liveReplicas() > 1;
  }

  get up(): boolean {
    return this.store.health === 'up';
  }

  /** A store operation failed: logged once per outage, never thrown at the session using it. */
  readonly failed = (err: unknown): void => {
    if (this.failing) return;
    this.failing = true;
    this.logger.warn({ store: this.store.kind, err: String(err) }, 'state store unreachable: held sessions carry on, new ones are refused until it is back');
  };

  /**
   * Writes `entry`'s record after its initialize, and follows its messages. Awaited before the
   * client hears the answer: its next request may reach another replica at once.
   */
  async put(entry: SessionEntry, principal: string | undefined, holder: string): Promise<void> {
    const fields = entry.session.recordFields?.();
    if (fields === undefined) return;
    const record: SessionRecord = { id: entry.id, ...fields, principal, holder, keyId: this.keyId(), replica: this.store.replicaId };
    entry.refreshedAt = Date.now();
    this.attach(entry);
    await this.store.putSession(record, this.ttlMs).catch(this.failed);
  }

  /**
   * `entry` is held here from now on (initialized or adopted): its changes go to its record, and
   * it follows what other replicas say about it until it ends here.
   */
  attach(entry: SessionEntry): void {
    entry.records = this;
    entry.session.recordChanged = (patch) => this.patch(entry, patch);
    entry.session.joinCluster?.(this.store.replicaId, (message) => this.store.publish(entry.id, message).catch(this.failed));
    const listener = (message: SessionMessage) => entry.heard(message);
    this.store.subscribe(entry.id, listener).then((off) => {
      // Ended while the subscription was being set up.
      if (entry.closed) off();
      else entry.unfollow = off;
    }, this.failed);
  }

  /** Pushes the record's expiry out, at most once a quarter TTL; called when the client does work. */
  refresh(entry: SessionEntry, now: number): void {
    if (now - entry.refreshedAt < this.ttlMs / 4) return;
    entry.refreshedAt = now;
    this.store.touchSession(entry.id, this.ttlMs).catch(this.failed);
  }

  patch(entry: SessionEntry, patch: Partial<SessionRecord>): void {
    // A replica taking subscriptions upstream says so: another one adopting later knows who holds them.
    const full = patch.subscriptions === undefined ? patch : { ...patch, replica: this.store.replicaId };
    this.store.patchSession(entry.id, full).catch(this.failed);
  }

  /** The session ended for good (DELETE, shed): every replica drops it. */
  ended(id: string): void {
    this.store.deleteSession(id).catch(this.failed);
  }

  /** The record of a session not held here; 'down' when the store cannot tell (it may well exist). */
  async lookup(id: string): Promise<Lookup> {
    if (!this.up) return 'down';
    try {
      return (await this.store.getSession(id)) ?? 'not-found';
    } catch (err) {
      this.failed(err);
      return 'down';
    }
  }

  /** Whether the replica that last wrote `record` is gone (its upstream subscriptions with it). */
  async ownerGone(record: SessionRecord): Promise<boolean> {
    if (record.replica === this.store.replicaId) return false;
    return !(await this.store.isAlive(record.replica).catch(() => true));
  }

  close(): void {
    this.offHealth();
  }
}
