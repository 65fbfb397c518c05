// Sealed requestState tokens for input rounds the gateway bridges (MRTR, 2026-07-28): the spec
// treats requestState as attacker-controlled and asks that it be integrity-protected and bound to
// the principal, the originating request and a short lifetime. HMAC-SHA256 with a per-process
// key (listen.stateKey, else one of this process: the parked call a token names lives in one
// process anyway). A 2026 server's own requestState is wrapped the same way on its way to a
// 2026 client. Signed, not encrypted: nothing in it is secret.

import type { JsonObject } from '../protocol/json.js';
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

/** Whether a requestState is one of ours (a stateless server's own passes through untouched). */
export function isGatewayState(state: unknown): state is string {
  return typeof state === 'string' && state.startsWith(PREFIX);
}

/** The request's params as they bear on its meaning: without the round's own fields and _meta. */
export function paramsDigest(params: JsonObject): string {
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

/** `prefix` + base64url(JSON claims) + "." + HMAC: integrity only, the claims are not secret. */
class Signer {
  constructor(
    private readonly key: Buffer,
    private readonly prefix: string,
  ) {}

  sign(claims: object): string {
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${this.prefix}${body}.${this.mac(body)}`;
  }

  /** The parsed claims of an untampered token, or undefined. */
  verify(token: string): Record<string, unknown> | undefined {
    if (!token.startsWith(this.prefix)) return undefined;
    const rest = token.slice(this.prefix.length);
    const dot = rest.indexOf('.');
    if (dot === -1) return undefined;
    const body = rest.slice(0, dot);
    const given = Buffer.from(rest.slice(dot + 1));
    const expected = Buffer.from(this.mac(body));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      return claims !== null && typeof claims === 'object' ? claims : undefined;
    } catch {
      return undefined;
    }
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(this.prefix).update(body).digest('base64url');
  }
}

/** The key state tokens and list cursors are signed with: the configured one, else one of this process. */
export function stateKey(configured: string | undefined): Buffer {
  return configured === undefined ? randomBytes(32) : createHash('sha256').update(configured).digest();
}

/** A short public name of `key` (not the key): which key signed what, in session records and logs. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 12);
}

export class RequestStateSeal {
  private readonly signer: Signer;

  constructor(key: Buffer = randomBytes(32)) {
    this.signer = new Signer(key, PREFIX);
  }

  seal(claims: StateClaims): string {
    return this.signer.sign(claims);
  }

  /** The claims of an untampered token, or undefined (expiry and bindings are the caller's to check). */
  open(token: string): StateClaims | undefined {
    const claims = this.signer.verify(token);
    return typeof claims?.id === 'string' && typeof claims.exp === 'number' ? (claims as unknown as StateClaims) : undefined;
  }
}

/** What a wrapped server requestState is bound to. */
export interface WrappedClaims {
  /** The server's own requestState, returned to it byte for byte. */
  inner: string;
  server: string;
  principal: string;
  method: string;
  /** paramsDigest of the request as forwarded to the server. */
  digest: string;
  exp: number;
}

const WRAPPED_PREFIX = 'sb1w.';

/**
 * A 2026-07-28 server's requestState on its way to a 2026 client, wrapped in one of ours: the
 * client cannot alter it or take it to another server, method, call or principal, and it
 * expires. Nothing is held for it, so any process with the same key can unwrap it.
 */
export class StateWrapper {
  private readonly signer: Signer;

  constructor(key: Buffer) {
    this.signer = new Signer(key, WRAPPED_PREFIX);
  }

  static isWrapped(state: unknown): state is string {
    return typeof state === 'string' && state.startsWith(WRAPPED_PREFIX);
  }

  wrap(claims: WrappedClaims): string {
    return this.signer.sign(claims);
  }

  /** The server's requestState, when `token` is ours, untampered, unexpired and bound to exactly `expected`. */
  unwrap(token: string, expected: Omit<WrappedClaims, 'inner' | 'exp'>, now = Date.now()): string | undefined {
    const c = this.signer.verify(token);
    if (!c || typeof c.inner !== 'string' || typeof c.exp !== 'number' || c.exp < now) return undefined;
    const bound = c.server === expected.server && c.principal === expected.principal && c.method === expected.method && c.digest === expected.digest;
    return bound ? c.inner : undefined;
  }
}
