// The built gateway behind an identity provider (listen.auth): the official SDK client (v1, with
// its OAuth support) logs in through a real AS (oidc-provider) and connects; each bad token gets
// the spec's status and WWW-Authenticate; profiles are picked by claims; static tokens keep
// working beside OAuth; the protected-resource metadata is served where clients look for it; a
// 2026-07-28 client (SDK v2, client credentials) gets in through the same AS with stateless requests.

import { Client as StatelessClient, ClientCredentialsProvider, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerChallenge } from '../../src/outbound/auth/challenge.js';
import { cleanup, connectHttpClient, fixtureServer, startGateway, trackClosable, yamlServers, type HttpGateway } from '../helpers/index.js';
import { clientCredentialsToken, startAuthServer, type AuthServer } from '../fixtures/oauth/auth-server.js';
import { followRedirects } from '../fixtures/oauth/browser.js';

const STATIC = 'static-operator-token-0123456789';
const resources: Record<string, { scopes: string[] }> = {};
let as: AuthServer;
let gw: HttpGateway;
let prmUrl: string;

beforeAll(async () => {
  as = await startAuthServer({
    resources,
    clients: [
      { client_id: 'agent', client_secret: 'agent-secret', grant_types: ['client_credentials'], redirect_uris: [], response_types: [] },
      { client_id: 'robot', client_secret: 'robot-secret', grant_types: ['client_credentials'], redirect_uris: [], response_types: [] },
      { client_id: 'gateway-introspector', client_secret: 'introspector-secret', grant_types: [], redirect_uris: [], response_types: [] },
    ],
  });
  gw = await startGateway(
    yamlServers([fixtureServer('echo', 'echo')], {
      listen: { auth: { issuer: as.issuer, requiredScopes: ['mcp:read'] } },
      clients: [
        { name: 'ops', token: STATIC, operator: true },
        { name: 'admins', match: { scope: 'mcp:admin' }, operator: true },
        { name: 'readers', match: { sub: 'user-*' }, tools: { allow: ['echo__echo'] } },
        { name: 'robots', match: { sub: 'robot' }, tools: { allow: ['echo__echo'] } },
      ],
    }),
  );
  // The gateway's URL is its resource identifier: the AS issues tokens for it from now on.
  resources[gw.url] = { scopes: ['mcp:read', 'mcp:admin'] };
  resources['http://127.0.0.1:9/elsewhere'] = { scopes: ['mcp:read'] };
  prmUrl = `${new URL(gw.url).origin}/.well-known/oauth-protected-resource/mcp`;
});

afterAll(async () => {
  await cleanup();
  await as?.close();
});

/** A token of the pre-registered confidential client `agent`. */
const clientCredentials = (resource: string, scope: string) => clientCredentialsToken(as, { client: 'agent', secret: 'agent-secret', resource, scope });

/** An initialize POSTed with this Authorization header: the status and the challenge. */
async function initialize(authorization?: string) {
  const res = await fetch(gw.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
  });
  await res.arrayBuffer();
  const www = res.headers.get('www-authenticate') ?? undefined;
  return { status: res.status, www, challenge: bearerChallenge(www) };
}

const toolNames = async (c: Client) => (await c.listTools()).tools.map((t) => t.name).sort();

describe('protected resource metadata (RFC 9728)', () => {
  it('is served at the path-suffixed and the root well-known URI, without a token', async () => {
    for (const url of [prmUrl, `${new URL(gw.url).origin}/.well-known/oauth-protected-resource`]) {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ resource: gw.url, authorization_servers: [as.issuer], scopes_supported: ['mcp:read'], bearer_methods_supported: ['header'] });
    }
  });
});

