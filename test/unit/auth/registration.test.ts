import type * as oauth from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import { obtainClient } from '../../../src/outbound/auth/registration.js';
import { MemoryTokenStore } from '../../../src/outbound/auth/token-store.js';

const base: oauth.AuthorizationServer = { issuer: 'http://127.0.0.1:4000', authorization_endpoint: 'http://127.0.0.1:4000/authorize', token_endpoint: 'http://127.0.0.1:4000/token' };

function registrar(reply: Record<string, unknown>) {
  const bodies: Record<string, unknown>[] = [];
  const fetchFn = async (_url: string | URL, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body)));
    return Response.json(reply, { status: 201 });
  };
  return { fetchFn, bodies };
}

describe('client registration priority (MCP client registration)', () => {
  it('a pre-registered clientId wins over everything, with the secret method the AS supports', async () => {
    const as = { ...base, registration_endpoint: 'x', client_id_metadata_document_supported: true, token_endpoint_auth_methods_supported: ['client_secret_post'] };
    const id = await obtainClient({ config: { type: 'oauth', clientId: 'pre', clientSecret: 's', clientMetadataUrl: 'https://me/cimd.json' }, as, store: new MemoryTokenStore(), insecure: true });
    expect(id).toMatchObject({ source: 'preregistered', clientId: 'pre' });
    expect(id.client.token_endpoint_auth_method).toBe('client_secret_post');
  });

  it('uses the Client ID Metadata Document URL when the AS supports CIMD, without registering', async () => {
    const { fetchFn, bodies } = registrar({ client_id: 'dcr' });
    const as = { ...base, registration_endpoint: 'http://127.0.0.1:4000/register', client_id_metadata_document_supported: true };
    const id = await obtainClient({
      config: { type: 'oauth', clientMetadataUrl: 'https://conformance-test.local/client-metadata.json' },
      as,
      store: new MemoryTokenStore(),
      redirectUri: 'http://127.0.0.1:5/callback',
      insecure: true,
      fetch: fetchFn,
    });
    expect(id).toMatchObject({ source: 'cimd', clientId: 'https://conformance-test.local/client-metadata.json' });
    expect(bodies).toHaveLength(0);
  });

  it('registers dynamically (native, loopback redirect, the method the AS takes) and reuses it per issuer across ports', async () => {
    const { fetchFn, bodies } = registrar({ client_id: 'dcr-1', client_secret: 'sec', token_endpoint_auth_method: 'client_secret_basic', redirect_uris: ['http://127.0.0.1:5/callback'] });
    const as = { ...base, registration_endpoint: 'http://127.0.0.1:4000/register', token_endpoint_auth_methods_supported: ['client_secret_basic'] };
    const store = new MemoryTokenStore();
    const first = await obtainClient({ config: { type: 'oauth' }, as, store, redirectUri: 'http://127.0.0.1:5/callback', insecure: true, fetch: fetchFn });
    expect(first).toMatchObject({ source: 'dynamic', clientId: 'dcr-1' });
    expect(bodies[0]).toMatchObject({
      application_type: 'native',
      redirect_uris: ['http://127.0.0.1:5/callback'],
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    expect((await store.getClient(as.issuer))?.clientSecret).toBe('sec');
    const again = await obtainClient({ config: { type: 'oauth' }, as, store, redirectUri: 'http://127.0.0.1:6/callback', insecure: true, fetch: fetchFn });
    expect(again).toMatchObject({ source: 'registered', clientId: 'dcr-1' });
    expect(bodies).toHaveLength(1);
    // Credentials from one AS are never offered to another.
    const other = { ...as, issuer: 'http://127.0.0.1:4001' };
    await obtainClient({ config: { type: 'oauth' }, as: other, store, redirectUri: 'http://127.0.0.1:6/callback', insecure: true, fetch: fetchFn });
    expect(bodies).toHaveLength(2);
  });

  it('registers a web client for the connect pages on a public URL (issue 33), native stays the default', async () => {
    const { fetchFn, bodies } = registrar({ client_id: 'web-1', token_endpoint_auth_method: 'none' });
    const as = { ...base, registration_endpoint: 'http://127.0.0.1:4000/register', token_endpoint_auth_methods_supported: ['none'] };
    const redirectUri = 'https://gw.example.com/connect/callback';
    const id = await obtainClient({ config: { type: 'oauth' }, as, store: new MemoryTokenStore(), redirectUri, insecure: true, fetch: fetchFn, applicationType: 'web' });
    expect(id).toMatchObject({ source: 'dynamic', clientId: 'web-1' });
    expect(bodies[0]).toMatchObject({ application_type: 'web', redirect_uris: [redirectUri] });
  });

  it('asks for a public client when the AS accepts "none"', async () => {
    const { fetchFn, bodies } = registrar({ client_id: 'pub' });
    const as = { ...base, registration_endpoint: 'http://127.0.0.1:4000/register', token_endpoint_auth_methods_supported: ['none'] };
    const id = await obtainClient({ config: { type: 'oauth' }, as, store: new MemoryTokenStore(), redirectUri: 'http://127.0.0.1:5/callback', insecure: true, fetch: fetchFn });
    expect(bodies[0]!.token_endpoint_auth_method).toBe('none');
    expect(id.client.token_endpoint_auth_method).toBe('none');
  });

  it('says to configure clientId when the AS offers no way to register', async () => {
    await expect(obtainClient({ config: { type: 'oauth' }, as: base, store: new MemoryTokenStore(), redirectUri: 'http://127.0.0.1:5/callback', insecure: true })).rejects.toThrow(/clientId/);
  });
});

describe('client_secret_basic', () => {
  it('form-urlencodes id and secret the WHATWG way: `-._*` and alphanumerics stay as they are', async () => {
    const { clientAuthFor } = await import('../../../src/outbound/auth/registration.js');
    const headers = new Headers();
    await clientAuthFor('client_secret_basic', 'se cr:et-1')(base, { client_id: 'pre-registered-client' }, new URLSearchParams(), headers);
    const decoded = Buffer.from(headers.get('authorization')!.replace(/^Basic /, ''), 'base64').toString();
    expect(decoded).toBe('pre-registered-client:se+cr%3Aet-1');
  });
});

describe('private_key_jwt (RFC 7523) for a pre-registered client', () => {
  it('signs a client assertion for the AS with the configured key, its algorithm taken from the key', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const { decodeJwt, decodeProtectedHeader } = await import('jose');
    const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const id = await obtainClient({ config: { type: 'oauth', clientId: 'svc', clientPrivateKey: pem, grant: 'client_credentials' }, as: base, store: new MemoryTokenStore(), insecure: true });
    const body = new URLSearchParams();
    await id.auth(base, id.client, body, new Headers());
    expect(body.get('client_assertion_type')).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    const assertion = body.get('client_assertion')!;
    expect(decodeProtectedHeader(assertion).alg).toBe('ES256');
    expect(decodeJwt(assertion)).toMatchObject({ iss: 'svc', sub: 'svc', aud: base.issuer });
  });
});
