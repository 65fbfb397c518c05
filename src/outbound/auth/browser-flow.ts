// An authorization-code + PKCE flow run by a browser that lands on a web page of ours (the
// gateway's /connect/callback), in two halves that may run on two replicas: `beginBrowserFlow`
// (discovery, client, the authorization URL) returns a PendingFlow of plain data to keep until
// the redirect; `finishBrowserFlow` checks the redirect (state, iss) and redeems the code. Used for
// a user's own tokens for a per-user server, and for a browser's login at the gateway's issuer.
// Invariants: the pending flow holds no token; the code goes only to the AS the flow began with.

import { discover, discoverAuthServer, isLoopbackHost } from './discovery.js';
import { prepareAuthorization, redeemCode, type GrantContext } from './grants.js';
import { clientAuthFor, obtainClient, type ClientIdentity } from './registration.js';
import { selectInitialScopes } from './scopes.js';
import type { StoredTokens, TokenStore } from './token-store.js';
import type { FetchLike, OAuthConfig } from './types.js';

/** What must survive between the authorization URL and the redirect. JSON-safe. */
export interface PendingFlow {
  readonly issuer: string;
  readonly resource: string;
  readonly state: string;
  readonly verifier: string;
  readonly redirectUri: string;
  readonly clientId: string;
  readonly authMethod: string;
  /** A confidential client's secret (pre-registered or registered dynamically); keep the flow sealed. */
  readonly clientSecret?: string;
  readonly scopes?: string[];
}

export interface BrowserFlowTarget {
  /** An MCP server's URL: its PRM names the AS and the resource (a per-user server). */
  serverUrl?: string;
  /** Or a known issuer and resource (the gateway's own login: its issuer, its MCP URL). */
  issuer?: string;
  resource?: string;
}

export interface BeginOptions {
  target: BrowserFlowTarget;
  config: OAuthConfig;
  /** Where clients registered dynamically are remembered (per issuer). */
  clients: TokenStore;
  redirectUri: string;
  /** Scopes to ask for (else the config's, else the PRM's). */
  scopes?: string[];
  /** OpenID Connect login_hint: which account the AS should log in. */
  loginHint?: string;
  fetch?: FetchLike;
}

export async function beginBrowserFlow(o: BeginOptions): Promise<{ url: string; pending: PendingFlow }> {
  const fetchFn = o.fetch ?? fetch;
  let as: GrantContext['as'];
  let insecure: boolean;
  let resource: string;
  let prmScopes: string[] | undefined;
  if (o.target.serverUrl !== undefined) {
    const d = await discover(o.target.serverUrl, undefined, fetchFn);
    ({ as, insecure, resource } = d);
    prmScopes = d.scopesSupported;
  } else {
    ({ as, insecure } = await discoverAuthServer(o.target.issuer!, fetchFn));
    resource = o.target.resource!;
  }
  // A redirect to a page on a public host is a web client's; only a loopback one is a native app's.
  const applicationType = isLoopbackHost(new URL(o.redirectUri).hostname) ? 'native' : 'web';
  const id = await obtainClient({ config: o.config, as, store: o.clients, redirectUri: o.redirectUri, insecure, fetch: o.fetch, applicationType });
  const scopes = o.scopes ?? selectInitialScopes({ configured: o.config.scopes, prmSupported: prmScopes, asSupported: as.scopes_supported });
  const prepared = await prepareAuthorization({ as, id, resource, insecure, fetch: o.fetch }, o.redirectUri, scopes);
  if (o.loginHint !== undefined) prepared.url.searchParams.set('login_hint', o.loginHint);
  const secret = id.source === 'preregistered' ? o.config.clientSecret : (await o.clients.getClient(as.issuer))?.clientSecret;
  const pending: PendingFlow = {
    issuer: as.issuer,
    resource,
    state: prepared.state,
    verifier: prepared.verifier,
    redirectUri: prepared.redirectUri,
    clientId: id.clientId,
    authMethod: String(id.client.token_endpoint_auth_method ?? 'none'),
    ...(secret === undefined || id.source === 'cimd' ? {} : { clientSecret: secret }),
    ...(scopes === undefined ? {} : { scopes }),
  };
  return { url: prepared.url.href, pending };
}

/** Checks the redirect's parameters against the flow (state, RFC 9207 iss, error) and redeems the code. */
export async function finishBrowserFlow(pending: PendingFlow, callback: URLSearchParams, fetchFn?: FetchLike): Promise<StoredTokens> {
  const { as, insecure } = await discoverAuthServer(pending.issuer, fetchFn ?? fetch);
  const id: ClientIdentity = {
    client: { client_id: pending.clientId, token_endpoint_auth_method: pending.authMethod },
    auth: clientAuthFor(pending.authMethod, pending.clientSecret),
    source: 'registered',
    clientId: pending.clientId,
  };
  const ctx: GrantContext = { as, id, resource: pending.resource, insecure, fetch: fetchFn };
  return redeemCode(ctx, { url: new URL(pending.redirectUri), state: pending.state, verifier: pending.verifier, redirectUri: pending.redirectUri }, callback, pending.scopes);
}
