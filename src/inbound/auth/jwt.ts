// JWT access-token verification with jose: the signature against the issuer's JWKS (found in the
// issuer's metadata when no jwksUrl is configured; jose caches keys and refetches on an unknown
// `kid`), then `iss`, `aud`, `exp`/`nbf` with clock skew. Errors are sorted into "the token is
// bad" (401) and "we could not check it" (503) and never carry the token.

import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { Claims, FetchLike, InboundAuthConfig } from './types.js';

export type VerifyOutcome = { ok: true; claims: Claims } | { ok: false; kind: 'invalid'; reason: string } | { ok: false; kind: 'unavailable'; reason: string };

const DEFAULT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

/** Metadata URLs for an issuer in the MCP order (RFC 8414 path insertion, then OIDC). */
export function issuerMetadataUrls(issuer: string): string[] {
  const u = new URL(issuer);
  const path = u.pathname.replace(/\/$/, '');
  if (!path) return [`${u.origin}/.well-known/oauth-authorization-server`, `${u.origin}/.well-known/openid-configuration`];
  return [`${u.origin}/.well-known/oauth-authorization-server${path}`, `${u.origin}/.well-known/openid-configuration${path}`, `${u.origin}${path}/.well-known/openid-configuration`];
}

export class JwksUnavailable extends Error {}

/** jwks_uri from the issuer's metadata; the document's issuer must be ours exactly. */
export async function discoverJwksUri(issuer: string, fetchFn: FetchLike): Promise<string> {
  for (const url of issuerMetadataUrls(issuer)) {
    let res: Response;
    try {
      res = await fetchFn(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
    } catch (err) {
      throw new JwksUnavailable(`issuer metadata unreachable: ${(err as Error).message}`);
    }
    if (!res.ok) {
      await res.body?.cancel();
      continue;
    }
    const doc = (await res.json().catch(() => ({}))) as { issuer?: unknown; jwks_uri?: unknown };
    if (doc.issuer !== issuer) throw new JwksUnavailable('issuer metadata names another issuer');
    if (typeof doc.jwks_uri !== 'string') throw new JwksUnavailable('issuer metadata has no jwks_uri');
    return doc.jwks_uri;
  }
  throw new JwksUnavailable('no issuer metadata found');
}

export function createJwtVerifier(config: InboundAuthConfig, audience: string[], fetchFn: FetchLike) {
  let keys: Promise<JWTVerifyGetKey> | undefined;
  const getKeys = () => {
    keys ??= (config.jwksUrl ? Promise.resolve(config.jwksUrl) : discoverJwksUri(config.issuer, fetchFn)).then((uri) =>
      createRemoteJWKSet(new URL(uri), { timeoutDuration: 10_000, cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 }),
    );
    keys.catch(() => (keys = undefined)); // a failed discovery is retried on the next request
    return keys;
  };
  return async (token: string, now?: Date): Promise<VerifyOutcome> => {
    let jwks: JWTVerifyGetKey;
    try {
      jwks = await getKeys();
    } catch (err) {
      return { ok: false, kind: 'unavailable', reason: (err as Error).message };
    }
    try {
      const { payload } = await jwtVerify(token, jwks, {
        issuer: config.issuer,
        audience,
        clockTolerance: config.clockToleranceSec ?? 60,
        algorithms: config.algorithms ?? DEFAULT_ALGORITHMS,
        ...(now ? { currentDate: now } : {}),
      });
      return { ok: true, claims: payload as Claims };
    } catch (err) {
      if (TOKEN_FAULTS.some((E) => err instanceof E)) return { ok: false, kind: 'invalid', reason: describe(err as errors.JOSEError) };
      // Anything else (JWKS fetch failed, timed out, bad key set) is ours to fix, not the client's.
      return { ok: false, kind: 'unavailable', reason: 'signing keys unavailable' };
    }
  };
}

/** Failures that mean the presented token is bad. */
const TOKEN_FAULTS = [
  errors.JWTExpired,
  errors.JWTClaimValidationFailed,
  errors.JWSSignatureVerificationFailed,
  errors.JWKSNoMatchingKey,
  errors.JWKSMultipleMatchingKeys,
  errors.JWSInvalid,
  errors.JWTInvalid,
  errors.JOSEAlgNotAllowed,
  errors.JOSENotSupported,
];

function describe(err: errors.JOSEError): string {
  if (err instanceof errors.JWTExpired) return 'token expired';
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'aud') return 'token is not for this resource';
    if (err.claim === 'iss') return 'token is from another issuer';
    if (err.claim === 'nbf') return 'token not yet valid';
    return `token claim ${err.claim} is invalid`;
  }
  if (err instanceof errors.JWSSignatureVerificationFailed || err instanceof errors.JWKSNoMatchingKey) return 'token signature is invalid';
  return 'token is invalid';
}
