// The store on Redis (state.redis), so that every replica serves every session: records as hashes
// expiring with the idle timeout, one bounded Redis Stream of SSE events per session, pub/sub on a
// second connection (one channel per session held here), claims as hashes, heartbeats per replica.
// While Redis is unreachable every method rejects at once with StoreDownError (no offline queue,
// a command timeout) and health is 'down'; node-redis reconnects with backoff and health comes back.

import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from '../log.js';
import { RedisChannels } from './redis-channels.js';
import { RedisCredentialBackend } from './credential-redis.js';
import { type Client, connections, isCommandError, type RedisTls, runScript, timed, watch } from './redis-connection.js';
import { RedisHealth } from './redis-health.js';
import { claimOf, ENTRY_ID, recordFields, recordOf, RedisKeys, type Claim } from './redis-record.js';
import { APPEND, CLAIM, COUNT, DELETE, HEARTBEAT, PATCH, PUT, type Script, TOUCH } from './redis-scripts.js';
import { maskRedisUrl } from './redis-url.js';
import { DEFAULT_MAX_EVENT_BYTES, keptForm } from './stand-in.js';
import { StoreDownError, type SessionMessage, type SessionRecord, type StateStore, type StoredEvent, type StoreHealth } from './store.js';

export interface RedisStoreOptions {
  /** redis:// or rediss:// URL, maybe with user:password (never logged as is). */
  readonly url: string;
  /** TLS material for a rediss:// URL (state.tls): a private CA, a client certificate and key. */
  readonly tls?: RedisTls;
  /** Put after "sb:" in every key and channel. */
  readonly keyPrefix?: string;
  /** Events kept per session (default 1000). */
  readonly maxEvents?: number;
  /** An event larger than this is kept as its stand-in (default 64 KiB): maxEvents × this bounds a session. */
  readonly maxEventBytes?: number;
  /** A replica not heard from this long is dead; renewed every third of it (default 5 s). */
  readonly heartbeatMs?: number;
  /** The longest any one command may take before it fails as 'down' (default 2 s). */
  readonly commandTimeoutMs?: number;
  /** listen.stateKey: the shared key is derived from it when set (a configured key wins). */
  readonly stateKey?: string;
  readonly logger?: Logger;
}

/** TTL of events and claims of a session with no record (written before its put, or after expiry). */
const ORPHAN_TTL_MS = 3_600_000;

export class RedisStore implements StateStore {
  readonly kind = 'redis' as const;
  readonly replicaId = randomUUID().slice(0, 8);
  private readonly keys: RedisKeys;
  private readonly client: Client;
  private readonly sub: Client;
  private readonly state = new RedisHealth();
  private readonly maxEvents: number;
  private readonly maxEventBytes: number;
  private readonly heartbeatMs: number;
  private readonly log: Logger | undefined;
  private readonly pubsub: RedisChannels;
  /** Topics (signal/listen) on the same subscriber connection, channels of their own. */
  private readonly topics: RedisChannels;
  private live = 1;
  private timer: NodeJS.Timeout | undefined;
  private key: { key: Buffer; keyId: string } | undefined;
  private error = '';
  private readonly commandTimeoutMs: number;
  private beating = false;
  private closed: Promise<void> | undefined;

  constructor(private readonly options: RedisStoreOptions) {
    this.keys = new RedisKeys(options.keyPrefix);
    this.maxEvents = options.maxEvents ?? 1000;
    this.maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
    this.heartbeatMs = options.heartbeatMs ?? 5000;
    this.log = options.logger;
    this.commandTimeoutMs = options.commandTimeoutMs ?? 2000;
    ({ client: this.client, sub: this.sub } = connections(options.url, this.commandTimeoutMs, options.tls));
    this.pubsub = new RedisChannels(
      this.sub,
      (id) => this.keys.channel(id),
      (op) => this.call(op),
      this.log,
    );
    this.topics = new RedisChannels(
      this.sub,
      (topic) => this.keys.topic(topic),
      (op) => this.call(op),
      this.log,
    );
    const onError = (message: string) => (this.error = message);
    watch(this.client, (ready) => this.state.setCommands(ready), onError);
    watch(this.sub, (ready) => this.state.setPubSub(ready), onError);
    this.client.on('ready', () => void this.beat());
    this.state.onChange((health) => {
      if (this.closed !== undefined) return;
      if (health === 'up') this.log?.info({ redis: maskRedisUrl(options.url) }, 'state store: Redis is reachable');
      else this.log?.warn({ redis: maskRedisUrl(options.url), error: this.error }, 'state store: Redis is unreachable; new sessions are refused until it returns');
    });
  }

  /** Connects both connections; resolves once up, or after `waitMs` (down, still retrying). */
  async start(waitMs = 5000): Promise<StoreHealth> {
    // connect() retries until it succeeds or close(); its failures are also 'error' events (watched).
    this.client.connect().catch(() => {});
    this.sub.connect().catch(() => {});
    this.timer = setInterval(() => void this.beat(), Math.max(1, Math.floor(this.heartbeatMs / 3)));
    this.timer.unref();
    await this.state.whenUp(waitMs);
    return this.state.value;
  }

