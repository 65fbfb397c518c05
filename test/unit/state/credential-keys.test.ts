// The credentials keyring: keys from the environment and from a key file (and what is refused),
// sealing bound to its (user, server), key ids, and the token shape kept equal to outbound's.

import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { StoredTokens } from '../../../src/outbound/auth/token-store.js';
import { CredentialDecryptError, Keyring, loadKeyring, parseKey } from '../../../src/state/credential-keys.js';
import type { OAuthTokens } from '../../../src/state/credentials.js';
import { trackDir } from '../../helpers/processes.js';

const key = Buffer.alloc(32, 7);
const other = Buffer.alloc(32, 9);
const tmp = () => trackDir(mkdtempSync(path.join(os.tmpdir(), 'switchboard-keys-')));

describe('credential keys', () => {
  it('the OAuth tokens of a credential are the outbound StoredTokens', () => {
    // Checked by the compiler under `vitest --typecheck`; the plain run compares the declarations.
    expectTypeOf<OAuthTokens>().toEqualTypeOf<StoredTokens>();
    const fields = (file: string, name: string) => {
      const text = readFileSync(new URL(`../../../src/${file}`, import.meta.url), 'utf8');
      const body = text.slice(text.indexOf(`export interface ${name} {`)).split('\n}')[0]!;
      return body
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .split('\n')
        .slice(1)
        .map((l) => l.replace(/\/\/.*$/, '').trim())
        .filter((l) => l !== '');
    };
    expect(fields('state/credentials.ts', 'OAuthTokens')).toEqual(fields('outbound/auth/token-store.ts', 'StoredTokens'));
    expect(fields('state/credentials.ts', 'OAuthTokens').length).toBeGreaterThan(5);
  });

  it('takes 32 bytes as hex or base64, and nothing shorter or longer', () => {
    expect(parseKey(key.toString('hex'), 'x')).toEqual(key);
    expect(parseKey(key.toString('base64'), 'x')).toEqual(key);
    expect(parseKey(` ${key.toString('base64url')}\n`, 'x')).toEqual(key);
    expect(() => parseKey(Buffer.alloc(16).toString('hex'), 'ENV')).toThrow(/ENV: a credentials key is 32 bytes/);
    expect(() => parseKey(Buffer.alloc(33).toString('base64'), 'x')).toThrow(/32 bytes/);
    expect(() => parseKey('correct horse battery staple', 'x')).toThrow(/32 bytes/);
  });

  it('binds a record to its (user, server) unambiguously', () => {
    const ring = new Keyring(key);
    const sealed = ring.seal('a b', 'c', 'secret');
    expect(ring.open('a b', 'c', sealed)).toBe('secret');
    expect(() => ring.open('a', 'b c', sealed)).toThrow(CredentialDecryptError);
    expect(() => ring.open('a b', 'C', sealed)).toThrow(CredentialDecryptError);
    // A fresh nonce each time: the same secret sealed twice looks different.
    expect(ring.seal('a b', 'c', 'secret')).not.toBe(sealed);
    expect(sealed).not.toContain('secret');
    expect(() => ring.open('a b', 'c', 'not.a.sealed.record')).toThrow(CredentialDecryptError);
    expect(() => ring.open('a b', 'c', sealed.slice(0, -4))).toThrow(CredentialDecryptError);
  });

  it('says which key a record needs, by id, and never the key', () => {
    const ring = new Keyring(key, [other]);
    const sealed = ring.seal('u', 's', 'x');
    expect(Keyring.keyIdOf(sealed)).toBe(ring.currentId);
    expect(ring.ids).toEqual([ring.currentId, new Keyring(other).currentId]);
    expect(ring.currentId).not.toContain(key.toString('hex').slice(0, 8));
    expect(() => new Keyring(other).open('u', 's', sealed)).toThrow(new RegExp(`key ${ring.currentId}`));
  });

  it('reads the current and older keys from the environment', async () => {
    const env = { SWITCHBOARD_CREDENTIALS_KEY: key.toString('base64'), SWITCHBOARD_CREDENTIALS_OLD_KEYS: `${other.toString('hex')},` };
    const ring = await loadKeyring({ env, keyFile: '/nonexistent/key' });
    expect(ring.currentId).toBe(new Keyring(key).currentId);
    expect(ring.open('u', 's', new Keyring(other).seal('u', 's', 'old'))).toBe('old');
    await expect(loadKeyring({ env: { SWITCHBOARD_CREDENTIALS_KEY: 'short' } })).rejects.toThrow(/SWITCHBOARD_CREDENTIALS_KEY: a credentials key is 32 bytes/);
    await expect(loadKeyring({ env: {} })).rejects.toThrow(/no credentials key/);
  });

  it('reads a key file (current first, then older keys), and refuses one others can read', async () => {
    const file = path.join(tmp(), 'credentials.key');
    writeFileSync(file, `# comment\n${key.toString('base64')}\n\n${other.toString('hex')}\n`, { mode: 0o600 });
    const ring = await loadKeyring({ env: {}, keyFile: file });
    expect(ring.ids).toEqual(new Keyring(key, [other]).ids);
    chmodSync(file, 0o640);
    await expect(loadKeyring({ env: {}, keyFile: file })).rejects.toThrow(/readable only by its owner/);
    // The environment wins over the file.
    expect((await loadKeyring({ env: { SWITCHBOARD_CREDENTIALS_KEY: other.toString('hex') }, keyFile: file })).currentId).toBe(new Keyring(other).currentId);
  });

  it('makes a key file only when asked, and then the same one for every caller', async () => {
    const file = path.join(tmp(), 'deep', 'credentials.key');
    await expect(loadKeyring({ env: {}, keyFile: file })).rejects.toThrow(/ENOENT/);
    const [a, b] = await Promise.all([loadKeyring({ env: {}, keyFile: file, create: true }), loadKeyring({ env: {}, keyFile: file, create: true })]);
    expect(a.currentId).toBe(b.currentId);
    expect((await loadKeyring({ env: {}, keyFile: file })).currentId).toBe(a.currentId);
  });
});
