// Bearer tokens for client profiles. Tokens are compared as SHA-256 digests with
// timingSafeEqual, against every configured token without stopping at the first match, so the
// time taken says nothing about which token or how much of it matched. Tokens never reach a log.

import { createHash, timingSafeEqual } from 'node:crypto';
import { ErrorCode } from '../protocol/jsonrpc.js';
import { Refusal, errorBody } from './http-reply.js';

/**
 * What an authenticator decides about a request: the principal (a profile name, or an OAuth
 * principal) it authenticated; null when the header names none (→ 401 with a plain Bearer
 * challenge); undefined when no authentication is configured; or a refusal whose status and
 * WWW-Authenticate the authenticator chose (OAuth: 401/403 naming the resource metadata, 503 when
 * the keys to check tokens cannot be had).
 */
export type AuthVerdict = string | null | undefined | AuthRefusal;

export interface AuthRefusal {
  status: 401 | 403 | 503;
  wwwAuthenticate?: string;
  /** For the log (never a token): why. */
  reason: string;
}

/**
 * The verdict on a request's Authorization header: at once for static tokens (the fast path), a
 * promise when a token must be verified (a JWT's signature, an introspection).
 */
export type Authenticator = (authorization: string | undefined) => AuthVerdict | Promise<AuthVerdict>;

/** The body of a refusal's reply (a JSON-RPC error with id null, like every refusal). */
export const refusalBodies: Record<AuthRefusal['status'], string> = {
  401: Refusal.unauthorized,
  403: errorBody(ErrorCode.TransportRefused, 'Forbidden: the access token does not grant what this gateway requires'),
  503: errorBody(ErrorCode.TransportRefused, 'Service Unavailable: access tokens cannot be checked right now; try again later'),
};

/** The static-token authenticator: always an immediate verdict. */
export type StaticAuthenticator = (authorization: string | undefined) => string | null | undefined;

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** An authenticator for the profiles that have tokens, or undefined when none has one (no auth). */
export function bearerAuthenticator(clients: readonly { name: string; token?: string }[]): StaticAuthenticator | undefined {
  const known = clients.filter((c) => c.token).map((c) => ({ name: c.name, digest: digest(c.token!) }));
  if (known.length === 0) return undefined;
  return (authorization) => {
    const m = authorization === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
    if (!m) return null;
    const presented = digest(m[1]!);
    let found: string | null = null;
    for (const k of known) if (timingSafeEqual(presented, k.digest) && found === null) found = k.name;
    return found;
  };
}
