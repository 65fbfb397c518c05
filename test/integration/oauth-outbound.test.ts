// The gateway as an OAuth client of a protected MCP server, over real HTTP: a real AS
// (oidc-provider), a protected MCP fixture, the loopback redirect driven by an HTTP client.

import { mkdtemp, rm, stat, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuthError, createServerAuth, FileTokenStore, login, logout, type ServerAuth, type ServerTarget } from '../../src/outbound/auth/index.js';
import { startAuthServer, type AuthServer } from '../fixtures/oauth/auth-server.js';
import { followRedirects } from '../fixtures/oauth/browser.js';
import { rpc } from '../fixtures/oauth/mcp-call.js';
import { startProtectedServer, type ProtectedServer } from '../fixtures/oauth/protected-server.js';

let as: AuthServer;
let mcp: ProtectedServer;
let dir: string;
const lines: string[] = [];
const logger = pino({ level: 'debug' }, new Writable({ write: (chunk, _enc, cb) => (lines.push(String(chunk)), cb()) }));
const browser = async (url: string) => void (await followRedirects(url));
const quiet = () => {};

beforeAll(async () => {
  const resources: Record<string, { scopes: string[] }> = {};
  as = await startAuthServer({
    resources, // filled in below: the resource URL exists once the server listens
    clients: [{ client_id: 'm2m', client_secret: 'm2m-secret-value', grant_types: ['client_credentials'], redirect_uris: [], response_types: [], token_endpoint_auth_method: 'client_secret_basic' }],
  });
  mcp = await startProtectedServer({ issuer: as.issuer, requiredScopes: ['mcp:read'], toolScopes: { write_note: ['mcp:write'], admin: ['mcp:admin'] } });
  resources[mcp.url] = { scopes: ['mcp:read', 'mcp:write'] };
});

afterAll(async () => {
  await mcp?.close();
  await as?.close();
});

let store: FileTokenStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sb-oauth-'));
  store = new FileTokenStore(join(dir, 'state', 'switchboard', 'tokens.json'));
});
/** Every secret any test stored: the last test checks that none reached a log line. */
const everySecret = new Set<string>(['m2m-secret-value']);
afterEach(async () => {
  const file = JSON.parse(await readFile(store.path, 'utf8').catch(() => '{"tokens":{},"clients":{}}'));
  for (const t of Object.values(file.tokens) as { accessToken: string; refreshToken?: string }[]) {
    everySecret.add(t.accessToken);
    if (t.refreshToken) everySecret.add(t.refreshToken);
  }
  for (const c of Object.values(file.clients) as { clientSecret?: string }[]) if (c.clientSecret) everySecret.add(c.clientSecret);
  await rm(dir, { recursive: true, force: true });
});

const target = (): ServerTarget => ({ name: 'notes', url: mcp.url });
const interactiveAuth = (extra: Partial<Parameters<typeof createServerAuth>[1]> = {}): ServerAuth =>
  createServerAuth(target(), { store, logger, interactive: true, openUrl: browser, print: quiet, ...extra });

async function tokensOf(): Promise<{ access: string; refresh?: string }> {
  const t = await store.getTokens('notes', mcp.url);
  return { access: t!.accessToken, refresh: t!.refreshToken };
}

describe('outbound OAuth: interactive login', () => {
  it('a 401 leads to discovery, dynamic registration, PKCE login through the loopback, then the call succeeds', async () => {
    const before = { ...as.counts, token: { ...as.counts.token } };
    const auth = interactiveAuth();
    expect(auth.state().status).toBe('none');
    const init = await rpc(mcp.url, auth, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } });
    expect(init.status).toBe(200);
    expect(init.body.result.serverInfo.name).toBe('protected-fixture');
    const call = await rpc(mcp.url, auth, 'tools/call', { name: 'whoami', arguments: {} });
    expect(call.body.result.content[0].text).toMatch(/^user-1 .*mcp:read/);
    expect(as.counts.register - before.register).toBe(1);
    expect(as.counts.authorize - before.authorize).toBe(1);
    expect((as.counts.token.authorization_code ?? 0) - (before.token.authorization_code ?? 0)).toBe(1);
    const s = auth.state();
    expect(s.status).toBe('ok');
    expect(s.issuer).toBe(as.issuer);
    expect(s.scopes).toContain('mcp:read');
    expect(s.expiresAt).toBeGreaterThan(Date.now());
  });

  it('stores tokens in a file only the user can read, in a directory only the user can enter', async () => {
    const auth = interactiveAuth();
    expect((await rpc(mcp.url, auth, 'tools/list')).status).toBe(200);
    const file = await stat(store.path);
    expect(file.mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'state', 'switchboard'))).mode & 0o777).toBe(0o700);
    const saved = JSON.parse(await readFile(store.path, 'utf8'));
    expect(Object.keys(saved.tokens)).toEqual([`notes ${mcp.url}`]);
  });

  it('a second gateway process reuses the stored token without touching the AS', async () => {
    expect((await rpc(mcp.url, interactiveAuth(), 'tools/list')).status).toBe(200);
    const before = JSON.stringify(as.counts);
    const again = createServerAuth(target(), { store: new FileTokenStore(store.path), interactive: false });
    await again.ready;
    expect(again.state().status).toBe('ok');
    expect((await rpc(mcp.url, again, 'tools/list')).status).toBe(200);
    expect(JSON.stringify(as.counts)).toBe(before);
  });
});

