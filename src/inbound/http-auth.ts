// Bearer tokens for client profiles. Tokens are compared as SHA-256 digests with
// timingSafeEqual, against every configured token without stopping at the first match, so the
// time taken says nothing about which token or how much of it matched. Tokens never reach a log.

import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The profile a request's Authorization header names; null when it names none (→ 401);
 * undefined when no client is configured (no authentication).
 */
export type Authenticator = (authorization: string | undefined) => string | null | undefined;

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** An authenticator for the profiles that have tokens, or undefined when none has one (no auth). */
export function bearerAuthenticator(clients: readonly { name: string; token?: string }[]): Authenticator | undefined {
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