describe('refusals: the spec status and WWW-Authenticate', () => {
  it('no token: 401 naming the metadata and the scope to ask for, no error code', async () => {
    const r = await initialize();
    expect(r.status).toBe(401);
    expect(r.challenge).toEqual({ resourceMetadata: prmUrl, scope: ['mcp:read'] });
  });

  it('a genuine token for another resource (wrong audience): 401 invalid_token', async () => {
    const r = await initialize(`Bearer ${await clientCredentials('http://127.0.0.1:9/elsewhere', 'mcp:read')}`);
    expect(r.status).toBe(401);
    expect(r.challenge).toMatchObject({ resourceMetadata: prmUrl, error: 'invalid_token', errorDescription: 'token is not for this resource' });
  });

  it('an expired token: 401 invalid_token', async () => {
    const past = Math.floor(Date.now() / 1000) - 3600;
    const r = await initialize(`Bearer ${await as.mint({ aud: gw.url, sub: 'user-1', scope: 'mcp:read', iat: past - 60, exp: past })}`);
    expect(r.status).toBe(401);
    expect(r.challenge).toMatchObject({ error: 'invalid_token', errorDescription: 'token expired' });
  });

  it('a token from another issuer (signed with the right key): 401 invalid_token', async () => {
    const r = await initialize(`Bearer ${await as.mint({ iss: 'http://127.0.0.1:9', aud: gw.url, sub: 'user-1', scope: 'mcp:read' })}`);
    expect(r.status).toBe(401);
    expect(r.challenge).toMatchObject({ error: 'invalid_token', errorDescription: 'token is from another issuer' });
  });

  it('a token signed with another key: 401 invalid_token', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const now = Math.floor(Date.now() / 1000);
    const forged = await new SignJWT({ iss: as.issuer, aud: gw.url, sub: 'user-1', scope: 'mcp:read mcp:admin', iat: now, exp: now + 600 })
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
      .sign(privateKey);
    const r = await initialize(`Bearer ${forged}`);
    expect(r.status).toBe(401);
    expect(r.challenge).toMatchObject({ error: 'invalid_token', errorDescription: 'token signature is invalid' });
  });

  it('a token without the required scope: 403 insufficient_scope naming it', async () => {
    const r = await initialize(`Bearer ${await clientCredentials(gw.url, 'mcp:admin')}`);
    expect(r.status).toBe(403);
    expect(r.challenge).toMatchObject({ resourceMetadata: prmUrl, error: 'insufficient_scope', scope: ['mcp:read'] });
  });

  it('a valid token that no profile matches, when profiles match by claims: 403', async () => {
    // client credentials: sub is the client id "agent", no mcp:admin, so neither admins nor readers.
    const r = await initialize(`Bearer ${await clientCredentials(gw.url, 'mcp:read')}`);
    expect(r.status).toBe(403);
    expect(r.challenge).toMatchObject({ error: 'insufficient_scope', errorDescription: 'no client profile matches this token' });
  });
});

