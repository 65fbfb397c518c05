// The fixtures of the per-user credentials tests (issue 33), on their own: the test authorization
// server logs in the account a flow names (login_hint) or the person a test puts at the login form
// (loginAccount), so two users can log in through one AS; the API-key MCP server refuses a call
// without a key and says which key called without ever repeating it; the browser walker does at a
// page what a person does, and no more.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
// @ts-expect-error plain JS fixture, shared with the attack suite
import { keyName, startApiKeyServer } from '../fixtures/servers/api-key-server.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type AuthServer } from '../fixtures/oauth/auth-server.js';
import { loginToken, subOf } from '../fixtures/oauth/login-token.js';
// @ts-expect-error plain JS, shared with the attack suite
import { walkConnectPage } from '../fixtures/oauth/connect-browser.mjs';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';

const RESOURCE = 'http://127.0.0.1:9/api';

describe('the test authorization server logs in the account a flow asks for', () => {
  let as: AuthServer;
  beforeAll(async () => {
    as = await startAuthServer({ resources: { [RESOURCE]: { scopes: ['mcp:read'] } }, accountId: 'default-user' });
  });
  afterAll(() => as?.close());

  /** A whole authorization code + PKCE flow by a fresh browser (no session): the access token's sub. */
  const loginSub = async (loginHint?: string) => subOf(await loginToken(as, { resource: RESOURCE, scope: 'mcp:read', ...(loginHint ? { loginHint } : {}) }));

  it('logs in the login_hint account, else the default one', async () => {
    expect(await loginSub('alice')).toBe('alice');
    expect(await loginSub('bob')).toBe('bob');
    expect(await loginSub()).toBe('default-user');
    expect(as.logins.slice(-3)).toEqual([
      { accountId: 'alice', loginHint: 'alice' },
      { accountId: 'bob', loginHint: 'bob' },
      { accountId: 'default-user', loginHint: undefined },
    ]);
  });

  it('logs in the person at the login form (loginAccount) whatever the hint says, as a password would', async () => {
    as.loginAccount = 'bob';
    try {
      expect(await loginSub('alice')).toBe('bob');
      expect(await loginSub()).toBe('bob');
    } finally {
      as.loginAccount = undefined;
    }
    expect(await loginSub('alice')).toBe('alice');
    as.loginAs('carol'); // the same, by its other name
    try {
      expect(await loginSub('alice')).toBe('carol');
    } finally {
      as.loginAs(undefined);
    }
    expect(as.loginAccount).toBeUndefined();
  });
});

describe('the API-key MCP server', () => {
  let s: any;
  beforeAll(async () => {
    s = await startApiKeyServer({ labels: { 'key-of-alice-0001': 'alice' } });
  });
  afterAll(() => s?.close());

  const post = (body: unknown, key?: string) =>
    fetch(s.url, { method: 'POST', headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) }, body: JSON.stringify(body) });
  const whoami = async (key: string) => ((await (await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } }, key)).json()) as any).result.content[0].text;

  it('refuses a request without a key (401) and answers one with a key', async () => {
    const refused = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer /);
    const listed = (await (await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, 'any-key')).json()) as any;
    expect(listed.result.tools.map((t: { name: string }) => t.name)).toEqual(['whoami', 'hold']);
  });

  it('whoami names a labelled key by its label and any other by a digest, never by the key', async () => {
    expect(await whoami('key-of-alice-0001')).toBe('key:alice');
    const other = await whoami('some-other-secret-key');
    expect(other).toBe(keyName('some-other-secret-key'));
    expect(other).toMatch(/^key:sha256:[0-9a-f]{12}$/);
    expect(other).not.toContain('some-other-secret-key');
    expect(s.seen).toContain('Bearer some-other-secret-key');
  });

  it('hold answers only once released', async () => {
    const call = post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'hold', arguments: {} } }, 'key-of-alice-0001');
    await s.whenHolding(1);
    expect(s.holding).toBe(1);
    s.release();
    expect(((await (await call).json()) as any).result.content[0].text).toBe('released key:alice');
    expect(s.holding).toBe(0);
  });
});

describe.skipIf(!CHROMIUM)('the connect-page walker drives a real browser the way a person would', () => {
  // A stand-in for the gateway's pages: /start redirects to a confirm form (one button), that
  // POSTs on to a secrets form (two password inputs), which POSTs to a done page. /refuse is 403.
  const posted: string[] = [];
  let origin: string;
  let server: http.Server;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const page = (status: number, body: string) => res.writeHead(status, { 'content-type': 'text/html' }).end(`<!doctype html><html><body>${body}</body></html>`);
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        if (req.url === '/start') return void res.writeHead(302, { location: '/confirm' }).end();
        if (req.url === '/confirm') return page(200, '<form method="post" action="/secrets"><button>Connect</button></form>');
        if (req.url === '/secrets') {
          posted.push(`confirm:${body}`);
          return page(
            200,
            '<form method="post" action="/done"><input type="password" name="API_KEY"><input type="password" name="secret.OTHER"><input type="hidden" name="csrf" value="c1"><button type="submit">Save</button></form>',
          );
        }
        if (req.url === '/done') {
          posted.push(body);
          return page(200, '<p>Connected.</p><form method="post" action="/never"><button>Disconnect</button></form>');
        }
        if (req.url === '/go') return void res.writeHead(302, { location: '/cb?code=c&state=s' }).end();
        if (req.url?.startsWith('/cb')) posted.push('callback reached');
        if (req.url === '/refuse') return page(403, '<p>Not yours.</p><form method="post" action="/never"><button>Try again</button></form>');
        if (req.url !== '/favicon.ico') posted.push(`unexpected ${req.url}`);
        page(404, 'no');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    chromium = await launchChromium();
  }, 30_000);
  afterAll(async () => {
    await chromium?.close();
    server?.closeAllConnections();
    server?.close();
  });

  it('follows redirects, presses the one button, fills every password input by name (or secret.NAME), sends once and stops', async () => {
    const context = await chromium.browser.createBrowserContext();
    const visit = await walkConnectPage(context, `${origin}/start`, { secrets: { API_KEY: 'k-1', OTHER: 'k-2' } });
    expect(visit).toMatchObject({ status: 200, steps: 2, url: `${origin}/done` });
    expect(visit.text).toContain('Connected.');
    expect(posted).toEqual(['confirm:', 'API_KEY=k-1&secret.OTHER=k-2&csrf=c1']); // never pressed "Disconnect"
    await context.close();
  }, 30_000);

  it('with stopAt, holds on to a redirect target without loading it (as an attacker keeps a callback URL)', async () => {
    posted.length = 0;
    const context = await chromium.browser.createBrowserContext();
    const visit = await walkConnectPage(context, `${origin}/go`, { stopAt: `${origin}/cb` });
    expect(visit.stoppedAt).toBe(`${origin}/cb?code=c&state=s`);
    const byPredicate = await walkConnectPage(context, `${origin}/go`, { stopAt: (u: string) => new URL(u).searchParams.get('state') === 's' });
    expect(byPredicate.stoppedAt).toBe(`${origin}/cb?code=c&state=s`);
    expect(posted).toEqual([]);
    await context.close();
  }, 30_000);

  it('stops at a refusal (an error status) without pressing anything', async () => {
    posted.length = 0;
    const context = await chromium.browser.createBrowserContext();
    const visit = await walkConnectPage(context, `${origin}/refuse`);
    expect(visit).toMatchObject({ status: 403, steps: 0 });
    expect(visit.text).toContain('Not yours.');
    expect(posted).toEqual([]);
    await context.close();
  }, 30_000);
});
