// The shapes the outbound OAuth modules share: a server's auth config as the integrator hands it
// over (already validated by the config schema), the observable auth state, and the logger subset.
// Invariant: nothing here ever holds a token value except TokenSet, which only the store persists.

export type GrantKind = 'authorization_code' | 'client_credentials';

/** `auth: oauth` or `auth: { type: oauth, ... }` on an HTTP server entry, normalized. */
export interface OAuthConfig {
  type: 'oauth';
  /** Pre-registered client (highest priority in client registration). */
  clientId?: string;
  clientSecret?: string;
  /** An HTTPS URL we host elsewhere: used as client_id when the AS supports CIMD. */
  clientMetadataUrl?: string;
  /** Scopes to request; when absent they come from the challenge, then the PRM. */
  scopes?: string[];
  /** Loopback port for the redirect; 0 (any free port) when absent. */
  redirectPort?: number;
  /** Token file; default `$XDG_STATE_HOME/switchboard/tokens.json`. */
  tokenFile?: string;
  /**
   * Which grant obtains tokens. Default `authorization_code` (a user logs in); set
   * `client_credentials` for machine-to-machine with `clientId` + `clientSecret`.
   */
  grant?: GrantKind;
  /** Force the token endpoint auth method of a pre-registered client. */
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'none';
}

/** What createServerAuth needs to know about the server. */
export interface ServerTarget {
  name: string;
  /** The MCP endpoint URL. */
  url: string;
  /** undefined = automatic (OAuth starts only when the server answers 401 with Bearer). */
  auth?: OAuthConfig;
}

export type AuthStatus = 'none' | 'ok' | 'needs-login';

export interface AuthState {
  status: AuthStatus;
  /** Epoch ms when the access token expires, if the AS said. */
  expiresAt?: number;
  /** Scopes granted (or requested, when the AS did not say). */
  scopes?: string[];
  /** The authorization server's issuer, once known. */
  issuer?: string;
  /** Why the server needs a login (never holds a secret). */
  reason?: string;
}

/** Pino-compatible subset; auth code only ever logs names, URLs without query, statuses, codes. */
export interface AuthLogger {
  debug(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export const silentAuthLogger: AuthLogger = { debug() {}, info() {}, warn() {}, error() {} };

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** Normalize `auth: oauth` | `auth: {type: oauth, ...}`; undefined stays undefined. */
export function normalizeOAuthConfig(raw: 'oauth' | Partial<OAuthConfig> | undefined): OAuthConfig | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'oauth') return { type: 'oauth' };
  return { ...raw, type: 'oauth' };
}
