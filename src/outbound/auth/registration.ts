// Which client identity the gateway presents to an authorization server, in the spec's order:
// a pre-registered clientId from config, else a Client ID Metadata Document URL when the AS
// supports CIMD, else a client registered earlier with this same issuer, else RFC 7591 dynamic
// registration (stored per issuer: credentials never travel to another AS).

import { createPrivateKey } from 'node:crypto';
import { importPKCS8 } from 'jose';
import * as oauth from 'oauth4webapi';
import type { FetchLike, OAuthConfig } from './types.js';
import type { StoredClient, TokenStore } from './token-store.js';

export type ClientSource = 'preregistered' | 'cimd' | 'registered' | 'dynamic';

export interface ClientIdentity {
  client: oauth.Client;
  auth: oauth.ClientAuth;
  source: ClientSource;
  clientId: string;
}

export class RegistrationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RegistrationError';
  }
}

export const CLIENT_NAME = 'Switchboard MCP gateway';

/** The method to authenticate a confidential client when the AS did not say which. */
export function pickSecretMethod(as: oauth.AuthorizationServer): 'client_secret_basic' | 'client_secret_post' {
  // RFC 8414: absent means client_secret_basic.
  const supported = as.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  if (supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  return 'client_secret_basic';
}

/**
 * client_secret_basic with WHATWG form-urlencoding of id and secret (RFC 6749 §2.3.1).
 * oauth4webapi also escapes `-._~` and friends, which ASes that skip the decode step (the
 * conformance suite's among them) then compare literally and refuse.
 */
function secretBasic(secret: string): oauth.ClientAuth {
  const enc = (v: string) => new URLSearchParams({ v }).toString().slice(2);
  return (_as, client, _body, headers) => {
    headers.set('authorization', `Basic ${Buffer.from(`${enc(client.client_id)}:${enc(secret)}`).toString('base64')}`);
  };
}

export function clientAuthFor(method: string, secret: string | undefined): oauth.ClientAuth {
  if (method === 'client_secret_basic' && secret) return secretBasic(secret);
  if (method === 'client_secret_post' && secret) return oauth.ClientSecretPost(secret);
  return oauth.None();
}

function identity(clientId: string, method: string, secret: string | undefined, source: ClientSource): ClientIdentity {
  return { client: { client_id: clientId, token_endpoint_auth_method: method }, auth: clientAuthFor(method, secret), source, clientId };
}

const portless = (uri: string) => {
  try {
    const u = new URL(uri);
    u.port = '';
    return u.href;
  } catch {
    return uri;
  }
};

export interface ObtainClientOptions {
  config: OAuthConfig;
  as: oauth.AuthorizationServer;
  store: TokenStore;
  /** The loopback redirect URI of this login; absent for refresh and client credentials. */
  redirectUri?: string;
  insecure: boolean;
  fetch?: FetchLike;
  now?: () => number;
  /** May a new client be registered now (false on refresh: use what exists). */
  allowRegistration?: boolean;
  /** RFC 7591 / OIDC application_type to register (default native: a loopback redirect); web for a page on a public URL. */
  applicationType?: 'native' | 'web';
}

export async function obtainClient(o: ObtainClientOptions): Promise<ClientIdentity> {
  const { config, as } = o;
  if (config.clientId && config.clientPrivateKey) {
    const alg = config.clientPrivateKeyAlg ?? algorithmOf(config.clientPrivateKey);
    const key = await importPKCS8(config.clientPrivateKey, alg);
    return { client: { client_id: config.clientId, token_endpoint_auth_method: 'private_key_jwt' }, auth: oauth.PrivateKeyJwt(key), source: 'preregistered', clientId: config.clientId };
  }
  if (config.clientId) {
    const method = config.tokenEndpointAuthMethod ?? (config.clientSecret ? pickSecretMethod(as) : 'none');
    return identity(config.clientId, method, config.clientSecret, 'preregistered');
  }
  if (config.clientMetadataUrl && as.client_id_metadata_document_supported === true) {
    return identity(config.clientMetadataUrl, 'none', undefined, 'cimd');
  }
  const known = await o.store.getClient(as.issuer);
  // RFC 8252 §7.3: a loopback redirect may change port; anything else means a new registration.
  if (known && (!o.redirectUri || (known.redirectUris ?? []).some((r) => portless(r) === portless(o.redirectUri!)))) {
    return identity(known.clientId, known.tokenEndpointAuthMethod, known.clientSecret, 'registered');
  }
  if (o.allowRegistration === false) throw new RegistrationError('no client is registered with this authorization server');
  if (!as.registration_endpoint) {
    throw new RegistrationError('the authorization server offers neither Client ID Metadata Documents nor dynamic registration: configure auth.clientId');
  }
  if (!o.redirectUri) throw new RegistrationError('dynamic registration needs a redirect URI (interactive login)');
  const supported = as.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  const requested = supported.includes('none') ? 'none' : pickSecretMethod(as);
  const metadata = {
    client_name: CLIENT_NAME,
    redirect_uris: [o.redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: requested,
    application_type: o.applicationType ?? 'native',
  };
  let registered: Record<string, unknown>;
  try {
    const res = await oauth.dynamicClientRegistrationRequest(as, metadata, {
      ...(o.fetch ? { [oauth.customFetch]: o.fetch } : {}),
      ...(o.insecure ? { [oauth.allowInsecureRequests]: true } : {}),
      signal: AbortSignal.timeout(15_000),
    });
    registered = await readRegistration(res);
  } catch (err) {
    throw new RegistrationError(`dynamic client registration failed (${(err as Error).message})`, { cause: err });
  }
  const secret = typeof registered.client_secret === 'string' ? registered.client_secret : undefined;
  const method = typeof registered.token_endpoint_auth_method === 'string' ? registered.token_endpoint_auth_method : requested;
  const stored: StoredClient = {
    clientId: registered.client_id as string,
    tokenEndpointAuthMethod: method,
    redirectUris: Array.isArray(registered.redirect_uris) ? (registered.redirect_uris as string[]) : [o.redirectUri],
    issuer: as.issuer,
    registeredAt: (o.now ?? Date.now)(),
  };
  if (secret) stored.clientSecret = secret;
  await o.store.setClient(as.issuer, stored);
  return identity(stored.clientId, method, secret, 'dynamic');
}

/**
 * RFC 7591 §3.2.1 response, read leniently: oauth4webapi insists on client_secret_expires_at
 * beside a secret, which deployed ASes (and the MCP conformance suite's) omit.
 */
async function readRegistration(res: Response): Promise<Record<string, unknown>> {
  const body = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (res.status !== 201 && res.status !== 200) {
    const code = typeof body?.error === 'string' ? body.error : `HTTP ${res.status}`;
    const desc = typeof body?.error_description === 'string' ? `: ${body.error_description}` : '';
    throw new Error(`${code}${desc}`);
  }
  if (!body || typeof body.client_id !== 'string' || body.client_id === '') throw new Error('response has no client_id');
  if (body.client_secret !== undefined && typeof body.client_secret !== 'string') throw new Error('client_secret is not a string');
  return body;
}

/** The JWS algorithm a PKCS#8 key signs with, from its type and curve. */
export function algorithmOf(pem: string): string {
  const key = createPrivateKey(pem);
  const type = key.asymmetricKeyType;
  if (type === 'rsa') return 'RS256';
  if (type === 'ed25519') return 'EdDSA';
  if (type === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'secp384r1') return 'ES384';
    if (curve === 'secp521r1') return 'ES512';
    return 'ES256';
  }
  throw new RegistrationError(`unsupported client key type ${type ?? 'unknown'}: set auth.clientPrivateKeyAlg`);
}
