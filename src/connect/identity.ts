// Who the browser is: the identity cookie set after a verified login (sealed, 12 h, HttpOnly,
// SameSite=Lax, Path=/connect, Secure on https), and the login at the gateway's own issuer that
// sets it (authorization code + PKCE for the gateway's MCP URL, login_hint when the link names a
// user). The access token is run through the face's own authenticator, then dropped.

import { beginBrowserFlow, type FetchLike, type TokenStore } from '../outbound/auth/index.js';
import type { StateStore } from '../state/store.js';
import { saveFlow, FLOW_COOKIE, FLOW_TTL_MS } from './flows.js';
import { cookie, readCookie } from './http.js';
import type { LinkClaims } from './links.js';
import { nonce, type Sealers } from './seal.js';
import type { BrowserCheck, ConnectSettings } from './types.js';
import type { IncomingMessage } from 'node:http';

export const IDENTITY_COOKIE = 'sb_connect';
export const IDENTITY_TTL_MS = 12 * 3_600_000;

interface IdentityClaims {
  readonly u: string;
  readonly x: number;
}

/** The user a valid identity cookie names, if any. */
export function cookieUser(req: IncomingMessage, sealers: Sealers, now: number): string | undefined {
  const c = sealers.cookie.open<IdentityClaims>(readCookie(req, IDENTITY_COOKIE));
  return c !== undefined && typeof c.u === 'string' && typeof c.x === 'number' && c.x > now ? c.u : undefined;
}

export function identityCookie(sealers: Sealers, user: string, now: number, secure: boolean): string {
  return cookie(IDENTITY_COOKIE, sealers.cookie.seal({ u: user, x: now + IDENTITY_TTL_MS } satisfies IdentityClaims), IDENTITY_TTL_MS / 1000, secure);
}

export function flowCookie(bind: string, secure: boolean): string {
  return cookie(FLOW_COOKIE, bind, FLOW_TTL_MS / 1000, secure);
}

export interface LoginContext {
  readonly browser: Extract<BrowserCheck, { kind: 'oauth' }>;
  readonly settings: ConnectSettings;
  readonly clients: TokenStore;
  readonly store: StateStore;
  readonly sealers: Sealers;
  readonly redirectUri: string;
  readonly secure: boolean;
  readonly fetch?: FetchLike;
}

/** Starts the login at the gateway's issuer; resolves to where to send the browser and its flow cookie. */
export async function beginLogin(c: LoginContext, server: string, link: LinkClaims | undefined): Promise<{ url: string; setCookie: string }> {
  const login = c.settings.login;
  const { url, pending } = await beginBrowserFlow({
    target: { issuer: c.browser.issuer, resource: c.browser.resource() },
    config: { type: 'oauth', ...(login === undefined ? {} : { clientId: login.clientId, ...(login.clientSecret === undefined ? {} : { clientSecret: login.clientSecret }) }) },
    clients: c.clients,
    redirectUri: c.redirectUri,
    ...scopesOf(login?.scopes, c.browser.scopes),
    // The link's user is the one expected: the AS may pre-fill (or pick) that account.
    ...(link === undefined ? {} : { loginHint: link.u }),
    ...(c.fetch === undefined ? {} : { fetch: c.fetch }),
  });
  const bind = nonce();
  await saveFlow(c.store, c.sealers.flow, { p: 'login', flow: pending, server, bind, ...(link === undefined ? {} : { link }) });
  return { url, setCookie: flowCookie(bind, c.secure) };
}

/** credentials.login's scopes, else the face's; none at all: no scope parameter. */
function scopesOf(login: readonly string[] | undefined, face: readonly string[] | undefined): { scopes?: string[] } {
  const scopes = login !== undefined && login.length > 0 ? login : face;
  return scopes === undefined || scopes.length === 0 ? {} : { scopes: [...scopes] };
}