  /** The last error node-redis or a command reported, for logs (the URL's password is never in it). */
  get lastError(): string {
    return this.error;
  }

  get health(): StoreHealth {
    return this.state.value;
  }

  onHealth(listener: (health: StoreHealth) => void): () => void {
    return this.state.onChange(listener);
  }

  async sharedKey(): Promise<{ key: Buffer; keyId: string }> {
    if (this.key !== undefined) return this.key;
    let key: Buffer;
    if (this.options.stateKey !== undefined) {
      // The same derivation as router/request-state.ts's stateKey(): a configured key wins.
      key = createHash('sha256').update(this.options.stateKey).digest();
    } else {
      const hex = await this.call(async () => {
        await this.client.sendCommand(['SET', this.keys.sharedKey, randomBytes(32).toString('hex'), 'NX']);
        return this.client.sendCommand(['GET', this.keys.sharedKey]);
      });
      // Anything but the 32 bytes this store writes (hand-edited, another program's key) signs nothing.
      if (typeof hex !== 'string' || !/^[0-9a-f]{64}$/.test(hex)) throw new Error(`${this.keys.sharedKey} in Redis is not a key this gateway wrote: delete it, or set listen.stateKey`);
      key = Buffer.from(hex, 'hex');
    }
    this.key = { key, keyId: createHash('sha256').update(key).digest('hex').slice(0, 12) };
    return this.key;
  }

  /** Where per-user credentials live with this store: its connection, its key prefix, its guard. */
  credentialBackend(): RedisCredentialBackend {
    return new RedisCredentialBackend(this.client, this.keys.base, (op) => this.call(op), { signal: (t) => this.signal(t), listen: (t, l) => this.listen(t, l) });
  }

  async putSession(record: SessionRecord, ttlMs: number): Promise<void> {
    const { id } = record;
    const keys = [this.keys.record(id), this.keys.holder(record.holder), this.keys.events(id), this.keys.claims(id)];
    await this.call(() => this.run(PUT, keys, [ttlMs, id, this.keys.holderPrefix, ...recordFields(record)]));
  }

  async getSession(id: string): Promise<SessionRecord | undefined> {
    return recordOf(id, await this.call(() => this.client.hGetAll(this.keys.record(id))));
  }

  async touchSession(id: string, ttlMs: number): Promise<boolean> {
    const keys = [this.keys.record(id), this.keys.events(id), this.keys.claims(id)];
    return (await this.call(() => this.run(TOUCH, keys, [ttlMs, id, this.keys.holderPrefix]))) === 1;
  }

  async patchSession(id: string, patch: Partial<SessionRecord>): Promise<void> {
    // A key set to undefined clears it: JSON would drop it, so it travels as null (redis-channels.ts reads it back).
    const message = JSON.stringify({ kind: 'patched', patch } satisfies SessionMessage, (_key, value) => (value === undefined ? null : value));
    const args = [this.keys.channel(id), message, id, this.keys.holderPrefix, ...recordFields(patch)];
    await this.call(() => this.run(PATCH, [this.keys.record(id)], args));
  }

  async deleteSession(id: string): Promise<void> {
    const keys = [this.keys.record(id), this.keys.events(id), this.keys.claims(id)];
    const ended = JSON.stringify({ kind: 'ended' } satisfies SessionMessage);
    await this.call(() => this.run(DELETE, keys, [id, this.keys.holderPrefix, this.keys.channel(id), ended]));
  }

  async countSessions(holder: string): Promise<number> {
    return Number(await this.call(() => this.run(COUNT, [this.keys.holder(holder)], [])));
  }

  async appendEvent(sessionId: string, stream: string, data: string): Promise<StoredEvent> {
    // The published message is built around the id only Redis knows: the script puts it in front.
    // The holders hear the event in full; the stream keeps its stand-in when it is too large.
    const tail = `"stream":${JSON.stringify(stream)},"data":${JSON.stringify(data)}}}`;
    const stored = keptForm(data, this.maxEventBytes);
    const keys = [this.keys.events(sessionId), this.keys.record(sessionId)];
    const args = [this.maxEvents, stream, stored, this.keys.channel(sessionId), tail, ORPHAN_TTL_MS];
    const id = await this.call(() => this.run(APPEND, keys, args));
    return { id: String(id), stream, data: stored };
  }

  async eventsAfter(sessionId: string, lastEventId: string): Promise<{ stream: string; events: StoredEvent[] } | undefined> {
    if (!ENTRY_ID.test(lastEventId)) return undefined;
    // From the event itself (inclusive): it tells its stream, and that it is still kept.
    const entries = (await this.call(() => this.client.xRange(this.keys.events(sessionId), lastEventId, '+'))) ?? [];
    const first = entries[0];
    if (first === undefined || first.id !== lastEventId) return undefined;
    const stream = String(first.message.s);
    const events: StoredEvent[] = [];
    for (const entry of entries.slice(1)) {
      if (entry.message.s === stream) events.push({ id: entry.id, stream, data: String(entry.message.d ?? '') });
    }
    return { stream, events };
  }

