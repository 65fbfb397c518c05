// Per-user credentials in the scale-out store's Redis (state.redis), so every replica sees a user's
// connect: one hash per user (`sb:<prefix>:u:<user>`, field = server, value = a sealed record) on
// the RedisStore's own connection. Only sealed strings reach Redis.

import { randomBytes } from 'node:crypto';
import type { Sealed } from './credential-keys.js';
import type { SealedBackend } from './credentials.js';
import { type Client, runScript } from './redis-connection.js';
import { Script } from './redis-scripts.js';

/** HSET only while the field still holds what was read: a rotation never undoes a newer put. */
const REPLACE = new Script('credential-replace', "if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) return 1 end return 0");

/** DEL only while the lock is still this holder's: one that outlived its TTL must not free the next holder's. */
const UNLOCK = new Script('credential-unlock', "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0");

/** Longer than any token endpoint should take; a replica that dies holding the lock blocks others this long at most. */
const LOCK_TTL_MS = 30_000;
const LOCK_POLL_MS = 50;

/** The topic of "some credential changed" (no user or server in it: a listener rereads what it holds). */
const CHANGED_TOPIC = 'credentials-changed';

/** A Redis glob matching `text` literally. */
const literal = (text: string) => text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);

export class RedisCredentialBackend implements SealedBackend {
  private readonly prefix: string;
  private readonly lockPrefix: string;

  /**
   * `base` is the store's "sb:" + keyPrefix; `call` is the store's guard (StoreDownError while
   * Redis is away, a deadline on each answer). Closing is the store's business, not this backend's.
   */
  constructor(
    private readonly client: Client,
    base: string,
    private readonly call: <T>(op: () => Promise<T>) => Promise<T>,
    /** The store's topic signals: every replica hears that a record changed (revoked by the CLI, say). */
    private readonly topics?: { signal(topic: string): Promise<void>; listen(topic: string, listener: () => void): Promise<() => void> },
  ) {
    this.prefix = `${base}u:`;
    this.lockPrefix = `${base}ul:`;
  }

  async read(user: string, server: string): Promise<Sealed | undefined> {
    return (await this.call(() => this.client.hGet(this.prefix + user, server))) ?? undefined;
  }

  async write(user: string, server: string, sealed: Sealed): Promise<void> {
    await this.call(() => this.client.hSet(this.prefix + user, server, sealed));
    this.announce();
  }

  async remove(user: string, server: string): Promise<boolean> {
    // The last field gone, Redis drops the hash: no empty user is left behind.
    const removed = (await this.call(() => this.client.hDel(this.prefix + user, server))) === 1;
    if (removed) this.announce();
    return removed;
  }

  async entries(user?: string): Promise<{ user: string; server: string; sealed: Sealed }[]> {
    const keys = user === undefined ? await this.userKeys() : [this.prefix + user];
    const out: { user: string; server: string; sealed: Sealed }[] = [];
    for (const key of keys) {
      const fields = await this.call(() => this.client.hGetAll(key));
      for (const [server, sealed] of Object.entries(fields)) out.push({ user: key.slice(this.prefix.length), server, sealed });
    }
    return out;
  }

  async replace(user: string, server: string, expected: Sealed, next: Sealed): Promise<boolean> {
    const replaced = (await this.call(() => runScript(this.client, REPLACE, [this.prefix + user], [server, expected, next]))) === 1;
    if (replaced) this.announce();
    return replaced;
  }

  watch(listener: () => void): () => void {
    const listening = this.topics?.listen(CHANGED_TOPIC, listener).catch(() => undefined);
    return () => void listening?.then((stop) => stop?.());
  }

  /** Tells every replica a record changed (best effort: a replica that misses it rereads on its next open). */
  private announce(): void {
    void this.topics?.signal(CHANGED_TOPIC).catch(() => undefined);
  }

  async lock(user: string, server: string): Promise<() => Promise<void>> {
    // The pair as JSON: no user or server name can make two pairs share a lock.
    const key = `${this.lockPrefix}${JSON.stringify([user, server])}`;
    const token = randomBytes(12).toString('hex');
    const deadline = Date.now() + LOCK_TTL_MS;
    // Polled, not blocking: a blocking wait would hold the shared connection for everyone.
    while ((await this.call(() => this.client.set(key, token, { condition: 'NX', expiration: { type: 'PX', value: LOCK_TTL_MS } }))) !== 'OK') {
      if (Date.now() > deadline) throw new Error(`the credential of ${JSON.stringify(user)} for ${JSON.stringify(server)} stayed locked for a refresh elsewhere`);
      await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
    }
    return async () => {
      await this.call(() => runScript(this.client, UNLOCK, [key], [token]));
    };
  }

  async close(): Promise<void> {}

  /** Every user's hash, by SCAN (never KEYS: it would block Redis for every replica). */
  private async userKeys(): Promise<string[]> {
    const found = new Set<string>();
    let cursor = '0';
    do {
      const reply = (await this.call(() => this.client.sendCommand(['SCAN', cursor, 'MATCH', `${literal(this.prefix)}*`, 'COUNT', '200']))) as [string, string[]];
      cursor = String(reply[0]);
      // SCAN may return a key twice; a set keeps each user once.
      for (const key of reply[1]) found.add(String(key));
    } while (cursor !== '0');
    return [...found];
  }
}
