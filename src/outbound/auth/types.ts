// The shapes the outbound OAuth modules share: a server's auth config as the integrator hands it
// over (already validated by the config schema), the observable auth state, and the logger subset.
// Invariant: no type here holds a token value; only the store's StoredTokens does.

import type { StoredTokens, TokenStore } from './token-store.js';

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
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'none' | 'private_key_jwt';
  /** PKCS#8 PEM of a pre-registered client's key: private_key_jwt client authentication (RFC 7523). */
  clientPrivateKey?: string;
  /** JWS algorithm of that key; default from the key type (RS256, ES256/384/512, EdDSA). */
  clientPrivateKeyAlg?: string;
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

export interface ServerAuth {
  /** Headers for the next request (refreshing first when the token is near expiry). */
  headers(): Promise<Record<string, string>>;
  /**
   * A 401/403 came back. Resolves 'retry' once new credentials exist; throws AuthError otherwise.
   * `sent` (the headers the failed request carried) lets concurrent failures share one refresh.
   */
  challenged(status: number, wwwAuthenticate: string | undefined, sent?: Record<string, string>): Promise<'retry'>;
  /** For `status`/`check`. */
  state(): AuthState;
  /**
   * Interactive login now (switchboard login), whatever the current state. `wwwAuthenticate` is
   * the challenge of an unauthenticated probe, when one was made (its scope and PRM URL count).
   */
  login(wwwAuthenticate?: string): Promise<AuthState>;
  /** Forget this server's tokens. */
  logout(): Promise<void>;
  /** Settles once the stored tokens were read. */
  readonly ready: Promise<void>;
  /** The server entry asks for OAuth (`auth:`); false: OAuth only once it answers with a Bearer challenge. */
  readonly configured: boolean;
  /**
   * Calls `listener` with the state each time the status changes (none / ok / needs-login), so
   * the connection can report a login that became necessary. Returns the unsubscribe function.
   */
  onStatus(listener: (state: AuthState) => void): () => void;
}

export interface ServerAuthDeps {
  store: TokenStore;
  logger?: AuthLogger;
  /** May a browser login run when one is needed (a terminal is attached)? */
  interactive?: boolean;
  /** Opens the authorization URL (a browser, or in tests an HTTP client following redirects). */
  openUrl?: (url: string) => void | Promise<void>;
  /** Where the authorization URL is shown to the user; default: stderr. Never stdout. */
  print?: (line: string) => void;
  fetch?: FetchLike;
  now?: () => number;
  /**
   * Runs a token refresh under the caller's coordination (per-user credentials: the credential
   * store's single flight, replicas taking turns). `grant` gets the tokens stored now, which another
   * process may have refreshed already (then it returns them as they are); what `renew` resolves
   * with is kept. Absent: the refresh grant runs directly.
   */
  renew?: (grant: (stored: StoredTokens | undefined) => Promise<StoredTokens>) => Promise<StoredTokens>;
  /** Refresh this long before expiry. Default 60 s. */
  refreshSkewMs?: number;
  /** How long an interactive login may wait for the browser. Default 5 min. */
  loginTimeoutMs?: number;
}
