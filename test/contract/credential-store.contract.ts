// The CredentialStore contract, run on each backend (credential-store.test.ts): round trips,
// list, revoke, the attacks on sealed records (moved to another user, one byte changed, another
// key), rotation, single-flight refresh, and arbitrary names and secrets surviving a trip.

import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CredentialDecryptError, Keyring } from '../../src/state/credential-keys.js';
import { type Credential, type OAuthTokens, SealedCredentialStore, type SealedBackend } from '../../src/state/credentials.js';

export interface BackendHarness {
  /** A fresh, empty backend of its own. */
  open(): Promise<SealedBackend>;
  /** A second backend on the same records (another replica, another process). */
  peer(first: SealedBackend): Promise<SealedBackend>;
  /** Everything the backend has put where it keeps things (file bytes, Redis values), as text. */
  raw(first: SealedBackend): Promise<string>;
  /** Swaps two stored records as an attacker with write access but no key would. */
  swap(first: SealedBackend, a: [string, string], b: [string, string]): Promise<void>;
  /** Flips one byte of a record's ciphertext in place. */
  tamper(first: SealedBackend, user: string, server: string): Promise<void>;
}

export const newKey = () => randomBytes(32);

export const tokens = (accessToken: string): OAuthTokens => ({
  accessToken,
  refreshToken: `r-${accessToken}`,
  tokenType: 'Bearer',
  expiresAt: 2_000_000_000_000,
  scopes: ['repo'],
  issuer: 'https://as.example',
  resource: 'https://mcp.example/mcp',
  grant: 'authorization_code',
  obtainedAt: 1,
});

