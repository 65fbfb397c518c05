// The gateway's own face as an OAuth protected resource, with tokens from a real AS
// (oidc-provider): JWT access tokens bound to a resource, and opaque ones read by introspection.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuthAuthenticator, matchProfile } from '../../src/inbound/auth/index.js';
import { bearerChallenge } from '../../src/outbound/auth/challenge.js';
import { clientCredentialsToken, startAuthServer, type AuthServer } from '../fixtures/oauth/auth-server.js';

const gateway = 'http://127.0.0.1:7777/mcp'; // the resource identifier; nothing needs to listen there
const elsewhere = 'http://127.0.0.1:7778/mcp';
const opaque = 'http://127.0.0.1:7779/mcp';
let as: AuthServer;

beforeAll(async () => {
  as = await startAuthServer({
    resources: {
      [gateway]: { scopes: ['mcp:read', 'mcp:admin'] },
      [elsewhere]: { scopes: ['mcp:read'] },
      [opaque]: { scopes: ['mcp:read'], format: 'opaque' },
    },
    clients: [
      { client_id: 'agent', client_secret: 'agent-secret', grant_types: ['client_credentials'], redirect_uris: [], response_types: [] },
      { client_id: 'gateway-introspector', client_secret: 'introspector-secret', grant_types: [], redirect_uris: [], response_types: [] },
    ],
  });
});
afterAll(() => as?.close());

/** A token of the pre-registered confidential client `agent`. */
const tokenFor = (resource: string, scope: string) => clientCredentialsToken(as, { client: 'agent', secret: 'agent-secret', resource, scope });

describe('inbound OAuth with a real authorization server', () => {
  it('accepts a JWT issued for the gateway (JWKS found through OIDC discovery) and matches a profile by scope', async () => {
    const authenticate = createOAuthAuthenticator({ issuer: as.issuer, requiredScopes: ['mcp:read'] }, { resourceUrl: gateway });
    const r = await authenticate(`Bearer ${await tokenFor(gateway, 'mcp:read mcp:admin')}`);
    expect(r).toMatchObject({ ok: true, principal: 'agent' });
    if (!r.ok) return;
    expect(r.scopes).toEqual(expect.arrayContaining(['mcp:read', 'mcp:admin']));
    expect(
      matchProfile(r.claims, [
        { name: 'readers', match: { scope: 'mcp:read' } },
        { name: 'admins', match: { scope: ['mcp:admin'] } },
      ])?.name,
    ).toBe('readers');
  });

  it('refuses a genuine token issued for another resource (audience binding): 401 invalid_token', async () => {
    const authenticate = createOAuthAuthenticator({ issuer: as.issuer }, { resourceUrl: gateway });
    const r = await authenticate(`Bearer ${await tokenFor(elsewhere, 'mcp:read')}`);
    expect(r).toMatchObject({ ok: false, status: 401 });
    expect(bearerChallenge((r as { wwwAuthenticate: string }).wwwAuthenticate)).toMatchObject({
      error: 'invalid_token',
      resourceMetadata: 'http://127.0.0.1:7777/.well-known/oauth-protected-resource/mcp',
    });
  });

  it('a token without the required scope: 403 insufficient_scope naming it', async () => {
    const authenticate = createOAuthAuthenticator({ issuer: as.issuer, requiredScopes: ['mcp:admin'] }, { resourceUrl: gateway });
    const r = await authenticate(`Bearer ${await tokenFor(gateway, 'mcp:read')}`);
    expect(r).toMatchObject({ ok: false, status: 403 });
    expect(bearerChallenge((r as { wwwAuthenticate: string }).wwwAuthenticate)).toMatchObject({ error: 'insufficient_scope', scope: ['mcp:admin'] });
  });

  it('reads an opaque token through the AS introspection endpoint', async () => {
    const authenticate = createOAuthAuthenticator(
      { issuer: as.issuer, requiredScopes: ['mcp:read'], introspection: { url: `${as.issuer}/token/introspection`, clientId: 'gateway-introspector', clientSecret: 'introspector-secret' } },
      { resourceUrl: opaque },
    );
    const t = await tokenFor(opaque, 'mcp:read');
    expect(t.split('.')).toHaveLength(1); // really opaque
    expect(await authenticate(`Bearer ${t}`)).toMatchObject({ ok: true, principal: 'agent' });
    expect(await authenticate('Bearer not-a-token-the-as-issued')).toMatchObject({ ok: false, status: 401 });
  });
});
