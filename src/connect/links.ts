// Connect links (issue 33): `<publicUrl>/connect/<server>?l=<token>`, the token sealed (seal.ts)
// with the user, the server, the elicitation it answers, its expiry and a nonce. Single use: the
// first verified use takes the nonce in the StateStore, so no replica honours it twice.

import type { StateStore } from '../state/store.js';
import { nonce, type Sealer } from './seal.js';

export interface LinkClaims {
  /** The user the link is for (sealed: the URL does not show it). */
  readonly u: string;
  readonly s: string;
  /** The elicitationId of the request that asked. */
  readonly e: string;
  /** Expiry, epoch ms. */
  readonly x: number;
  readonly n: string;
}

export type LinkVerdict = { ok: true; claims: LinkClaims } | { ok: false; why: 'invalid' | 'expired' | 'used' };

export function issueLink(sealer: Sealer, base: string, user: string, server: string, elicitationId: string, expiresAt: number): string {
  const claims: LinkClaims = { u: user, s: server, e: elicitationId, x: expiresAt, n: nonce() };
  return `${base}/connect/${encodeURIComponent(server)}?l=${sealer.seal(claims)}`;
}

/** Opens a link's token for `server` without using it up. */
export function readLink(sealer: Sealer, token: string | undefined, server: string, now: number): LinkVerdict {
  const c = sealer.open<LinkClaims>(token);
  if (c === undefined || typeof c.u !== 'string' || c.s !== server || typeof c.x !== 'number' || typeof c.n !== 'string' || typeof c.e !== 'string') return { ok: false, why: 'invalid' };
  if (c.x <= now) return { ok: false, why: 'expired' };
  return { ok: true, claims: c };
}

/**
 * Uses up an opened link: true for the first use on any replica, false after. Called once the
 * browser is verified as the link's user, not when the link is first fetched: a chat unfurler or
 * a mail scanner that GETs every URL must not spend the user's link (it gets a login page).
 */
export async function useLink(store: StateStore, claims: LinkClaims, now: number): Promise<boolean> {
  // Kept a little past the link's expiry; after that the expiry alone refuses it.
  return store.takeOnce(`connect:link:${claims.n}`, Math.max(claims.x - now, 0) + 60_000);
}
