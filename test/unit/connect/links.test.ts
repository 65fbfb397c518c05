// Connect links: sealed so that any change to a token fails, dated so that a fake clock past the
// expiry refuses them, single use across two replicas (two MemoryStores sharing state), and opaque:
// the user id cannot be read out of the URL.

import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { issueLink, readLink, useLink } from '../../../src/connect/links.js';
import { Sealer } from '../../../src/connect/seal.js';
import { MemoryStore } from '../../../src/state/memory-store.js';

const key = randomBytes(32);
const sealer = new Sealer(key, 'link');
const BASE = 'https://gw.example.test';
const tokenOf = (url: string) => new URL(url).searchParams.get('l')!;

describe('connect links', () => {
  it('carry the user, server and elicitation, sealed: the user id is not in the URL', () => {
    const url = issueLink(sealer, BASE, 'alice@example.com', 'github', 'el-1', 2_000);
    expect(url.startsWith(`${BASE}/connect/github?l=`)).toBe(true);
    expect(url).not.toContain('alice');
    expect(Buffer.from(tokenOf(url), 'base64url').toString('latin1')).not.toContain('alice');
    const v = readLink(sealer, tokenOf(url), 'github', 1_000);
    expect(v).toMatchObject({ ok: true, claims: { u: 'alice@example.com', s: 'github', e: 'el-1', x: 2_000 } });
  });

  it('refuses any tampered token (property: every single-character change fails)', () => {
    const token = tokenOf(issueLink(sealer, BASE, 'alice', 'github', 'el', 10_000));
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    fc.assert(
      fc.property(fc.nat({ max: token.length - 1 }), fc.constantFrom(...alphabet), (i, c) => {
        fc.pre(token[i] !== c);
        const forged = token.slice(0, i) + c + token.slice(i + 1);
        // The last base64url character may carry only padding bits: changing those leaves the bytes as they were.
        fc.pre(!Buffer.from(forged, 'base64url').equals(Buffer.from(token, 'base64url')));
        expect(readLink(sealer, forged, 'github', 0)).toEqual({ ok: false, why: 'invalid' });
      }),
      { numRuns: 300 },
    );
    // Truncated, extended, or from another key or another purpose: invalid too.
    fc.assert(
      fc.property(fc.string(), (junk) => {
        expect(readLink(sealer, junk, 'github', 0).ok).toBe(false);
      }),
    );
    expect(readLink(sealer, token.slice(0, -4), 'github', 0).ok).toBe(false);
    expect(readLink(new Sealer(randomBytes(32), 'link'), token, 'github', 0).ok).toBe(false);
    expect(readLink(new Sealer(key, 'cookie'), token, 'github', 0).ok).toBe(false);
  });

  it('is bound to its server: the same token under another server path is refused', () => {
    const token = tokenOf(issueLink(sealer, BASE, 'alice', 'github', 'el', 10_000));
    expect(readLink(sealer, token, 'linear', 0)).toEqual({ ok: false, why: 'invalid' });
  });

  it('expires: a fake clock one millisecond past the expiry refuses it', () => {
    const token = tokenOf(issueLink(sealer, BASE, 'alice', 'github', 'el', 600_000));
    expect(readLink(sealer, token, 'github', 599_999).ok).toBe(true);
    expect(readLink(sealer, token, 'github', 600_000)).toEqual({ ok: false, why: 'expired' });
  });

  it('is used once across replicas: two stores sharing state, racing, let exactly one use it', async () => {
    let now = 1_000;
    const a = new MemoryStore({ now: () => now });
    const b = new MemoryStore({ now: () => now, shareWith: a });
    const opened = readLink(sealer, tokenOf(issueLink(sealer, BASE, 'alice', 'github', 'el', 60_000)), 'github', now);
    if (!opened.ok) throw new Error('the link did not open');
    const results = await Promise.all([useLink(a, opened.claims, now), useLink(b, opened.claims, now)]);
    expect(results.sort()).toEqual([false, true]);
    // Later still used, whichever replica is asked, up to and past the link's expiry.
    expect(await useLink(a, opened.claims, now)).toBe(false);
    now = 60_500;
    expect(await useLink(b, opened.claims, now)).toBe(false);
    // Another link for the same pair is a new one.
    const again = readLink(sealer, tokenOf(issueLink(sealer, BASE, 'alice', 'github', 'el', 120_000)), 'github', now);
    if (!again.ok) throw new Error('the link did not open');
    expect(await useLink(b, again.claims, now)).toBe(true);
  });

  it('is not used by being read: only a use spends it', async () => {
    const store = new MemoryStore({ now: () => 1_000 });
    const token = tokenOf(issueLink(sealer, BASE, 'alice', 'github', 'el', 60_000));
    for (let i = 0; i < 3; i++) expect(readLink(sealer, token, 'github', 1_000).ok).toBe(true);
    const opened = readLink(sealer, token, 'github', 1_000);
    if (!opened.ok) throw new Error('the link did not open');
    expect(await useLink(store, opened.claims, 1_000)).toBe(true);
  });
});
