// The /connect pages of per-user credentials (issue 33) in a real browser: Debian's Chromium drives
// the pages served by the real HTTP endpoint (its /connect/ prefix), the browser logs in at a real
// oidc-provider (the gateway's issuer), and the user's OAuth flow runs at a second oidc-provider in
// front of the protected MCP fixture. What must hold: a link for alice opened by alice stores
// alice's tokens (which the fixture then accepts as hers); the link works once; a browser signed in
// as bob is refused and nothing is stored; an expired link, a forged state and a foreign Origin are
// refused; the secrets form stores the secret and never shows it back.

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedTopic, createConnector } from '../../src/connect/connector.js';
import type { Connector, ConnectServer } from '../../src/connect/types.js';
import { createOAuthAuthenticator } from '../../src/inbound/auth/index.js';
import type { HttpEndpoint } from '../../src/inbound/http-endpoint-options.js';
import { createLogger, silentLogger } from '../../src/log.js';
import { FileCredentialBackend } from '../../src/state/credential-file.js';
import { Keyring } from '../../src/state/credential-keys.js';
import { SealedCredentialStore } from '../../src/state/credentials.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { startAuthServer, type AuthServer } from '../fixtures/oauth/auth-server.js';
import { startProtectedServer, type ProtectedServer } from '../fixtures/oauth/protected-server.js';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { serveConnectPages } from '../helpers/per-user-app.js';

let gatewayAs: AuthServer;
let serverAs: AuthServer;
let notes: ProtectedServer;
let endpoint: HttpEndpoint;
let connector: Connector;
let chromium: { browser: Browser; close(): Promise<void> };
let base: string;
let dir: string;
let credentials: SealedCredentialStore;
const store = new MemoryStore();
const audits: { kind: string; item: string; server: string; field?: string }[] = [];
/** The connector's clock: real time, plus what a test adds to act out expiry. */
let skew = 0;
const SECRET = `sk-${randomBytes(12).toString('hex')}`;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-connect-'));
  gatewayAs = await startAuthServer({ resources: {}, anyResource: { scopes: ['mcp:read'] } });
  serverAs = await startAuthServer({ resources: {}, anyResource: { scopes: ['mcp:read'] } });
  notes = await startProtectedServer({ issuer: serverAs.issuer, requiredScopes: ['mcp:read'] });
  credentials = new SealedCredentialStore(new FileCredentialBackend(path.join(dir, 'credentials.json')), new Keyring(randomBytes(32)));
  const servers = new Map<string, ConnectServer>([
    ['notes', { name: 'notes', perUser: { kind: 'oauth' }, url: notes.url }],
    ['keys', { name: 'keys', perUser: { kind: 'secrets', secrets: [{ name: 'API_KEY', description: 'Your <keys> API key' }] } }],
  ]);
  let mcpUrl = '';
  // The same authenticator MCP requests go through: the user is the token's subject.
  let verifyToken: ReturnType<typeof createOAuthAuthenticator> | undefined;
  connector = createConnector({
    servers: () => servers,
    settings: () => ({ linkTtlMs: 60_000 }),
    credentials,
    store,
    audit: { record: (e) => audits.push(e) },
    logger: process.env.DEBUG_CONNECT ? createLogger({ level: 'debug', format: 'json' }) : silentLogger(),
    publicUrl: () => base,
    browser: {
      kind: 'oauth',
      issuer: gatewayAs.issuer,
      resource: () => mcpUrl,
      scopes: ['mcp:read'],
      async verify(authorization) {
        verifyToken ??= createOAuthAuthenticator({ issuer: gatewayAs.issuer }, { resourceUrl: mcpUrl });
        const r = await verifyToken(authorization);
        return r.ok ? r.principal : undefined;
      },
    },
    now: () => Date.now() + skew,
  });
  // The MCP side of the endpoint is never reached by these tests: only /connect/ is.
  endpoint = await serveConnectPages(connector);
  mcpUrl = endpoint.url;
  base = new URL(endpoint.url).origin;
  if (CHROMIUM) chromium = await launchChromium();
}, 60_000);