export function credentialStoreContract(name: string, harness: () => BackendHarness): void {
  describe(`CredentialStore contract: ${name}`, () => {
    const key = newKey();
    const store = async (keyring = new Keyring(key)) => {
      const backend = await harness().open();
      return { backend, store: new SealedCredentialStore(backend, keyring) };
    };

    it('puts, gets, lists and deletes, and keeps no secret in the clear', async () => {
      const h = harness();
      const backend = await h.open();
      const s = new SealedCredentialStore(backend, new Keyring(key), () => 1234);
      expect(await s.get('alice', 'github')).toBeUndefined();
      const oauth: Credential = { kind: 'oauth', tokens: tokens('alice-secret-token') };
      const secrets: Credential = { kind: 'secrets', values: { LINEAR_KEY: 'lin_api_bobsecret' } };
      expect(await s.put('alice', 'github', oauth)).toEqual({ credential: oauth, obtainedAt: 1234, updatedAt: 1234 });
      await s.put('bob', 'linear', secrets);
      await s.put('bob', 'github', { kind: 'oauth', tokens: tokens('bob-secret-token') });
      expect((await s.get('alice', 'github'))?.credential).toEqual(oauth);
      expect((await s.get('bob', 'linear'))?.credential).toEqual(secrets);
      expect(await s.get('alice', 'linear')).toBeUndefined();
      const keyId = new Keyring(key).currentId;
      const pairs = (l: { user: string; server: string }[]) => l.map((e) => `${e.user}/${e.server}`).sort();
      expect(pairs(await s.list())).toEqual(['alice/github', 'bob/github', 'bob/linear']);
      expect(pairs(await s.list('bob'))).toEqual(['bob/github', 'bob/linear']);
      expect((await s.list()).every((e) => e.keyId === keyId && !('credential' in e))).toBe(true);
      const raw = await h.raw(backend);
      for (const secret of ['alice-secret-token', 'lin_api_bobsecret', 'bob-secret-token', 'LINEAR_KEY', 'Bearer']) expect(raw).not.toContain(secret);
      // A peer (another replica or process) sees the same records.
      const peer = new SealedCredentialStore(await h.peer(backend), new Keyring(key));
      expect((await peer.get('bob', 'linear'))?.credential).toEqual(secrets);
      expect(await s.delete('bob', 'linear')).toBe(true);
      expect(await s.delete('bob', 'linear')).toBe(false);
      expect(await peer.get('bob', 'linear')).toBeUndefined();
      expect(pairs(await peer.list('bob'))).toEqual(['bob/github']);
      await s.close();
    });

    it('a stored credential moved to another user does not decrypt', async () => {
      const h = harness();
      const backend = await h.open();
      const s = new SealedCredentialStore(backend, new Keyring(key));
      await s.put('alice', 'github', { kind: 'oauth', tokens: tokens('alice-token') });
      await s.put('mallory', 'github', { kind: 'oauth', tokens: tokens('mallory-token') });
      await s.put('alice', 'linear', { kind: 'secrets', values: { K: 'alice-linear' } });
      await h.swap(backend, ['alice', 'github'], ['mallory', 'github']);
      // Mallory, able to write the file or Redis but without the key, swapped the records: neither opens.
      await expect(s.get('mallory', 'github')).rejects.toThrow(CredentialDecryptError);
      await expect(s.get('alice', 'github')).rejects.toThrow(CredentialDecryptError);
      // Nor does a record moved to another server of the same user.
      await h.swap(backend, ['alice', 'github'], ['alice', 'linear']);
      await expect(s.get('alice', 'linear')).rejects.toThrow(CredentialDecryptError);
      await expect(s.get('alice', 'github')).rejects.toThrow(CredentialDecryptError);
    });

    it('a record with one byte changed does not decrypt', async () => {
      const h = harness();
      const backend = await h.open();
      const s = new SealedCredentialStore(backend, new Keyring(key));
      await s.put('alice', 'github', { kind: 'secrets', values: { TOKEN: 'ghp_alice' } });
      await h.tamper(backend, 'alice', 'github');
      await expect(s.get('alice', 'github')).rejects.toThrow(CredentialDecryptError);
    });

    it('a record opens only with its key', async () => {
      const { backend, store: s } = await store();
      await s.put('alice', 'github', { kind: 'secrets', values: { TOKEN: 'ghp_alice' } });
      const other = new SealedCredentialStore(backend, new Keyring(newKey()));
      await expect(other.get('alice', 'github')).rejects.toThrow(/does not hold/);
      // Same id, different bytes (a keyring faked to claim the id) cannot happen: the id is the key's hash.
      expect(new Keyring(newKey()).currentId).not.toBe(new Keyring(key).currentId);
    });

    it('rotates: older keys still open, rotate re-seals everything under the current key', async () => {
      const oldKey = newKey();
      const { backend, store: before } = await store(new Keyring(oldKey));
      for (const user of ['alice', 'bob', 'carol']) await before.put(user, 'github', { kind: 'secrets', values: { TOKEN: `t-${user}` } });
      const nextKey = newKey();
      const during = new SealedCredentialStore(backend, new Keyring(nextKey, [oldKey]));
      expect((await during.get('bob', 'github'))?.credential).toEqual({ kind: 'secrets', values: { TOKEN: 't-bob' } });
      // A put during the rotation period is sealed with the new key already.
      await during.put('dave', 'github', { kind: 'secrets', values: { TOKEN: 't-dave' } });
      expect(await during.rotate()).toEqual({ rotated: 3, failed: [] });
      expect(await during.rotate()).toEqual({ rotated: 0, failed: [] });
      expect(new Set((await during.list()).map((e) => e.keyId))).toEqual(new Set([new Keyring(nextKey).currentId]));
      // The old key can now be dropped.
      const after = new SealedCredentialStore(backend, new Keyring(nextKey));
      for (const user of ['alice', 'bob', 'carol', 'dave']) expect((await after.get(user, 'github'))?.credential).toEqual({ kind: 'secrets', values: { TOKEN: `t-${user}` } });
      await expect(before.get('alice', 'github')).rejects.toThrow(CredentialDecryptError);
    });

    it('rotation reports records no key opens and leaves them be', async () => {
      const h = harness();
      const backend = await h.open();
      const s = new SealedCredentialStore(backend, new Keyring(key));
      await s.put('alice', 'github', { kind: 'secrets', values: { TOKEN: 'a' } });
      await s.put('bob', 'github', { kind: 'secrets', values: { TOKEN: 'b' } });
      await h.tamper(backend, 'bob', 'github');
      const rotating = new SealedCredentialStore(backend, new Keyring(newKey(), [key]));
      expect(await rotating.rotate()).toEqual({ rotated: 1, failed: [{ user: 'bob', server: 'github' }] });
      expect((await rotating.get('alice', 'github'))?.credential).toEqual({ kind: 'secrets', values: { TOKEN: 'a' } });
    });

    it('runs 10 concurrent refreshes of one pair once, and each pair on its own', async () => {
      let now = 100;
      const backend = await harness().open();
      const s = new SealedCredentialStore(backend, new Keyring(key), () => now);
      await s.put('alice', 'github', { kind: 'oauth', tokens: tokens('old') });
      await s.put('bob', 'github', { kind: 'oauth', tokens: tokens('bob-old') });
      now = 200;
      let runs = 0;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const doRefresh = async (current: { credential: Credential } | undefined) => {
        runs++;
        await gate;
        expect(current?.credential).toEqual({ kind: 'oauth', tokens: tokens('old') });
        return { kind: 'oauth', tokens: tokens('new') } as const;
      };
      const all = Array.from({ length: 10 }, () => s.refresh('alice', 'github', doRefresh));
      const bobs = s.refresh('bob', 'github', async () => ({ kind: 'oauth', tokens: tokens('bob-new') }));
      release();
      const results = await Promise.all(all);
      expect(runs).toBe(1);
      for (const r of results) expect(r).toEqual({ credential: { kind: 'oauth', tokens: tokens('new') }, obtainedAt: 100, updatedAt: 200 });
      expect((await bobs).credential).toEqual({ kind: 'oauth', tokens: tokens('bob-new') });
      expect((await s.get('alice', 'github'))?.credential).toEqual({ kind: 'oauth', tokens: tokens('new') });
      // Once settled, the next refresh runs again; a failed one reaches every caller and stores nothing.
      const failing = () => Promise.reject(new Error('invalid_grant'));
      const twice = [s.refresh('alice', 'github', failing), s.refresh('alice', 'github', failing)];
      for (const r of twice) await expect(r).rejects.toThrow('invalid_grant');
      expect((await s.get('alice', 'github'))?.credential).toEqual({ kind: 'oauth', tokens: tokens('new') });
      await s.refresh('alice', 'github', async () => ({ kind: 'oauth', tokens: tokens('newer') }));
      expect((await s.get('alice', 'github'))?.credential).toEqual({ kind: 'oauth', tokens: tokens('newer') });
    });

    it("tells a watcher of every change, its own and another process's, and stops when told", async () => {
      const h = harness();
      const first = await h.open();
      const mine = new SealedCredentialStore(first, new Keyring(key));
      const theirs = new SealedCredentialStore(await h.peer(first), new Keyring(key));
      let heard = 0;
      let wake: (() => void) | undefined;
      const next = () => new Promise<void>((resolve) => (wake = resolve));
      const stop = mine.watch(() => {
        heard++;
        wake?.();
      });
      let change = next();
      await mine.put('alice', 'github', { kind: 'secrets', values: { TOKEN: 'a' } });
      await change;
      // Another process (the CLI revoking, another replica's connect): heard through the backend.
      change = next();
      await theirs.delete('alice', 'github');
      await change;
      expect(heard).toBeGreaterThanOrEqual(2);
      stop();
      const before = heard;
      await mine.put('bob', 'github', { kind: 'secrets', values: { TOKEN: 'b' } });
      expect(heard).toBe(before);
      await theirs.close();
    });

    it('round-trips any user name, server name and secret values', async () => {
      const backend = await harness().open();
      const s = new SealedCredentialStore(backend, new Keyring(key));
      const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 });
      await fc.assert(
        fc.asyncProperty(text, text, fc.dictionary(fc.string({ unit: 'grapheme', maxLength: 20 }), fc.string({ unit: 'grapheme' }), { maxKeys: 4 }), async (user, server, values) => {
          await s.put(user, server, { kind: 'secrets', values });
          expect((await s.get(user, server))?.credential).toEqual({ kind: 'secrets', values });
          expect((await s.list(user)).some((e) => e.user === user && e.server === server)).toBe(true);
          expect(await s.delete(user, server)).toBe(true);
          expect(await s.get(user, server)).toBeUndefined();
        }),
        { numRuns: 40 },
      );
    });
  });
}
