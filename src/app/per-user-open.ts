// Opening one user's own connection to a per-user server (issue 33): the user's credential from
// the CredentialStore fills the server entry (`${user.NAME}` in headers or env) or becomes the
// connection's OAuth tokens. No credential, a secret missing from it, or one the server refuses
// is CONNECT_REQUIRED, which the router answers by asking the user to connect. Never a secret in
// a log line, an error message or an audit entry.

import { fillUserRefs, type ServerConfig } from '../config/types.js';
import { GatewayError } from '../errors.js';
import { auditCredential, type AuditLog } from '../observability/audit.js';
import { createServerAuth } from '../outbound/auth/server-auth.js';
import { MemoryTokenStore, type StoredTokens, type TokenStore } from '../outbound/auth/token-store.js';
import type { ServerAuth } from '../outbound/auth/types.js';
import { refusesCredential } from '../router/per-user.js';
import type { Connection } from '../router/session.js';
import type { CredentialStore } from '../state/credentials.js';

/** `${user.NAME}`: a per-user secret's place in a header or env value. */

export interface PerUserOpenDeps {
  credentials: () => Promise<CredentialStore>;
  /** Builds and connects a connection for `server` (the filled entry), with `auth` as its OAuth client state; rejects when it does not get ready. */
  connect: (server: ServerConfig, auth: ServerAuth | undefined) => Promise<Connection>;
  /** Where OAuth clients registered at an AS are kept (shared by users: a registration is the gateway's, not a user's). */
  clients: (server: { name: string; url: string }) => Pick<TokenStore, 'getClient' | 'setClient'>;
  audit: AuditLog;
}

export function connectRequired(server: string, why: string): GatewayError {
  return new GatewayError('CONNECT_REQUIRED', `server "${server}" needs your own credential: ${why}`, { server });
}

/** What `user`'s connection to `server` is made of: the entry with their secrets filled in, or their OAuth client state. */
export interface UserEntry {
  entry: ServerConfig;
  auth?: ServerAuth;
}

/** `user`'s entry for `server`; CONNECT_REQUIRED when they have no credential, or it lacks a secret. */
export async function userEntry(deps: PerUserOpenDeps, store: CredentialStore, server: ServerConfig, user: string): Promise<UserEntry> {
  const record = await store.get(user, server.name);
  if (record === undefined) throw connectRequired(server.name, 'you have not connected it yet');
  const { credential } = record;
  if (credential.kind === 'secrets') {
    const filled = fillSecrets(server, credential.values);
    if (typeof filled === 'string') throw connectRequired(server.name, `the secret ${filled} is missing`);
    // Never the process-wide OAuth state of `switchboard login` (the operator's tokens): a server
    // that challenges a user's secret gets an OAuth client that has no token, so it is refused and the user asked again.
    if (filled.kind !== 'http') return { entry: filled };
    return { entry: filled, auth: createServerAuth({ name: filled.name, url: filled.url }, { store: new MemoryTokenStore(), interactive: false }) };
  }
  if (server.kind !== 'http') throw connectRequired(server.name, 'an OAuth credential cannot start a local process');
  const target = { name: server.name, url: server.url, ...(server.auth ? { auth: server.auth } : {}) };
  const auth = createServerAuth(target, { store: userTokenStore(deps, store, user, target), interactive: false, renew: renewer(deps, store, user, server.name) });
  await auth.ready;
  return { entry: server, auth };
}

export async function openPerUserConnection(deps: PerUserOpenDeps, server: ServerConfig, user: string): Promise<Connection> {
  const store = await deps.credentials();
  const { entry, auth } = await userEntry(deps, store, server, user);
  return refusedMeansReconnect(deps, store, server.name, user, deps.connect(entry, auth));
}

/**
 * A copy of `server` with every `${user.NAME}` in its headers (HTTP) or env (stdio) filled from
 * `values`; the name of the first secret `values` lacks instead, when one does.
 */
export function fillSecrets(server: ServerConfig, values: Readonly<Record<string, string>>): ServerConfig | string {
  let missing: string | undefined;
  const fill = (text: string) => {
    const filled = fillUserRefs(text, values);
    missing ??= filled.missing[0];
    return filled.value;
  };
  const filledMap = (map: Readonly<Record<string, string>>) => Object.fromEntries(Object.entries(map).map(([k, v]) => [k, fill(v)]));
  const out: ServerConfig = server.kind === 'http' ? { ...server, headers: filledMap(server.headers) } : { ...server, env: filledMap(server.env) };
  return missing ?? out;
}

/**
 * A server that refuses the credential at the handshake (401, or its OAuth needing a login no
 * refresh gave) gets a new connect: the credential is dropped, and the user asked again.
 */
async function refusedMeansReconnect(deps: PerUserOpenDeps, store: CredentialStore, server: string, user: string, opening: Promise<Connection>): Promise<Connection> {
  try {
    return await opening;
  } catch (err) {
    if (!refusesCredential(err)) throw err;
    await dropRefused(deps.audit, store, user, server);
    throw connectRequired(server, 'the server refused the credential you connected with; connect again');
  }
}

/** The server refused `user`'s credential: it is forgotten (they connect again), and that is audited, never the secret. */
export async function dropRefused(audit: AuditLog, store: CredentialStore, user: string, server: string): Promise<void> {
  if (await store.delete(user, server)) auditCredential(audit, 'denied', { user, server, via: 'call', why: 'the server refused the credential; dropped' });
}

/**
 * A user's refresh runs through the credential store's single flight: calls refreshing at once
 * share one grant, and with Redis replicas take turns, each starting from what the last stored.
 */
export function renewer(deps: PerUserOpenDeps, store: CredentialStore, user: string, server: string) {
  return async (grant: (stored: StoredTokens | undefined) => Promise<StoredTokens>): Promise<StoredTokens> => {
    let renewed = false;
    const record = await store.refresh(user, server, async (current) => {
      const stored = current?.credential.kind === 'oauth' ? (current.credential.tokens as StoredTokens) : undefined;
      const next = await grant(stored);
      if (next === stored) return current!.credential;
      renewed = true;
      return { kind: 'oauth', tokens: next };
    });
    if (renewed) auditCredential(deps.audit, 'refresh', { user, server, kind: 'oauth', via: 'refresh' });
    return (record.credential as { tokens: StoredTokens }).tokens;
  };
}

/**
 * The TokenStore a user's ServerAuth reads and writes: their tokens in the CredentialStore (a
 * refresh stored through its single flight, obtainedAt kept), the OAuth client registration shared.
 */
function userTokenStore(deps: PerUserOpenDeps, store: CredentialStore, user: string, target: { name: string; url: string }): TokenStore {
  const server = target.name;
  const clients = deps.clients(target);
  return {
    async getTokens() {
      const record = await store.get(user, server);
      return record?.credential.kind === 'oauth' ? (record.credential.tokens as StoredTokens) : undefined;
    },
    async setTokens(_server, _url, tokens) {
      if (tokens === undefined) {
        if (await store.delete(user, server)) deps.audit.record({ server, kind: 'credential.denied', item: user, change: 'dropped', why: 'the tokens no longer work and no refresh renewed them' });
        return;
      }
      // A refresh stored them already (renewer); anything else new (a step-up) is stored here.
      const current = await store.get(user, server);
      if (current?.credential.kind === 'oauth' && current.credential.tokens.accessToken === tokens.accessToken) return;
      await store.refresh(user, server, async () => ({ kind: 'oauth', tokens }));
    },
    getClient: (issuer) => clients.getClient(issuer),
    setClient: (issuer, client) => clients.setClient(issuer, client),
  };
}
