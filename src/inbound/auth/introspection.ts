// Opaque tokens: RFC 7662 introspection at the AS, authenticated with our client credentials.
// Active answers are cached by the token's SHA-256 (never the token itself) for a short time and
// never past the token's `exp`; the cache is bounded. The audience must name us.

import { createHash } from 'node:crypto';
import type { Claims, FetchLike, InboundAuthConfig } from './types.js';
import type { VerifyOutcome } from './jwt.js';

const MAX_ENTRIES = 10_000;

export function createIntrospector(config: NonNullable<InboundAuthConfig['introspection']>, issuer: string, audience: string[], fetchFn: FetchLike, now: () => number = Date.now) {
  const cache = new Map<string, { claims: Claims; until: number }>();
  const ttl = config.cacheMs ?? 30_000;
  const basic = Buffer.from(`${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`).toString('base64');
  return async (token: string): Promise<VerifyOutcome> => {
    const key = createHash('sha256').update(token).digest('base64url');
    const hit = cache.get(key);
    if (hit && hit.until > now()) return { ok: true, claims: hit.claims };
    if (hit) cache.delete(key);
    let body: Record<string, unknown>;
    try {
      const res = await fetchFn(config.url, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) {
        await res.body?.cancel();
        return { ok: false, kind: 'unavailable', reason: `introspection answered HTTP ${res.status}` };
      }
      body = (await res.json()) as Record<string, unknown>;
    } catch (err) {
      return { ok: false, kind: 'unavailable', reason: `introspection failed: ${(err as Error).name}` };
    }
    if (body.active !== true) return { ok: false, kind: 'invalid', reason: 'token is not active' };
    if (body.iss !== undefined && body.iss !== issuer) return { ok: false, kind: 'invalid', reason: 'token is from another issuer' };
    const aud = typeof body.aud === 'string' ? [body.aud] : Array.isArray(body.aud) ? body.aud : [];
    if (!aud.some((a) => audience.includes(a as string))) return { ok: false, kind: 'invalid', reason: 'token is not for this resource' };
    const exp = typeof body.exp === 'number' ? body.exp * 1000 : undefined;
    if (exp !== undefined && exp <= now()) return { ok: false, kind: 'invalid', reason: 'token expired' };
    const claims = body as Claims;
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, { claims, until: Math.min(now() + ttl, exp ?? Infinity) });
    return { ok: true, claims };
  };
}
