// The gateway as an OAuth protected resource: the `listen.auth` config as the integrator hands it
// over, and the authenticator's result. Invariant: a failure result carries only what the client
// may see (status, WWW-Authenticate), never the token or why a signature failed in detail.

export interface InboundAuthConfig {
  /** The authorization server that issues tokens for us (listed in our PRM). */
  issuer: string;
  /** Accepted `aud` values; default: the resource URL (RFC 8707 binding). */
  audience?: string | string[];
  /** JWKS location; default: `jwks_uri` from the issuer's metadata (discovered once, cached). */
  jwksUrl?: string;
  /** Scopes every request must carry; missing ones get 403 insufficient_scope. */
  requiredScopes?: string[];
  /** Scopes announced in the PRM (default: requiredScopes). */
  scopesSupported?: string[];
  /** Opaque tokens: RFC 7662 introspection. */
  introspection?: { url: string; clientId: string; clientSecret: string; cacheMs?: number };
  /** Allowed clock skew for exp/nbf/iat, in seconds. Default 60. */
  clockToleranceSec?: number;
  /** Accepted JWS algorithms (default: the asymmetric ones jose knows). */
  algorithms?: string[];
  /** Shown in the PRM. */
  resourceName?: string;
}

export type Claims = Record<string, unknown> & { sub?: string; scope?: string; iss?: string };

export type AuthResult =
  | { ok: true; claims: Claims; principal: string; scopes: string[] }
  | { ok: false; status: 401 | 403; wwwAuthenticate: string; error: string }
  /** The AS (JWKS, introspection) could not be reached: not the client's fault, do not challenge. */
  | { ok: false; status: 503; error: string };

export type InboundAuthenticator = (authorization: string | undefined) => Promise<AuthResult>;

export interface InboundLogger {
  warn(obj: unknown, msg?: string): void;
  debug(obj: unknown, msg?: string): void;
}

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;