describe('profiles by claims, static tokens beside OAuth', () => {
  it('a token with mcp:admin gets the admins profile: the whole catalog and /status', async () => {
    const token = await clientCredentials(gw.url, 'mcp:read mcp:admin');
    const client = await connectHttpClient(gw.url, { headers: { authorization: `Bearer ${token}` } });
    expect(await toolNames(client)).toEqual(['echo__add', 'echo__echo']);
    const status = await fetch(`${new URL(gw.url).origin}/status`, { headers: { authorization: `Bearer ${token}` } });
    expect(status.status).toBe(200);
  });

  it('a static client token still works, without asking the AS', async () => {
    const client = await connectHttpClient(gw.url, { headers: { authorization: `Bearer ${STATIC}` } });
    expect(await toolNames(client)).toEqual(['echo__add', 'echo__echo']);
  });

  it('a session opened with one token cannot be used with another principal’s token', async () => {
    const admin = await clientCredentials(gw.url, 'mcp:read mcp:admin');
    const init = await fetch(gw.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${STATIC}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    await init.arrayBuffer();
    const session = init.headers.get('mcp-session-id')!;
    const res = await fetch(gw.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${admin}`, 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    await res.arrayBuffer();
    expect(res.status).toBe(403);
  });
});

/** The SDK's OAuth client side, in memory; the "browser" follows redirects up to our redirect URI. */
class TestProvider implements OAuthClientProvider {
  redirectUrl = 'http://127.0.0.1:9/callback';
  clientMetadata: OAuthClientMetadata = {
    client_name: 'sdk-test',
    redirect_uris: [this.redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  code?: string;
  clientInformation = () => this.info;
  saveClientInformation = (i: OAuthClientInformationMixed) => void (this.info = i);
  tokens = () => this.saved;
  saveTokens = (t: OAuthTokens) => void (this.saved = t);
  saveCodeVerifier = (v: string) => void (this.verifier = v);
  codeVerifier = () => this.verifier;
  async redirectToAuthorization(url: URL) {
    const visit = await followRedirects(url.href, 20, this.redirectUrl);
    this.code = new URL(visit.url).searchParams.get('code') ?? undefined;
  }
}

describe('the official SDK client logs in through the AS and connects', () => {
  it('401 → metadata → registration → PKCE → token for the gateway → connected as the readers profile', async () => {
    const provider = new TestProvider();
    const first = new StreamableHTTPClientTransport(new URL(gw.url), { authProvider: provider });
    const client = trackClosable(new Client({ name: 'sdk-oauth', version: '1.0.0' }));
    await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.code).toBeDefined();
    await first.finishAuth(provider.code!);
    expect(provider.saved?.access_token).toBeDefined();
    const payload = JSON.parse(Buffer.from(provider.saved!.access_token.split('.')[1]!, 'base64url').toString());
    expect(payload).toMatchObject({ iss: as.issuer, aud: gw.url, sub: 'user-1' });

    const connected = trackClosable(new Client({ name: 'sdk-oauth', version: '1.0.0' }));
    await connected.connect(new StreamableHTTPClientTransport(new URL(gw.url), { authProvider: provider }));
    expect(await toolNames(connected)).toEqual(['echo__echo']); // readers: sub user-*, echo only
    const r = await connected.callTool({ name: 'echo__echo', arguments: { text: 'through OAuth' } });
    expect((r.content as { text: string }[])[0]!.text).toBe('through OAuth');
    expect(gw.stderrLines.join('\n')).not.toContain(provider.saved!.access_token);
  });
});

describe('opaque tokens through introspection (RFC 7662)', () => {
  it('a gateway configured with introspection accepts the opaque tokens the AS issued for it, and only those', async () => {
    const opaque = await startGateway(
      yamlServers([fixtureServer('echo', 'echo')], {
        listen: {
          auth: { issuer: as.issuer, requiredScopes: ['mcp:read'], introspection: { url: `${as.issuer}/token/introspection`, clientId: 'gateway-introspector', clientSecret: 'introspector-secret' } },
        },
      }),
    );
    resources[opaque.url] = { scopes: ['mcp:read'], format: 'opaque' };
    const token = await clientCredentials(opaque.url, 'mcp:read');
    expect(token.split('.')).toHaveLength(1); // not a JWT
    const client = await connectHttpClient(opaque.url, { headers: { authorization: `Bearer ${token}` } });
    expect(await toolNames(client)).toEqual(['echo__add', 'echo__echo']); // no profile matches: the whole catalog
    const res = await fetch(opaque.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer not-a-token-the-as-issued' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    await res.arrayBuffer();
    expect(res.status).toBe(401);
    expect(bearerChallenge(res.headers.get('www-authenticate') ?? undefined)).toMatchObject({ error: 'invalid_token' });
    await opaque.stop();
  });
});

describe('a 2026-07-28 client (SDK v2) with OAuth client credentials, stateless requests', () => {
  it('no token: a stateless request gets 401 with the metadata URL; the SDK then finds the AS, gets a token for the gateway and is served as its profile', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };
    const bare = await fetch(gw.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }) });
    await bare.arrayBuffer();
    expect(bare.status).toBe(401);
    expect(bearerChallenge(bare.headers.get('www-authenticate') ?? undefined)).toEqual({ resourceMetadata: prmUrl, scope: ['mcp:read'] });

    const grants = as.counts.token.client_credentials ?? 0;
    // The SDK asks for the scope of the gateway's challenge (mcp:read); the robots profile takes it by sub.
    const provider = new ClientCredentialsProvider({ clientId: 'robot', clientSecret: 'robot-secret', expectedIssuer: as.issuer });
    const client = trackClosable(new StatelessClient({ name: 'sdk-v2-oauth', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } }));
    await client.connect(new ModernTransport(new URL(gw.url), { authProvider: provider }));
    expect((as.counts.token.client_credentials ?? 0) - grants).toBe(1);
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(tools).toEqual(['echo__echo']); // robots: echo only
    const r = await client.callTool({ name: 'echo__echo', arguments: { text: 'stateless, with a token' } });
    expect((r.content as { text: string }[])[0]!.text).toBe('stateless, with a token');
    const token = (await provider.tokens())!.access_token;
    expect(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())).toMatchObject({ iss: as.issuer, aud: gw.url, scope: 'mcp:read' });
    expect(gw.stderrLines.join('\n')).not.toContain(token);
  });
});
