// Find who issues tokens for an MCP server: RFC 9728 protected-resource metadata (the URL in the
// challenge, else the path-aware then the root well-known URI), then RFC 8414 / OpenID discovery
// of the authorization server in the spec's order. Invariants: an AS document is used only when
// its `issuer` equals the issuer we asked about (oauth4webapi checks it), a PRM only when its
// `resource` covers the server's URL, and plain http only ever to a loopback host.

import * as oauth from 'oauth4webapi';
import type { FetchLike } from './types.js';

export interface ResourceInfo {
  /** The RFC 8707 `resource` value to send: the PRM's resource, else the canonical server URL. */
  resource: string;
  /** Where the PRM came from (undefined: no PRM, 2025-03-26 fallback). */
  prmUrl?: string;
  authorizationServers: string[];
  scopesSupported?: string[];
}

export interface Discovered extends ResourceInfo {
  as: oauth.AuthorizationServer;
  /** The AS is http on a loopback host (tests, local development). */
  insecure: boolean;
}

const TIMEOUT_MS = 10_000;

export class DiscoveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DiscoveryError';
  }
}

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** https anywhere, http only to loopback: the spec requires TLS for every AS endpoint. */
export function assertSecureUrl(url: string, what: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new DiscoveryError(`${what} is not a valid URL`);
  }
  if (u.protocol === 'https:') return u;
  if (u.protocol === 'http:' && isLoopbackHost(u.hostname)) return u;
  throw new DiscoveryError(`${what} must use https (${u.protocol}//${u.host})`);
}

/** RFC 8707 canonical form: no fragment, no query, no trailing slash on an empty path. */
export function canonicalResource(url: string): string {
  const u = new URL(url);
  u.hash = '';
  u.search = '';
  const s = u.href;
  return u.pathname === '/' ? s.replace(/\/$/, '') : s;
}

/** The PRM well-known URIs for a server URL, in the spec's order: path-aware first, then root. */
export function prmWellKnownUrls(serverUrl: string): string[] {
  const u = new URL(serverUrl);
  const path = u.pathname.replace(/\/$/, '');
  const root = `${u.origin}/.well-known/oauth-protected-resource`;
  return path && path !== '' ? [`${root}${path}`, root] : [root];
}

/** AS metadata URLs for an issuer, in the spec's order (path insertion first). */
export function asMetadataUrls(issuer: string): string[] {
  const u = new URL(issuer);
  const path = u.pathname.replace(/\/$/, '');
  if (!path) {
    return [`${u.origin}/.well-known/oauth-authorization-server`, `${u.origin}/.well-known/openid-configuration`];
  }
  return [`${u.origin}/.well-known/oauth-authorization-server${path}`, `${u.origin}/.well-known/openid-configuration${path}`, `${u.origin}${path}/.well-known/openid-configuration`];
}

/** The PRM's resource must name this server: same origin, and a path prefix of the server URL. */
export function resourceCovers(resource: string, serverUrl: string): boolean {
  let r: URL, s: URL;
  try {
    r = new URL(resource);
    s = new URL(serverUrl);
  } catch {
    return false;
  }
  if (r.origin !== s.origin || r.hash) return false;
  const rp = r.pathname.replace(/\/$/, '');
  const sp = s.pathname.replace(/\/$/, '');
  return rp === '' || sp === rp || sp.startsWith(`${rp}/`);
}

async function get(fetchFn: FetchLike, url: string): Promise<Response> {
  return fetchFn(url, { headers: { accept: 'application/json' }, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
}

/** RFC 9728 discovery. Returns undefined when no PRM exists anywhere (a 2025-03-26 server). */
export async function discoverResource(serverUrl: string, resourceMetadataUrl: string | undefined, fetchFn: FetchLike): Promise<ResourceInfo | undefined> {
  const candidates = resourceMetadataUrl ? [resourceMetadataUrl] : prmWellKnownUrls(serverUrl);
  for (const url of candidates) {
    assertSecureUrl(url, 'protected resource metadata URL');
    const res = await get(fetchFn, url);
    if (!res.ok) {
      await res.body?.cancel();
      if (resourceMetadataUrl) throw new DiscoveryError(`protected resource metadata: HTTP ${res.status}`);
      continue;
    }
    let doc: Record<string, unknown>;
    try {
      doc = (await res.json()) as Record<string, unknown>;
    } catch {
      throw new DiscoveryError('protected resource metadata is not JSON');
    }
    if (typeof doc.resource !== 'string') throw new DiscoveryError('protected resource metadata has no resource');
    if (!resourceCovers(doc.resource, serverUrl)) {
      throw new DiscoveryError(`protected resource metadata names another resource (${safeOrigin(doc.resource)}); refusing to authorize`);
    }
    const servers = Array.isArray(doc.authorization_servers) ? doc.authorization_servers.filter((x): x is string => typeof x === 'string') : [];
    if (servers.length === 0) throw new DiscoveryError('protected resource metadata lists no authorization_servers');
    const scopes = Array.isArray(doc.scopes_supported) ? doc.scopes_supported.filter((x): x is string => typeof x === 'string') : undefined;
    const info: ResourceInfo = { resource: doc.resource, prmUrl: url, authorizationServers: servers };
    if (scopes) info.scopesSupported = scopes;
    return info;
  }
  return undefined;
}

/** RFC 8414 / OIDC discovery; `legacy` also accepts the 2025-03-26 default endpoints. */
export async function discoverAuthServer(issuer: string, fetchFn: FetchLike, options: { legacy?: boolean } = {}): Promise<{ as: oauth.AuthorizationServer; insecure: boolean }> {
  const issuerUrl = assertSecureUrl(issuer, 'authorization server issuer');
  const insecure = issuerUrl.protocol === 'http:';
  for (const url of asMetadataUrls(issuer)) {
    const res = await get(fetchFn, url);
    if (!res.ok) {
      await res.body?.cancel();
      continue;
    }
    try {
      // Validates that the document's issuer is exactly the issuer we asked about.
      const as = await oauth.processDiscoveryResponse(new URL(issuer), res);
      // oauth4webapi compares normalized URLs; RFC 8414 §3.3 wants the identical string.
      if (as.issuer !== issuer) throw new Error('"issuer" is not identical to the issuer asked about');
      return { as, insecure };
    } catch (err) {
      throw new DiscoveryError(`authorization server metadata at ${redact(url)} is unusable: ${(err as Error).message}`);
    }
  }
  if (options.legacy) {
    const origin = issuerUrl.origin;
    return {
      insecure,
      as: {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        code_challenge_methods_supported: ['S256'],
      },
    };
  }
  throw new DiscoveryError(`no authorization server metadata for ${issuerUrl.origin}${issuerUrl.pathname.replace(/\/$/, '')}`);
}

/** PRM then AS metadata, with the 2025-03-26 fallback (the server's origin is its own AS). */
export async function discover(serverUrl: string, resourceMetadataUrl: string | undefined, fetchFn: FetchLike): Promise<Discovered> {
  const info = await discoverResource(serverUrl, resourceMetadataUrl, fetchFn);
  if (info) {
    const { as, insecure } = await discoverAuthServer(info.authorizationServers[0]!, fetchFn);
    return { ...info, as, insecure };
  }
  const origin = new URL(serverUrl).origin;
  const { as, insecure } = await discoverAuthServer(origin, fetchFn, { legacy: true });
  return { resource: canonicalResource(serverUrl), authorizationServers: [origin], as, insecure };
}

function redact(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'an invalid URL';
  }
}
