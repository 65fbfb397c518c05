// Sealed requestState tokens for input rounds the gateway bridges (MRTR, 2026-07-28): the spec
// treats requestState as attacker-controlled and asks that it be integrity-protected and bound to
// the principal, the originating request and a short lifetime. HMAC-SHA256 with a per-process
// key: the parked server call a token names lives in this process anyway. Signed, not
// encrypted: nothing in it is secret.

import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** What a token binds. */
export interface StateClaims {
  /** The parked call it resumes. */
  id: string;
  /** The client profile ('' without one). */
  principal: string;
  method: string;
  /** paramsDigest of the originating request. */
  digest: string;
  /** Expiry, ms since the epoch. */
  exp: number;
}

const PREFIX = 'sb1.';

/** Whether a requestState is one of ours (a modern server's own passes through untouched). */
export function isGatewayState(state: unknown): state is string {
  return typeof state === 'string' && state.startsWith(PREFIX);
}

/** The request's params as they bear on its meaning: without the round's own fields and _meta. */
export function paramsDigest(params: Record<string, any>): string {
  const { inputResponses: _r, requestState: _s, _meta: _m, ...rest } = params;
  return createHash('sha256').update(stableJson(rest)).digest('base64url');
}

/** JSON with object keys sorted, so a client that re-serialises its params still matches. */
function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

export class RequestStateSeal {
  constructor(private readonly key: Buffer = randomBytes(32)) {}

  seal(claims: StateClaims): string {
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${PREFIX}${body}.${this.mac(body)}`;
  }

  /** The claims of an untampered token, or undefined (expiry and bindings are the caller's to check). */
  open(token: string): StateClaims | undefined {
    if (!token.startsWith(PREFIX)) return undefined;
    const rest = token.slice(PREFIX.length);
    const dot = rest.indexOf('.');
    if (dot === -1) return undefined;
    const body = rest.slice(0, dot);
    const given = Buffer.from(rest.slice(dot + 1));
    const expected = Buffer.from(this.mac(body));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      return typeof claims?.id === 'string' && typeof claims.exp === 'number' ? (claims as StateClaims) : undefined;
    } catch {
      return undefined;
    }
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
