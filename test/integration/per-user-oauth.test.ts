// A per-user OAuth server (`auth: { perUser: true }`, issue 33) behind the gateway's real HTTP face:
// a real authorization server (oidc-provider) signs alice's and bob's access tokens, the protected
// MCP fixture verifies them and answers with the token's subject. Each user's calls carry their own
// token, never another's; a user without tokens is asked to connect; a token the server revokes is
// dropped and the user asked again. The browser flow that gets the tokens is h33-connect's and
// h33-e2e's: here the test stores them as the connect page would.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app/app.js';
import type { Credential, CredentialStore } from '../../src/state/credentials.js';
import { openCredentialStore } from '../../src/state/open-credentials.js';
import { type AuthServer, startAuthServer } from '../fixtures/oauth/auth-server.js';
import { type ProtectedServer, startProtectedServer } from '../fixtures/oauth/protected-server.js';
import { FakeConnectPages } from '../helpers/connect-pages.js';
import { httpConfig, listenWithCredentials } from '../helpers/per-user-app.js';
import { cleanup, trackClosable } from '../helpers/index.js';

const TOKENS = { alice: 'alice-gateway-token', bob: 'bob-gateway-token' };

let as: AuthServer;
let mcp: ProtectedServer;
let store: CredentialStore;
let pages: FakeConnectPages;
let app: App;
let url: string;

/** What the connect page stores after the user's OAuth flow: their tokens for the server. */
async function oauthCredential(subject: string): Promise<Credential> {
  const accessToken = await as.mint({ sub: subject, aud: mcp.url, scope: 'mcp:read', client_id: 'switchboard' });
  const now = Date.now();
  return {
    kind: 'oauth',
    tokens: { accessToken, tokenType: 'Bearer', issuer: as.issuer, resource: mcp.url, grant: 'authorization_code', scopes: ['mcp:read'], expiresAt: now + 3_600_000, obtainedAt: now },
  };
}

async function client(user: keyof typeof TOKENS): Promise<Client> {
  const c = trackClosable(new Client({ name: `${user}-client`, version: '1.0.0' }, { capabilities: {} }));
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKENS[user]}` } } }));
  return c;
}

const text = (r: unknown) => (r as { content: { text: string }[] }).content[0]!.text;

beforeAll(async () => {
  const resources: Record<string, { scopes: string[] }> = {};
  as = await startAuthServer({ resources });
  mcp = await startProtectedServer({ issuer: as.issuer, requiredScopes: ['mcp:read'] });
  resources[mcp.url] = { scopes: ['mcp:read'] };
  store = await openCredentialStore({ file: join(mkdtempSync(join(tmpdir(), 'sb-per-user-oauth-')), 'credentials.json'), env: { SWITCHBOARD_CREDENTIALS_KEY: randomBytes(32).toString('base64') } });
  await store.put('profile:alice', 'notes', await oauthCredential('alice'));
  pages = new FakeConnectPages(store);
  const parsed = httpConfig({
    listen: { host: '127.0.0.1', port: 0 },
    clients: Object.entries(TOKENS).map(([name, token]) => ({ name, token })),
    servers: [{ name: 'notes', url: mcp.url, auth: { type: 'oauth', perUser: true } }],
  });
  ({ app, url } = await listenWithCredentials(parsed, store, pages));
}, 30_000);

afterAll(async () => {
  await app?.close();
  await store?.close();
  await mcp?.close();
  await as?.close();
  await cleanup();
});

describe('a per-user OAuth server', () => {
  it('is listed with alice’s token, and each user’s calls carry their own token only', async () => {
    const alice = await client('alice');
    expect((await alice.listTools()).tools.map((t) => t.name)).toContain('notes__whoami');
    expect(text(await alice.callTool({ name: 'notes__whoami', arguments: {} }))).toMatch(/^alice /);

    const bob = await client('bob');
    const asked = (await bob.callTool({ name: 'notes__whoami', arguments: {} }).catch((e: unknown) => e)) as { code: number };
    expect(asked.code).toBe(-32042);
    const bobs = await oauthCredential('bob');
    await pages.connect('profile:bob', 'notes', bobs);
    expect(text(await bob.callTool({ name: 'notes__whoami', arguments: {} }))).toMatch(/^bob /);
    // The call went out with bob's token (his own connection: its handshake and the call).
    const bobToken = `Bearer ${(bobs as { tokens: { accessToken: string } }).tokens.accessToken}`;
    expect(mcp.seen.at(-1)).toBe(bobToken);
    const bobsSoFar = mcp.seen.filter((h) => h === bobToken).length;
    expect(text(await alice.callTool({ name: 'notes__whoami', arguments: {} }))).toMatch(/^alice /);
    // Alice's call carried hers: bob's token went out no more.
    expect(mcp.seen.at(-1)).not.toBe(bobToken);
    expect(mcp.seen.filter((h) => h === bobToken)).toHaveLength(bobsSoFar);
  });

  it('a token the server revokes is dropped (no refresh can mend it) and the user is asked to connect again', async () => {
    const bob = await client('bob');
    const record = await store.get('profile:bob', 'notes');
    const token = (record!.credential as { tokens: { accessToken: string } }).tokens.accessToken;
    mcp.reject(token);
    const asked = (await bob.callTool({ name: 'notes__whoami', arguments: {} }).catch((e: unknown) => e)) as { code: number; data: { elicitations: { url: string }[] } };
    expect(asked.code).toBe(-32042);
    expect(asked.data.elicitations[0]!.url).toBe(pages.links.at(-1)!.url);
    expect(await store.get('profile:bob', 'notes')).toBeUndefined();
    // Alice is untouched.
    const alice = await client('alice');
    expect(text(await alice.callTool({ name: 'notes__whoami', arguments: {} }))).toMatch(/^alice /);
  });
});
