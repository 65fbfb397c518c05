// The token requests, through oauth4webapi: authorization code + PKCE (S256) with the RFC 8707
// `resource` on both the authorization and the token request, RFC 9207 `iss` and `state` checks
// on the redirect, refresh, and client credentials. Every result becomes a StoredTokens; a
// ResponseBodyError keeps the AS's `error` code so callers can tell invalid_grant apart.

import * as oauth from 'oauth4webapi';
import type { ClientIdentity } from './registration.js';
import type { StoredTokens } from './token-store.js';
import type { FetchLike } from './types.js';
import { splitScopes } from './challenge.js';

export interface GrantContext {
  as: oauth.AuthorizationServer;
  id: ClientIdentity;
  resource: string;
  insecure: boolean;
  fetch?: FetchLike;
  now?: () => number;
}

function opts(c: GrantContext, extra: Record<string, string>) {
  return {
    additionalParameters: { resource: c.resource, ...extra },
    ...(c.fetch ? { [oauth.customFetch]: c.fetch } : {}),
    ...(c.insecure ? { [oauth.allowInsecureRequests]: true } : {}),
    signal: AbortSignal.timeout(30_000),
  };
}

export class PkceUnsupportedError extends Error {}

export interface PreparedAuthorization {
  url: URL;
  state: string;
  verifier: string;
  redirectUri: string;
}

/** The authorization URL; refuses an AS that does not advertise S256 PKCE (MCP: MUST refuse). */
export async function prepareAuthorization(c: GrantContext, redirectUri: string, scopes: string[] | undefined): Promise<PreparedAuthorization> {
  if (!c.as.authorization_endpoint) throw new PkceUnsupportedError('the authorization server has no authorization_endpoint');
  if (!c.as.code_challenge_methods_supported?.includes('S256')) {
    throw new PkceUnsupportedError('the authorization server does not advertise PKCE S256 (code_challenge_methods_supported)');
  }
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(c.as.authorization_endpoint);
  const p = url.searchParams;
  p.set('response_type', 'code');
  p.set('client_id', c.id.clientId);
  p.set('redirect_uri', redirectUri);
  p.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  p.set('code_challenge_method', 'S256');
  p.set('state', state);
  p.set('resource', c.resource);
  if (scopes && scopes.length > 0) p.set('scope', scopes.join(' '));
  return { url, state, verifier, redirectUri };
}

/** Validate the redirect (iss per RFC 9207, state, error) and exchange the code. */
export async function redeemCode(c: GrantContext, prepared: PreparedAuthorization, callback: URLSearchParams, requested: string[] | undefined): Promise<StoredTokens> {
  const params = oauth.validateAuthResponse(c.as, c.id.client, callback, prepared.state);
  const res = await oauth.authorizationCodeGrantRequest(c.as, c.id.client, c.id.auth, params, prepared.redirectUri, prepared.verifier, opts(c, {}));
  const tokens = await oauth.processAuthorizationCodeResponse(c.as, c.id.client, res);
  return toStored(c, tokens, 'authorization_code', requested);
}

export async function refreshGrant(c: GrantContext, previous: StoredTokens): Promise<StoredTokens> {
  const res = await oauth.refreshTokenGrantRequest(c.as, c.id.client, c.id.auth, previous.refreshToken!, opts(c, {}));
  const tokens = await oauth.processRefreshTokenResponse(c.as, c.id.client, res);
  const next = toStored(c, tokens, previous.grant, previous.requestedScopes);
  // An AS that does not rotate refresh tokens keeps the old one valid.
  if (!next.refreshToken && previous.refreshToken) next.refreshToken = previous.refreshToken;
  if (!tokens.scope && previous.scopes) next.scopes = previous.scopes;
  return next;
}

export async function clientCredentialsGrant(c: GrantContext, scopes: string[] | undefined): Promise<StoredTokens> {
  const params: Record<string, string> = { resource: c.resource };
  if (scopes && scopes.length > 0) params.scope = scopes.join(' ');
  const res = await oauth.clientCredentialsGrantRequest(c.as, c.id.client, c.id.auth, params, opts(c, {}));
  const tokens = await oauth.processClientCredentialsResponse(c.as, c.id.client, res);
  return toStored(c, tokens, 'client_credentials', scopes);
}

function toStored(c: GrantContext, t: oauth.TokenEndpointResponse, grant: StoredTokens['grant'], requested: string[] | undefined): StoredTokens {
  const now = (c.now ?? Date.now)();
  const out: StoredTokens = {
    accessToken: t.access_token,
    tokenType: t.token_type,
    issuer: c.as.issuer,
    resource: c.resource,
    grant,
    obtainedAt: now,
  };
  if (t.refresh_token) out.refreshToken = t.refresh_token;
  if (typeof t.expires_in === 'number') out.expiresAt = now + t.expires_in * 1000;
  const granted = splitScopes(t.scope);
  if (granted.length > 0) out.scopes = granted;
  else if (requested) out.scopes = [...requested];
  if (requested) out.requestedScopes = [...requested];
  return out;
}

/** The AS's OAuth error code (`invalid_grant`, ...) when the failure is one, else undefined. */
export function oauthErrorCode(err: unknown): string | undefined {
  if (err instanceof oauth.ResponseBodyError) return err.error;
  if (err instanceof oauth.AuthorizationResponseError) return err.error;
  return undefined;
}
