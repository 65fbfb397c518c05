// What the connect pages are built from (issue 33). The per-user part of the config is read by the
// agreed names (`server.perUser`, `config.credentials`); the app maps its config onto these shapes,
// so this layer never depends on how the config file spells them.

import type { FetchLike, OAuthConfig } from '../outbound/auth/index.js';
import type { Logger } from '../log.js';
import type { AuditLog } from '../observability/audit.js';
import type { CredentialStore } from '../state/credentials.js';
import type { StateStore } from '../state/store.js';

/** `server.perUser`, as normalized by the config (h33-config). */
export type PerUser = { readonly kind: 'oauth' } | { readonly kind: 'secrets'; readonly secrets: readonly { readonly name: string; readonly description?: string }[] };

/** A per-user server as the pages need it. */
export interface ConnectServer {
  readonly name: string;
  readonly perUser: PerUser;
  /** The MCP URL of an HTTP server (OAuth discovery starts there). */
  readonly url?: string;
  /** Its `auth:` (client id, scopes...) for the user's OAuth flow. */
  readonly auth?: OAuthConfig;
}

/** The part of `config.credentials` the pages read. */
export interface ConnectSettings {
  /** How long a link works (credentials.linkTtlMs). */
  readonly linkTtlMs: number;
  /** The gateway's own client at its issuer (credentials.login); else dynamic registration. */
  readonly login?: { readonly clientId: string; readonly clientSecret?: string; readonly scopes: readonly string[] };
}

/**
 * How a browser proves who it is, by the face in front of the gateway:
 * - oauth: a login at the face's issuer whose access token (for the gateway's MCP URL) the face's
 *   own authenticator verifies, so the user is computed as for MCP requests;
 * - token: the gateway token of a client profile, typed into a form;
 * - local: no HTTP face (stdio only): the one local user, and the single-use link is the proof.
 * `verify` answers the user an Authorization header stands for, or undefined.
 */
export type BrowserCheck =
  | {
      readonly kind: 'oauth';
      readonly issuer: string;
      resource(): string;
      /** Scopes the login asks for when credentials.login names none (the face's required scopes). */
      readonly scopes?: readonly string[];
      verify(authorization: string): Promise<string | undefined>;
    }
  | { readonly kind: 'token'; verify(authorization: string): Promise<string | undefined> }
  | { readonly kind: 'local'; readonly user: string };

/** Where credential events are recorded (observability/audit.ts). */
export type ConnectAudit = Pick<AuditLog, 'record'>;

export interface ConnectorDeps {
  /** The per-user servers in force, by name (looked up per request: a reload applies). */
  servers(): ReadonlyMap<string, ConnectServer>;
  settings(): ConnectSettings;
  credentials: CredentialStore;
  store: StateStore;
  audit?: ConnectAudit;
  logger: Logger;
  /** scheme://host[:port][/prefix] the pages are reached at; undefined: a loopback listener of our own. */
  publicUrl(): string | undefined;
  browser: BrowserCheck;
  /** Seals links, cookies and flows; default: the StateStore's sharedKey(), the same on every replica. */
  signingKey?: Buffer;
  fetch?: FetchLike;
  now?: () => number;
  /** Told after a credential is stored here (the listing of a server nobody had connected starts at once). */
  onConnect?: (user: string, server: string) => void;
}

/** What ConnectAsker (src/router/connect-ask.ts) promises, repeated: the router may not be imported here. */
export interface ConnectLink {
  url: string;
  elicitationId: string;
  expiresAt: number;
  message: string;
}

export interface Connector {
  link(user: string, server: string): Promise<ConnectLink>;
  connected(user: string, server: string, signal: AbortSignal): Promise<void>;
  /** Serves a request whose path starts with /connect/ (Host already checked by whoever listens). */
  handle(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void;
  /** Where the pages are served now (starts the loopback listener when there is no public URL). */
  base(): Promise<string>;
  close(): Promise<void>;
}
