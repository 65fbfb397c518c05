// The fixtures of the per-user credentials tests (issue 33), on their own: the test authorization
// server logs in the account a flow names (login_hint) or the person a test puts at the login form
// (loginAccount), so two users can log in through one AS; the API-key MCP server refuses a call
// without a key and says which key called without ever repeating it.

import { createHash, randomBytes } from 'node:crypto';
// @ts-expect-error plain JS fixture, shared with the attack suite
import { keyName, startApiKeyServer } from '../fixtures/servers/api-key-server.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type AuthServer } from '../fixtures/oauth/auth-server.js';
import { followRedirects } from '../fixtures/oauth/browser.js';

const RESOURCE = 'http://127.0.0.1:9/api';
const REDIRECT = 'http://127.0.0.1:9/callback';

describe('the test authorization server logs in the account a flow asks for', () => {
  let as: AuthServer;
  beforeAll(async () => {
    as = await startAuthServer({ resources: { [RESOURCE]: { scopes: ['mcp:read'] } }, accountId: 'default-user' });
  });
  afterAll(() => as?.close());

  /** A whole authorization code + PKCE flow by a fresh browser (no session): the access token's sub. */
  async function loginSub(loginHint?: string): Promise<string> {
    const reg = await fetch(`${as.issuer}/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'], scope: 'mcp:read' }),
    });
    const { client_id } = (await reg.json()) as { client_id: string };
    const verifier = randomBytes(32).toString('base64url');
    const authorize = new URL(`${as.issuer}/auth`);
    authorize.search = new URLSearchParams({
      client_id,
      response_type: 'code',
      redirect_uri: REDIRECT,
      scope: 'mcp:read',
      resource: RESOURCE,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      ...(loginHint ? { login_hint: loginHint } : {}),
    }).toString();
    const visit = await followRedirects(authorize.href, 20, REDIRECT);
    const code = new URL(visit.url).searchParams.get('code');
    expect(code, `no code in ${visit.url}`).toBeTruthy();
    const token = await fetch(`${as.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: code!, redirect_uri: REDIRECT, client_id, code_verifier: verifier, resource: RESOURCE }),
    });
    const { access_token } = (await token.json()) as { access_token: string };
    return JSON.parse(Buffer.from(access_token.split('.')[1]!, 'base64url').toString('utf8')).sub;
  }

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
