// The async authenticator for the gateway's HTTP face: Authorization header in, principal and
// claims or the spec's 401/403 + WWW-Authenticate out. JWTs are verified locally (jwt.ts);
// other tokens go to introspection when configured. A token never reaches a log line.

import { bearerChallengeHeader } from './challenge.js';
import { createIntrospector } from './introspection.js';
import { createJwtVerifier, type VerifyOutcome } from './jwt.js';
import { scopesOf } from './profiles.js';
import { resourceMetadataUrl } from './prm.js';
import type { AuthResult, FetchLike, InboundAuthConfig, InboundAuthenticator, InboundLogger } from './types.js';

export interface AuthenticatorDeps {
  /** The gateway's MCP endpoint URL as clients reach it (the resource identifier). */
  resourceUrl: string;
  fetch?: FetchLike;
  logger?: InboundLogger;
  /** For tests: the clock jose and the introspection cache use. */
  now?: () => number;
}

const BEARER = /^Bearer[ \t]+([A-Za-z0-9\-._~+/]+=*)[ \t]*$/i;
const looksLikeJwt = (t: string) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(t);

export function createOAuthAuthenticator(config: InboundAuthConfig, deps: AuthenticatorDeps): InboundAuthenticator {
  const fetchFn = deps.fetch ?? fetch;
  const audience = config.audience === undefined ? [deps.resourceUrl] : Array.isArray(config.audience) ? config.audience : [config.audience];
  const prm = resourceMetadataUrl(deps.resourceUrl);
  const required = config.requiredScopes ?? [];
  const verifyJwt = createJwtVerifier(config, audience, fetchFn);
  const introspect = config.introspection ? createIntrospector(config.introspection, config.issuer, audience, fetchFn, deps.now) : undefined;

  const challenge = (status: 401 | 403, error: string, wwwAuthenticate: string): AuthResult => ({ ok: false, status, error, wwwAuthenticate });

  return async (authorization) => {
    const m = authorization === undefined ? null : BEARER.exec(authorization);
    if (!m) {
      // No usable credentials: no error code (RFC 6750 §3.1), but where to learn how to get some.
      return challenge(401, 'missing bearer token', bearerChallengeHeader({ resourceMetadata: prm, scope: required }));
    }
    const token = m[1]!;
    let outcome: VerifyOutcome;
    if (looksLikeJwt(token)) outcome = await verifyJwt(token, deps.now ? new Date(deps.now()) : undefined);
    else if (introspect) outcome = await introspect(token);
    else outcome = { ok: false, kind: 'invalid', reason: 'token is not a JWT' };
    if (!outcome.ok) {
      if (outcome.kind === 'unavailable') {
        deps.logger?.warn({ reason: outcome.reason }, 'cannot verify access tokens');
        return { ok: false, status: 503, error: outcome.reason };
      }
      deps.logger?.debug({ reason: outcome.reason }, 'access token refused');
      return challenge(401, outcome.reason, bearerChallengeHeader({ resourceMetadata: prm, error: 'invalid_token', description: outcome.reason }));
    }
    const scopes = scopesOf(outcome.claims);
    const missing = required.filter((s) => !scopes.includes(s));
    if (missing.length > 0) {
      return challenge(403, 'insufficient scope', bearerChallengeHeader({ resourceMetadata: prm, error: 'insufficient_scope', scope: required, description: `missing scopes: ${missing.join(' ')}` }));
    }
    const c = outcome.claims;
    const principal = typeof c.sub === 'string' ? c.sub : typeof c.client_id === 'string' ? c.client_id : 'unknown';
    return { ok: true, claims: c, principal, scopes };
  };
}

/**
 * For per-operation scopes (a tool that needs more than the connection): the 403 a handler
 * sends when an authenticated principal lacks `needed` (RFC 6750 §3.1, MCP step-up).
 */
export function insufficientScope(resourceUrl: string, needed: readonly string[]): { status: 403; wwwAuthenticate: string } {
  return { status: 403, wwwAuthenticate: bearerChallengeHeader({ resourceMetadata: resourceMetadataUrl(resourceUrl), error: 'insufficient_scope', scope: needed }) };
}
