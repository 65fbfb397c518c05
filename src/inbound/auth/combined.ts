// The HTTP face's one authentication step when OAuth is on: a static bearer token of a client
// profile is tried first (they keep working beside OAuth), then the OAuth authenticator, whose
// claims pick a profile (`clients[].match`). A static match never reaches the AS.

import { matchProfile, type ClaimProfile } from './profiles.js';
import type { AuthResult, Claims, InboundAuthenticator } from './types.js';

/** What `bearerAuthenticator` in ../http-auth.ts returns: a profile name, null (no match), undefined (none configured). */
export type StaticAuthenticator = (authorization: string | undefined) => string | null | undefined;

export type Identified =
  | { ok: true; via: 'static'; profile: string; principal: string; scopes: string[] }
  | { ok: true; via: 'oauth'; profile: string | undefined; principal: string; scopes: string[]; claims: Claims }
  | Exclude<AuthResult, { ok: true }>;

export function combineAuthenticators<P extends ClaimProfile>(staticAuth: StaticAuthenticator | undefined, oauth: InboundAuthenticator, clients: readonly P[]) {
  return async (authorization: string | undefined): Promise<Identified> => {
    const name = staticAuth?.(authorization);
    if (typeof name === 'string') return { ok: true, via: 'static', profile: name, principal: `profile:${name}`, scopes: [] };
    const r = await oauth(authorization);
    if (!r.ok) return r;
    return { ok: true, via: 'oauth', profile: matchProfile(r.claims, clients)?.name, principal: r.principal, scopes: r.scopes, claims: r.claims };
  };
}