describe('outbound OAuth: refresh', () => {
  it('refreshes before expiry, once for many concurrent callers (single flight)', async () => {
    let now = Date.now();
    const auth = interactiveAuth({ now: () => now });
    expect((await rpc(mcp.url, auth, 'tools/list')).status).toBe(200);
    const first = await tokensOf();
    const refreshes = as.counts.token.refresh_token ?? 0;
    now = auth.state().expiresAt! + 1; // the fake clock says the token has expired
    const results = await Promise.all(Array.from({ length: 8 }, () => rpc(mcp.url, auth, 'tools/list')));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect((as.counts.token.refresh_token ?? 0) - refreshes).toBe(1);
    const second = await tokensOf();
    expect(second.access).not.toBe(first.access);
    expect(second.refresh).toBeDefined();
  });

  it('a 401 for a token the server no longer accepts is answered by one refresh, then the retry succeeds', async () => {
    const auth = interactiveAuth();
    expect((await rpc(mcp.url, auth, 'tools/list')).status).toBe(200);
    const refreshes = as.counts.token.refresh_token ?? 0;
    const authorizations = as.counts.authorize;
    mcp.reject((await tokensOf()).access);
    const results = await Promise.all([1, 2, 3].map(() => rpc(mcp.url, auth, 'tools/list')));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((as.counts.token.refresh_token ?? 0) - refreshes).toBe(1);
    expect(as.counts.authorize).toBe(authorizations); // no new login
  });

  it('a revoked refresh token puts the server in needs-login, and a non-interactive gateway says which server to log in', async () => {
    expect((await rpc(mcp.url, interactiveAuth(), 'tools/list')).status).toBe(200);
    const t = await tokensOf();
    await as.revokeRefreshToken(t.refresh!);
    mcp.reject(t.access);
    const daemon = createServerAuth(target(), { store, logger, interactive: false });
    const err = await rpc(mcp.url, daemon, 'tools/list').catch((e) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect(err.code).toBe('AUTH_REQUIRED');
    expect(err.message).toContain('"notes"');
    expect(err.message).toContain('switchboard login notes');
    expect(daemon.state().status).toBe('needs-login');
    expect(await store.getTokens('notes', mcp.url)).toBeUndefined();
  });

  it('after `switchboard login` elsewhere, a gateway in needs-login picks the new token up', async () => {
    const daemon = createServerAuth({ ...target(), auth: { type: 'oauth' } }, { store, interactive: false });
    await daemon.ready;
    expect(daemon.state().status).toBe('needs-login');
    const state = await login(target(), { store: new FileTokenStore(store.path), openUrl: browser, print: quiet });
    expect(state.status).toBe('ok');
    expect((await rpc(mcp.url, daemon, 'tools/list')).status).toBe(200);
    expect(daemon.state().status).toBe('ok');
    await logout(target(), { store });
    expect(await store.getTokens('notes', mcp.url)).toBeUndefined();
  });
});

describe('outbound OAuth: step-up on 403 insufficient_scope', () => {
  it('without a terminal: AUTH_REQUIRED naming the server and the union of scopes; the token keeps working', async () => {
    expect((await rpc(mcp.url, interactiveAuth(), 'tools/list')).status).toBe(200);
    const daemon = createServerAuth(target(), { store, interactive: false });
    const err = await rpc(mcp.url, daemon, 'tools/call', { name: 'write_note', arguments: {} }).catch((e) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect(err.code).toBe('AUTH_REQUIRED');
    expect(err.scopes).toEqual(expect.arrayContaining(['mcp:read', 'mcp:write']));
    expect(err.message).toMatch(/"notes".*mcp:read.*mcp:write/);
    expect(daemon.state().status).toBe('ok');
    expect((await rpc(mcp.url, daemon, 'tools/call', { name: 'whoami', arguments: {} })).status).toBe(200);
  });

  it('with a terminal: re-authorizes with previous ∪ challenged scopes and the retried call succeeds', async () => {
    const auth = interactiveAuth();
    expect((await rpc(mcp.url, auth, 'tools/list')).status).toBe(200);
    expect(auth.state().scopes).not.toContain('mcp:write');
    const authorizations = as.counts.authorize;
    const res = await rpc(mcp.url, auth, 'tools/call', { name: 'write_note', arguments: {} });
    expect(res.status).toBe(200);
    expect(res.body.result.content[0].text).toMatch(/mcp:read/);
    expect(as.counts.authorize - authorizations).toBe(1);
    expect(auth.state().scopes).toEqual(expect.arrayContaining(['mcp:read', 'mcp:write']));
    // The earlier permission survived the step-up.
    expect((await rpc(mcp.url, auth, 'tools/call', { name: 'whoami', arguments: {} })).status).toBe(200);
  });
});

describe('outbound OAuth: step-up retry limit', () => {
  it('a scope the AS never grants: one re-authorization, then a clear AUTH_FORBIDDEN, no loop', async () => {
    const auth = interactiveAuth();
    expect((await rpc(mcp.url, auth, 'tools/list')).status).toBe(200);
    const authorizations = as.counts.authorize;
    const forbidden = mcp.counts.forbidden;
    const err = await rpc(mcp.url, auth, 'tools/call', { name: 'admin', arguments: {} }).catch((e) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect(err.code).toBe('AUTH_FORBIDDEN');
    expect(err.message).toMatch(/"notes".*mcp:admin/);
    expect(as.counts.authorize - authorizations).toBeLessThanOrEqual(1);
    expect(mcp.counts.forbidden - forbidden).toBe(2);
    // Asking again does not start another login for the same scopes.
    await expect(rpc(mcp.url, auth, 'tools/call', { name: 'admin', arguments: {} })).rejects.toMatchObject({ code: 'AUTH_FORBIDDEN' });
    expect(as.counts.authorize - authorizations).toBeLessThanOrEqual(1);
  });
});

describe('outbound OAuth: client credentials', () => {
  it('a configured client secret gets a token machine-to-machine, with no browser and no registration', async () => {
    const before = { register: as.counts.register, authorize: as.counts.authorize, cc: as.counts.token.client_credentials ?? 0 };
    const auth = createServerAuth(
      { name: 'm2m', url: mcp.url, auth: { type: 'oauth', grant: 'client_credentials', clientId: 'm2m', clientSecret: 'm2m-secret-value', scopes: ['mcp:read'] } },
      { store, interactive: false, logger },
    );
    const res = await rpc(mcp.url, auth, 'tools/call', { name: 'whoami', arguments: {} });
    expect(res.status).toBe(200);
    expect(res.body.result.content[0].text).toBe('m2m mcp:read');
    expect(as.counts.register).toBe(before.register);
    expect(as.counts.authorize).toBe(before.authorize);
    expect((as.counts.token.client_credentials ?? 0) - before.cc).toBe(1);
    expect(auth.state().status).toBe('ok');
  });
});

describe('outbound OAuth: secrets stay secret', () => {
  it('no access token, refresh token or client secret appears in any log line, and the server only ever sees tokens for itself', async () => {
    const secrets = new Set(everySecret);
    for (const h of mcp.seen) secrets.add(h.replace(/^Bearer /, ''));
    expect(secrets.size).toBeGreaterThan(10);
    expect(lines.length).toBeGreaterThan(0);
    const log = lines.join('\n');
    for (const s of secrets) expect(log).not.toContain(s);
    // Every token the server saw is a JWT from our AS for this very resource.
    for (const h of mcp.seen) {
      const payload = JSON.parse(Buffer.from(h.replace(/^Bearer /, '').split('.')[1]!, 'base64url').toString());
      expect(payload.iss).toBe(as.issuer);
      expect(payload.aud).toBe(mcp.url);
    }
  });
});