afterAll(async () => {
  await chromium?.close();
  await connector?.close();
  await endpoint?.close();
  await Promise.all([notes?.close(), gatewayAs?.close(), serverAs?.close()]);
  await credentials?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh browser profile (no cookies at either AS or the gateway): one person at their own browser. */
async function freshPage(): Promise<Page> {
  const context = await chromium.browser.createBrowserContext();
  return context.newPage();
}

/** Opens `url` and follows every redirect; resolves with the final page's status and text. */
async function visit(page: Page, url: string): Promise<{ status: number; text: string; url: string }> {
  const res = await page.goto(url, { waitUntil: 'load' });
  return { status: res?.status() ?? 0, text: await page.evaluate(() => document.body.textContent ?? ''), url: page.url() };
}

/** A tools/call whoami on the protected fixture with `token`: what the server sees. */
async function whoami(token: string): Promise<string> {
  const res = await fetch(notes.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } }),
  });
  const body = (await res.json()) as { result: { content: { text: string }[] } };
  return body.result.content[0]!.text;
}

describe.skipIf(!CHROMIUM)('connect pages in a browser', () => {
  it("stores alice's own tokens when alice opens her link, and the link works only once", async () => {
    const link = await connector.link('alice', 'notes');
    expect(link.url.startsWith(`${base}/connect/notes?l=`)).toBe(true);
    expect(link.url).not.toContain('alice');
    const waiting = new AbortController();
    const connected = connector.connected('alice', 'notes', waiting.signal);
    serverAs.loginAs('alice-at-notes');
    const page = await freshPage();
    const done = await visit(page, link.url);
    serverAs.loginAs(undefined);
    expect(done.status).toBe(200);
    expect(done.text).toContain('notes is connected');
    await connected; // heard through the store's signal, no polling
    const stored = await credentials.get('alice', 'notes');
    expect(stored?.credential.kind).toBe('oauth');
    if (stored?.credential.kind !== 'oauth') throw new Error('not oauth');
    expect(stored.credential.tokens.resource).toBe(notes.url);
    // The server sees alice's calls as the account she authorized there.
    expect(await whoami(stored.credential.tokens.accessToken)).toBe('alice-at-notes mcp:read');
    expect(audits).toContainEqual(expect.objectContaining({ kind: 'credential.connect', item: 'alice', server: 'notes', credential: 'oauth' }));
    expect(JSON.stringify(audits)).not.toContain(stored.credential.tokens.accessToken);
    // The same link again, even in another browser: refused, as used.
    const again = await visit(await freshPage(), link.url);
    expect(again.status).toBe(410);
    expect(again.text).toContain('already used');
  });

  it('a link first fetched by a previewer (a chat unfurler, a mail scanner) still connects its user', async () => {
    const link = await connector.link('frank', 'notes');
    // The previewer GETs the link with no cookie of the user's and follows nothing: a login redirect.
    for (let i = 0; i < 2; i++) {
      const preview = await fetch(link.url, { redirect: 'manual' });
      expect(preview.status).toBe(302);
      expect(preview.headers.get('location')).toContain(gatewayAs.issuer);
    }
    // Then frank opens it in her browser: the link works, once.
    serverAs.loginAs('frank-at-notes');
    const done = await visit(await freshPage(), link.url);
    serverAs.loginAs(undefined);
    expect(done.text).toContain('notes is connected');
    expect((await credentials.get('frank', 'notes'))?.credential.kind).toBe('oauth');
    const again = await visit(await freshPage(), link.url);
    expect(again.status).toBe(410);
  });

  it('refuses a browser signed in as bob on a link for carol, and stores nothing', async () => {
    const link = await connector.link('carol', 'notes');
    gatewayAs.loginAs('bob');
    try {
      const refused = await visit(await freshPage(), link.url);
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('for someone else');
    } finally {
      gatewayAs.loginAs(undefined);
    }
    expect(await credentials.get('carol', 'notes')).toBeUndefined();
    expect(await credentials.get('bob', 'notes')).toBeUndefined();
    expect(audits).toContainEqual(expect.objectContaining({ kind: 'credential.denied', item: 'carol', server: 'notes' }));
  });

  it('refuses an expired link', async () => {
    const link = await connector.link('dave', 'notes');
    skew = 61_000;
    try {
      const expired = await visit(await freshPage(), link.url);
      expect(expired.status).toBe(410);
      expect(expired.text).toContain('expired');
    } finally {
      skew = 0;
    }
    expect(await credentials.get('dave', 'notes')).toBeUndefined();
  });

  it('refuses a forged state on the callback, and a callback finished in another browser', async () => {
    const forged = await visit(await freshPage(), `${base}/connect/callback?state=forged-state&code=whatever&iss=${encodeURIComponent(serverAs.issuer)}`);
    expect(forged.status).toBe(400);
    expect(forged.text).toContain('Unknown sign-in');
    // A real flow's redirect, replayed by another browser (no flow cookie): refused, nothing stored.
    const link = await connector.link('erin', 'notes');
    const page = await freshPage();
    let callback: string | undefined;
    await page.setRequestInterception(true);
    page.on('request', (req) => {
      const url = req.url();
      // The first trip back from the gateway's login goes through; the one from the server's AS is kept, not sent.
      if (url.startsWith(`${base}/connect/callback`) && callback === undefined && new URL(url).searchParams.get('iss') === serverAs.issuer) {
        callback = url;
        return void req.abort();
      }
      void req.continue();
    });
    await page.goto(link.url).catch(() => {});
    expect(callback).toBeDefined();
    const elsewhere = await visit(await freshPage(), callback!);
    expect(elsewhere.status).toBe(403);
    expect(await credentials.get('erin', 'notes')).toBeUndefined();
    // Used up by that attempt: the state does not work a second time either.
    const replayed = await visit(page, callback!);
    expect(replayed.status).toBe(400);
    expect(await credentials.get('erin', 'notes')).toBeUndefined();
  });

  it('stores a secret from the form, shows it nowhere, and escapes the description', async () => {
    const link = await connector.link('alice', 'keys');
    const page = await freshPage();
    const form = await visit(page, link.url);
    expect(form.status).toBe(200);
    expect(form.text).toContain('Your <keys> API key');
    await page.type('input[name="secret.API_KEY"]', SECRET);
    await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
    const text = await page.evaluate(() => document.body.textContent ?? '');
    expect(text).toContain('keys is connected');
    expect(await page.content()).not.toContain(SECRET);
    const stored = await credentials.get('alice', 'keys');
    expect(stored?.credential).toEqual({ kind: 'secrets', values: { API_KEY: SECRET } });
    expect(JSON.stringify(audits)).not.toContain(SECRET);
  });
});

