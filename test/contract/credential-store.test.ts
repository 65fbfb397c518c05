// The CredentialStore contract on both backends: the credentials file (real files in a temp dir)
// and the scale-out store's Redis (a real redis-server, through RedisStore's own connection). Then
// what only the file has (permissions, a corrupt file) and what only Redis has (the layout).

import { createClient } from '@redis/client';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileCredentialBackend } from '../../src/state/credential-file.js';
import { Keyring } from '../../src/state/credential-keys.js';
import type { CredentialRecord, SealedBackend } from '../../src/state/credentials.js';
import { SealedCredentialStore } from '../../src/state/credentials.js';
import { openCredentialStore } from '../../src/state/open-credentials.js';
import { RedisStore } from '../../src/state/redis-store.js';
import { cleanup, trackDir } from '../helpers/processes.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { credentialStoreContract, newKey, tokens } from './credential-store.contract.js';

const tmp = () => trackDir(mkdtempSync(path.join(os.tmpdir(), 'switchboard-creds-')));

/** Flips a bit in the middle of the ciphertext part of a sealed record. */
function flipped(sealed: string): string {
  const parts = sealed.split('.');
  const body = Buffer.from(parts[3]!, 'base64url');
  body[Math.floor(body.length / 2)]! ^= 0x01;
  parts[3] = body.toString('base64url');
  return parts.join('.');
}

type Triple = [string, string, string];
const fileOf = (b: SealedBackend) => (b as FileCredentialBackend).path;
const readTriples = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { records: Triple[] }).records;
const writeTriples = (file: string, records: Triple[]) => writeFileSync(file, JSON.stringify({ version: 1, records }));
const find = (records: Triple[], u: string, s: string) => records.find((r) => r[0] === u && r[1] === s)!;

credentialStoreContract('file', () => ({
  open: async () => new FileCredentialBackend(path.join(tmp(), 'state', 'credentials.json')),
  peer: async (first) => new FileCredentialBackend(fileOf(first)),
  raw: async (first) => readFileSync(fileOf(first), 'utf8'),
  swap: async (first, [ua, sa], [ub, sb]) => {
    const records = readTriples(fileOf(first));
    const a = find(records, ua, sa);
    const b = find(records, ub, sb);
    [a[2], b[2]] = [b[2], a[2]];
    writeTriples(fileOf(first), records);
  },
  tamper: async (first, user, server) => {
    const records = readTriples(fileOf(first));
    const r = find(records, user, server);
    r[2] = flipped(r[2]);
    writeTriples(fileOf(first), records);
  },
}));

let redis: RedisServer;
let raw: ReturnType<typeof createClient>;
const stores: RedisStore[] = [];
beforeAll(async () => {
  redis = await startRedis();
  raw = createClient({ url: redis.url });
  await raw.connect();
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await raw?.close();
  await cleanup();
});

let prefixes = 0;
async function redisStore(keyPrefix: string): Promise<RedisStore> {
  const store = new RedisStore({ url: redis.url, keyPrefix, commandTimeoutMs: 1000 });
  stores.push(store);
  expect(await store.start(5000)).toBe('up');
  return store;
}
const prefixOf = new WeakMap<SealedBackend, string>();
const hashOf = (b: SealedBackend, user: string) => `sb:${prefixOf.get(b)}:u:${user}`;

credentialStoreContract('redis', () => ({
  open: async () => {
    const prefix = `c${++prefixes}`;
    const backend = (await redisStore(prefix)).credentialBackend();
    prefixOf.set(backend, prefix);
    return backend;
  },
  peer: async (first) => (await redisStore(prefixOf.get(first)!)).credentialBackend(),
  raw: async (first) => {
    // Everything the backend writes is under u: (the session store's own keys are other types).
    const keys = await raw.keys(`sb:${prefixOf.get(first)}:u:*`);
    expect(keys.length).toBeGreaterThan(0);
    const values = await Promise.all(keys.map(async (k) => JSON.stringify(await raw.hGetAll(k))));
    return keys.join('\n') + values.join('\n');
  },
  swap: async (first, [ua, sa], [ub, sb]) => {
    const a = (await raw.hGet(hashOf(first, ua), sa))!;
    const b = (await raw.hGet(hashOf(first, ub), sb))!;
    await raw.hSet(hashOf(first, ua), sa, b);
    await raw.hSet(hashOf(first, ub), sb, a);
  },
  tamper: async (first, user, server) => {
    const sealed = (await raw.hGet(hashOf(first, user), server))!;
    await raw.hSet(hashOf(first, user), server, flipped(sealed));
  },
}));