  async publish(sessionId: string, message: SessionMessage): Promise<void> {
    await this.call(() => this.client.publish(this.keys.channel(sessionId), JSON.stringify(message)));
  }

  subscribe(sessionId: string, listener: (message: SessionMessage) => void): Promise<() => void> {
    return this.pubsub.subscribe(sessionId, listener);
  }

  async claimCall(sessionId: string, stream: string, requestId: string | number): Promise<void> {
    const claim = JSON.stringify({ replica: this.replicaId, requestId } satisfies Claim);
    await this.call(() => this.run(CLAIM, [this.keys.claims(sessionId), this.keys.record(sessionId)], [stream, claim, ORPHAN_TTL_MS]));
  }

  async settleCall(sessionId: string, stream: string): Promise<boolean> {
    return (await this.call(() => this.client.hDel(this.keys.claims(sessionId), stream))) === 1;
  }

  async callClaim(sessionId: string, stream: string): Promise<Claim | undefined> {
    return claimOf(await this.call(() => this.client.hGet(this.keys.claims(sessionId), stream)));
  }

  async isAlive(replicaId: string): Promise<boolean> {
    if (replicaId === this.replicaId) return true;
    return (await this.call(() => this.client.exists(this.keys.heartbeat(replicaId)))) === 1;
  }

  liveReplicas(): number {
    return this.live;
  }

  async takeOnce(key: string, ttlMs: number): Promise<boolean> {
    return (await this.call(() => this.client.set(this.keys.value(key), '1', { condition: 'NX', expiration: { type: 'PX', value: Math.max(1, Math.ceil(ttlMs)) } }))) === 'OK';
  }

  async putValue(key: string, value: string, ttlMs: number): Promise<void> {
    await this.call(() => this.client.set(this.keys.value(key), value, { expiration: { type: 'PX', value: Math.max(1, Math.ceil(ttlMs)) } }));
  }

  async takeValue(key: string): Promise<string | undefined> {
    const value = await this.call(() => this.client.getDel(this.keys.value(key)));
    return typeof value === 'string' ? value : undefined;
  }

  async signal(topic: string): Promise<void> {
    // The payload is JSON because the channel reader parses it; listeners hear only that it came.
    await this.call(() => this.client.publish(this.keys.topic(topic), '{}'));
  }

  listen(topic: string, listener: () => void): Promise<() => void> {
    return this.topics.subscribe(topic, () => listener());
  }

  close(): Promise<void> {
    this.closed ??= this.shutdown();
    return this.closed;
  }

  private async shutdown(): Promise<void> {
    clearInterval(this.timer);
    if (this.health === 'up') {
      // Leave at once rather than when the heartbeat expires: others stop counting this replica.
      await this.client
        .multi()
        .del(this.keys.heartbeat(this.replicaId))
        .zRem(this.keys.replicas, this.replicaId)
        .exec()
        .catch(() => {});
    }
    this.pubsub.clear();
    this.topics.clear();
    await Promise.all([this.client, this.sub].map((c) => (c.isOpen ? c.close().catch(() => c.destroy()) : undefined)));
    this.state.setCommands(false);
    this.state.close();
  }

  /** Renews this replica's heartbeat and learns how many replicas are alive. */
  private async beat(): Promise<void> {
    // One heartbeat at a time: against a hung Redis they would pile up unanswered.
    if (this.closed !== undefined || !this.client.isReady || this.beating) return;
    this.beating = true;
    const sent = this.run(HEARTBEAT, [this.keys.heartbeat(this.replicaId), this.keys.replicas], [this.replicaId, this.heartbeatMs]);
    try {
      const live = await timed(sent, this.commandTimeoutMs);
      this.live = Math.max(1, Number(live));
      this.state.setHeartbeat(true);
      this.beating = false;
    } catch (err) {
      this.error = err instanceof Error ? err.message : String(err);
      if (!isCommandError(err)) this.state.setHeartbeat(false);
      // A late answer means Redis is back: up again without waiting for the next beat.
      sent.then(
        () => this.state.setHeartbeat(true),
        () => {},
      );
      void sent.finally(() => (this.beating = false)).catch(() => {});
    }
  }

  /** Runs `op` if the store is up; a failure to reach Redis becomes StoreDownError (an error reply about the command stays itself). */
  private async call<T>(op: () => Promise<T>): Promise<T> {
    if (this.state.value !== 'up') throw new StoreDownError(`the state store is unreachable (${this.error || 'not connected'})`);
    try {
      return await timed(op(), this.commandTimeoutMs);
    } catch (err) {
      if (isCommandError(err)) throw err;
      throw new StoreDownError(`the state store is unreachable (${err instanceof Error ? err.message : String(err)})`, { cause: err });
    }
  }

  private run(script: Script, keys: string[], args: (string | number)[]): Promise<unknown> {
    return runScript(this.client, script, keys, args);
  }
}