describe('connect pages without a browser', () => {
  it('sends the strict headers on every page', async () => {
    const res = await fetch(`${base}/connect/notes`, { redirect: 'manual' });
    // No identity yet: off to the gateway's issuer, with nothing cached.
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location')!).origin).toBe(new URL(gatewayAs.issuer).origin);
    const missing = await fetch(`${base}/connect/nope`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'");
    expect(missing.headers.get('cache-control')).toBe('no-store');
    expect(missing.headers.get('referrer-policy')).toBe('no-referrer');
    expect(missing.headers.get('x-frame-options')).toBe('DENY');
  });

  it('refuses a form POST from another origin before reading it', async () => {
    const res = await fetch(`${base}/connect/keys`, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=secrets&csrf=x&secret.API_KEY=y',
    });
    expect(res.status).toBe(403);
  });

  it('connected() resolves at once when a credential exists, and rejects on abort', async () => {
    await credentials.put('frank', 'keys', { kind: 'secrets', values: { API_KEY: 'x' } });
    await connector.connected('frank', 'keys', new AbortController().signal);
    const ac = new AbortController();
    const waiting = connector.connected('gina', 'keys', ac.signal);
    ac.abort(new Error('the call was cancelled'));
    await expect(waiting).rejects.toThrow('the call was cancelled');
    // A signal for another pair does not wake it; the pair's own does, once the credential exists.
    const ac2 = new AbortController();
    const later = connector.connected('gina', 'keys', ac2.signal);
    await store.signal(connectedTopic('gina', 'other'));
    await credentials.put('gina', 'keys', { kind: 'secrets', values: { API_KEY: 'y' } });
    await store.signal(connectedTopic('gina', 'keys'));
    await later;
  });
});