describe('the file backend only', () => {
  it('writes the file 0600 in a 0700 directory, and tightens a file others can read', async () => {
    const dir = tmp();
    const file = path.join(dir, 'state', 'credentials.json');
    const s = new SealedCredentialStore(new FileCredentialBackend(file), new Keyring(newKey()));
    await s.put('alice', 'github', { kind: 'secrets', values: { TOKEN: 'x' } });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    const { chmodSync } = await import('node:fs');
    chmodSync(file, 0o644);
    await s.get('alice', 'github');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses a file that does not parse rather than writing over every credential', async () => {
    const file = path.join(tmp(), 'credentials.json');
    writeFileSync(file, '{"version":1,"records":[', { mode: 0o600 });
    const s = new SealedCredentialStore(new FileCredentialBackend(file), new Keyring(newKey()));
    await expect(s.put('alice', 'github', { kind: 'secrets', values: { TOKEN: 'x' } })).rejects.toThrow();
    expect(readFileSync(file, 'utf8')).toBe('{"version":1,"records":[');
  });

  it('openCredentialStore makes a 0600 key file beside the data on first start, and uses it after', async () => {
    const file = path.join(tmp(), 'sw', 'credentials.json');
    const first = await openCredentialStore({ file, createKey: true, env: {} });
    await first.put('alice', 'github', { kind: 'secrets', values: { TOKEN: 'x' } });
    const keyFile = path.join(path.dirname(file), 'credentials.key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const second = await openCredentialStore({ file, env: {} });
    expect((await second.get('alice', 'github'))?.credential).toEqual({ kind: 'secrets', values: { TOKEN: 'x' } });
  });
});

describe('the Redis backend only', () => {
  it('keeps one hash per user in the store (no expiry), and openCredentialStore picks it with state.redis', async () => {
    const store = await redisStore('layout');
    const creds = await openCredentialStore({ store, env: { SWITCHBOARD_CREDENTIALS_KEY: newKey().toString('base64') }, file: path.join(tmp(), 'unused.json') });
    await creds.put('alice', 'github', { kind: 'secrets', values: { TOKEN: 'x' } });
    await creds.put('alice', 'linear', { kind: 'secrets', values: { TOKEN: 'y' } });
    expect(await raw.hLen('sb:layout:u:alice')).toBe(2);
    expect(await raw.ttl('sb:layout:u:alice')).toBe(-1);
    await creds.delete('alice', 'github');
    await creds.delete('alice', 'linear');
    expect(await raw.exists('sb:layout:u:alice')).toBe(0);
  });

  it('replicas take turns refreshing a pair, and the later ones find it fresh', async () => {
    const keyring = new Keyring(newKey());
    const [a, b] = [await redisStore('turns'), await redisStore('turns')].map((s) => new SealedCredentialStore(s.credentialBackend(), keyring));
    await a!.put('alice', 'github', { kind: 'oauth', tokens: tokens('old') });
    let runs = 0;
    let inside = 0;
    let most = 0;
    const doRefresh = async (current: CredentialRecord | undefined) => {
      if (current?.credential.kind === 'oauth' && current.credential.tokens.accessToken !== 'old') return current.credential;
      runs++;
      most = Math.max(most, ++inside);
      await new Promise((r) => setTimeout(r, 100));
      inside--;
      return { kind: 'oauth', tokens: tokens('new') } as const;
    };
    const results = await Promise.all([...Array.from({ length: 5 }, () => a!.refresh('alice', 'github', doRefresh)), ...Array.from({ length: 5 }, () => b!.refresh('alice', 'github', doRefresh))]);
    expect(runs).toBe(1);
    expect(most).toBe(1);
    for (const r of results) expect(r.credential).toEqual({ kind: 'oauth', tokens: tokens('new') });
    expect(await raw.keys('sb:turns:ul:*')).toEqual([]);
  });

  it('never makes a key of its own: replicas must share one', async () => {
    const store = await redisStore('nokey');
    await expect(openCredentialStore({ store, env: {}, file: path.join(tmp(), 'x.json'), createKey: true })).rejects.toThrow();
  });
});
