// Per-user credentials for real (issue 33, "Tested for real"): the built gateway, its HTTP face
// behind authorization server AS1 (alice and bob are users there), a per-user OAuth server entry
// for an MCP fixture that a second authorization server AS2 protects (its `whoami` says whose
// token called), and a per-user API-key entry. People's browsers are Debian's Chromium (one
// browser context per person) at the gateway's connect pages; MCP clients are the official SDK v2
// client, in the 2025-11-25 era (URL elicitation, or none) and in 2026-07-28 (input_required).
//
// The first user of a per-user server connects at `<publicUrl>/connect/<server>` directly: until
// someone has a credential the gateway has no way to list that server's tools (it has no identity
// of its own there), so there is no tool to call yet. Every later user is asked on first call.
// Skipped (with a notice) where Debian's chromium is not installed: CHROMIUM_PATH overrides.

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type AuthServer } from '../fixtures/oauth/auth-server.js';
import { loginToken, subOf } from '../fixtures/oauth/login-token.js';
// @ts-expect-error plain JS, shared with the attack suite
import { walkConnectPage } from '../fixtures/oauth/connect-browser.mjs';
import { startProtectedServer, type ProtectedServer } from '../fixtures/oauth/protected-server.js';
// @ts-expect-error plain JS fixture, shared with the attack suite
import { keyName, startApiKeyServer } from '../fixtures/servers/api-key-server.mjs';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { cleanup, runCli, startGateway, trackDir, yamlServers, type HttpGateway } from '../helpers/index.js';
import { connectStatelessHttp, type StatelessClient } from '../helpers/stateless-client.js';

if (!CHROMIUM) process.stderr.write('per-user-credentials: no chromium (apt-get install chromium, or set CHROMIUM_PATH); skipped\n');

const KEY = randomBytes(32).toString('hex');
const OPS_TOKEN = `ops-${randomBytes(16).toString('hex')}`;
const ALICE_KEY = `alice-api-key-${randomBytes(12).toString('hex')}`;
const BOB_KEY = `bob-api-key-${randomBytes(12).toString('hex')}`;

let as1: AuthServer;
let as2: AuthServer;
let notes: ProtectedServer;
let keyed: any;
let gw: HttpGateway;
let yaml: string;
let dir: string;
let publicUrl: string;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
const browsers: Record<string, BrowserContext> = {};
/** Every bearer token an MCP client presented to the gateway: none may show up in a log. */
const clientTokens: string[] = [];

/** A port free now, so the config can name the face's public URL before the gateway listens. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** `user`'s access token at AS1 for the gateway: the MCP client's own login, a real code + PKCE flow with `user` at the login form. */
async function tokenOf(user: string): Promise<string> {
  as1.loginAccount = user;
  const token = await loginToken(as1, { resource: gw.url, scope: 'mcp:read' });
  expect(subOf(token)).toBe(user);
  clientTokens.push(token);
  return token;
}

/** The person `user` at the keyboard of their own browser: both authorization servers log them in. */
function walkAs(user: string, url: string, secrets: Record<string, string> = {}) {
  as1.loginAccount = user;
  as2.loginAccount = user;
  return walkConnectPage(browsers[user], url, { secrets });
}

interface Asked {
  url: string;
  elicitationId: string;
  mode: string;
}

/**
 * An SDK v2 client as `user`. With `urlElicitation`, its elicitation handler opens the URL in the
 * user's browser and accepts at once (accept means "I agreed to open it", not "done": the gateway
 * waits for the connect itself); `walks` collects those browser visits.
 */
async function clientAs(user: string, o: { mode: 'legacy' | 'modern'; urlElicitation: boolean; secrets?: Record<string, string> }) {
  const asked: Asked[] = [];
  const walks: Promise<{ status: number; text: string }>[] = [];
  const completed: string[] = [];
  const client: StatelessClient = await connectStatelessHttp(gw.url, {
    mode: o.mode,
    capabilities: o.urlElicitation ? { elicitation: { url: {} } } : {},
    headers: { authorization: `Bearer ${await tokenOf(user)}` },
    elicit: (params) => {
      const p = params as unknown as Asked;
      asked.push(p);
      walks.push(walkAs(user, p.url, o.secrets));
      return { action: 'accept' };
    },
  });
  const toolsChanged: (() => void)[] = [];
  const completionWaiters: (() => void)[] = [];
  client.client.setNotificationHandler('notifications/elicitation/complete', (n) => {
    completed.push(n.params.elicitationId);
    for (const f of completionWaiters.splice(0)) f();
  });
  /** Resolves once `n` elicitation/complete notifications arrived; rejects after 10 s. */
  const completions = (n: number) =>
    new Promise<string[]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${user}'s session heard ${completed.length} of ${n} notifications/elicitation/complete within 10 s`)), 10_000);
      const check = () => {
        if (completed.length < n) return void completionWaiters.push(check);
        clearTimeout(timer);
        resolve(completed);
      };
      check();
    });
  client.client.setNotificationHandler('notifications/tools/list_changed', () => {
    for (const f of toolsChanged.splice(0)) f();
  });
  const call = async (name: string) => {
    const r = await client.client.callTool({ name, arguments: {} });
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    return (r.content as { type: string; text: string }[])[0]!.text;
  };
  const hasTool = async (name: string) => (await client.client.listTools()).tools.some((t) => t.name === name);
  /**
   * Resolves when the gateway says the tool list changed (register before what changes it);
   * rejects after 10 s. Not awaiting it (the list had changed already) is no error.
   */
  const nextToolsChange = () => {
    const change = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${user}'s session heard no notifications/tools/list_changed within 10 s`)), 10_000);
      toolsChanged.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    change.catch(() => {});
    return change;
  };
  /** Resolves once `name` is in the session's tool list, checking again at each tools/list_changed (10 s without one fails). */
  const toolListed = async (name: string) => {
    for (;;) {
      const change = nextToolsChange(); // listening first, then looking: a change between the two is heard
      if (await hasTool(name)) return;
      await change;
    }
  };
  return { client, asked, walks, completed, completions, call, hasTool, toolListed };
}

describe.skipIf(!CHROMIUM)('per-user credentials, end to end', () => {
  beforeAll(async () => {
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    const gwUrl = `${publicUrl}/mcp`;
    dir = trackDir(await mkdtemp(path.join(os.tmpdir(), 'switchboard-per-user-')));
    // AS1: the gateway's own issuer; it issues tokens for the gateway's resource (its MCP URL).
    // The connect pages log browsers in there as the pre-registered public client `switchboard-connect`
    // (credentials.login), asking for the scope the face requires.
    as1 = await startAuthServer({
      resources: { [gwUrl]: { scopes: ['mcp:read'] } },
      clients: [
        { client_id: 'switchboard-connect', token_endpoint_auth_method: 'none', redirect_uris: [`${publicUrl}/connect/callback`], grant_types: ['authorization_code'], response_types: ['code'] },
      ],
    });
    // AS2: the notes server's; the gateway registers there itself (DCR) for each user's login.
    // (It reads its resources per request: notes' URL is known once notes listens.)
    const as2Resources: Record<string, { scopes: string[] }> = {};
    as2 = await startAuthServer({ resources: as2Resources });
    notes = await startProtectedServer({ issuer: as2.issuer, requiredScopes: ['mcp:read'] });
    as2Resources[notes.url] = { scopes: ['mcp:read'] };
    keyed = await startApiKeyServer();
    yaml = yamlServers(
      [
        { name: 'notes', url: notes.url, transport: 'streamable-http', auth: { type: 'oauth', perUser: true } },
        {
          name: 'keyed',
          url: keyed.url,
          transport: 'streamable-http',
          headers: { Authorization: 'Bearer ${user.API_KEY}' },
          userSecrets: { API_KEY: 'Your API key for the keyed fixture' },
        },
      ],
      {
        listen: { auth: { issuer: as1.issuer, requiredScopes: ['mcp:read'] } },
        // An operator's static token, to read /metrics (OAuth users match no profile: they see all).
        clients: [{ name: 'ops', token: OPS_TOKEN, operator: true }],
        credentials: { file: path.join(dir, 'credentials.json'), publicUrl, login: { clientId: 'switchboard-connect', scopes: ['openid', 'mcp:read'] } },
        sanitize: { auditLog: path.join(dir, 'audit.jsonl') },
      },
    );
    gw = await startGateway(yaml, { args: ['--http', `127.0.0.1:${port}`], env: { SWITCHBOARD_CREDENTIALS_KEY: KEY, XDG_STATE_HOME: dir } });
    chromium = await launchChromium();
    for (const user of ['alice', 'bob']) browsers[user] = await chromium.browser.createBrowserContext();
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
    await cleanup();
    await Promise.all([as1?.close(), as2?.close(), notes?.close(), keyed?.close()]);
  });

  let alice: Awaited<ReturnType<typeof clientAs>>;
  let bob: Awaited<ReturnType<typeof clientAs>>;

  it("alice, the first user of notes, connects at its page: logged in as alice at AS1 and AS2; the server sees alice's calls as alice's", async () => {
    alice = await clientAs('alice', { mode: 'legacy', urlElicitation: true });
    // Tools come once someone connects: the session must be told it may list them (and when they change).
    expect(alice.client.client.getServerCapabilities()?.tools, 'initialize declared no tools capability: the client would never list the tools that come later').toMatchObject({ listChanged: true });
    expect(await alice.hasTool('notes__whoami')).toBe(false); // nobody has connected: nothing to list it with
    const visit = await walkAs('alice', `${publicUrl}/connect/notes`);
    expect(visit.status, visit.text).toBe(200);
    expect(as1.logins.at(-1)?.accountId).toBe('alice');
    expect(as2.logins.at(-1)?.accountId).toBe('alice');
    await alice.toolListed('notes__whoami'); // her connect gave the server its listing connection
    expect(await alice.call('notes__whoami')).toBe('alice mcp:read');
    expect(alice.asked).toEqual([]);
  }, 30_000);

  it("bob's first call asks him by URL elicitation; his browser connects him as bob; the same call returns bob's whoami", async () => {
    bob = await clientAs('bob', { mode: 'legacy', urlElicitation: true });
    const authorizedBefore = as2.counts.authorize;
    expect(await bob.call('notes__whoami')).toBe('bob mcp:read');
    expect(bob.asked).toHaveLength(1);
    expect(bob.asked[0]).toMatchObject({ mode: 'url', url: expect.stringMatching(new RegExp(`^${publicUrl}/connect/`)), elicitationId: expect.any(String) });
    const visit = await bob.walks[0]!;
    expect(visit.status, visit.text).toBe(200);
    expect(as2.counts.authorize).toBe(authorizedBefore + 1);
    expect(as2.logins.at(-1)?.accountId).toBe('bob');
    // The elicitation completes, to the session that was asked (on its own stream: it may trail the answer).
    expect(await bob.completions(1)).toEqual([bob.asked[0]!.elicitationId]);
    expect(alice.completed).toEqual([]);
  }, 30_000);

  it("alice's next call needs no connect and still reaches the server with alice's token", async () => {
    const before = notes.seen.length;
    expect(await alice.call('notes__whoami')).toBe('alice mcp:read');
    expect(alice.asked).toEqual([]);
    const subs = notes.seen.slice(before).map((h) => subOf(h.replace(/^Bearer /, '')));
    expect(new Set(subs)).toEqual(new Set(['alice']));
  }, 20_000);

  it('per-user API keys: alice fills the secret form at the page; the server sees her key', async () => {
    const visit = await walkAs('alice', `${publicUrl}/connect/keyed`, { API_KEY: ALICE_KEY });
    expect(visit.status, visit.text).toBe(200);
    expect(visit.steps).toBeGreaterThanOrEqual(1); // a form was filled and sent
    expect(visit.text).not.toContain(ALICE_KEY); // nothing echoed back
    await alice.toolListed('keyed__whoami');
    expect(await alice.call('keyed__whoami')).toBe(keyName(ALICE_KEY));
    expect(keyed.seen.at(-1)).toBe(`Bearer ${ALICE_KEY}`);
  }, 30_000);

  it('a client without URL elicitation gets -32042 with the URL; once the browser is done, its retry succeeds and the session hears the completion', async () => {
    const plain = await clientAs('bob', { mode: 'legacy', urlElicitation: false });
    const err = await plain.client.client.callTool({ name: 'keyed__whoami', arguments: {} }).then(
      (r) => ({ result: r }) as { result: unknown; code?: number; data?: any; message?: string },
      (e) => e as { code?: number; data?: any; message?: string },
    );
    expect(err.code, JSON.stringify(err)).toBe(-32042);
    const [elicitation] = err.data.elicitations;
    expect(elicitation).toMatchObject({ mode: 'url', url: expect.stringMatching(new RegExp(`^${publicUrl}/connect/`)), elicitationId: expect.any(String) });
    expect(err.message).toContain(elicitation.url); // for a human reading the error
    const visit = await walkAs('bob', elicitation.url, { API_KEY: BOB_KEY });
    expect(visit.status, visit.text).toBe(200);
    expect(await plain.call('keyed__whoami')).toBe(keyName(BOB_KEY));
    expect(plain.asked).toEqual([]);
    expect(await plain.completions(1)).toEqual([elicitation.elicitationId]);
  }, 30_000);

  /** Every secret the gateway holds for alice and bob, read through the store with the key (before a revoke drops bob's). */
  const held: string[] = [];

  it('`switchboard users list` shows alice and bob with their servers, and no secret', async () => {
    const { openCredentialStore } = await import('../../src/state/open-credentials.js');
    const store = await openCredentialStore({ file: path.join(dir, 'credentials.json'), env: { SWITCHBOARD_CREDENTIALS_KEY: KEY } });
    const pairs = (await store.list()).map((e) => `${e.user}/${e.server}`).sort();
    expect(pairs).toEqual(['alice/keyed', 'alice/notes', 'bob/keyed', 'bob/notes']);
    for (const { user, server } of await store.list()) {
      const c = (await store.get(user, server))!.credential;
      if (c.kind === 'oauth') held.push(c.tokens.accessToken, ...(c.tokens.refreshToken ? [c.tokens.refreshToken] : []));
      else held.push(...Object.values(c.values));
    }
    expect(held).toEqual(expect.arrayContaining([ALICE_KEY, BOB_KEY]));
    const listed = await runCli(['users', 'list'], yaml, { SWITCHBOARD_CREDENTIALS_KEY: KEY, XDG_STATE_HOME: dir });
    expect(listed.code, listed.stderr).toBe(0);
    for (const word of ['alice', 'bob', 'notes', 'keyed']) expect(listed.stdout).toContain(word);
    for (const secret of held) expect(listed.stdout + listed.stderr).not.toContain(secret);
  }, 20_000);

  it("`switchboard users revoke bob`, then bob's next call asks again; a 2026-07-28 client gets it as input_required and its retry succeeds", async () => {
    const revoked = await runCli(['users', 'revoke', 'bob'], yaml, { SWITCHBOARD_CREDENTIALS_KEY: KEY, XDG_STATE_HOME: dir });
    expect(revoked.code, revoked.stderr).toBe(0);
    const modern = await clientAs('bob', { mode: 'modern', urlElicitation: true });
    const authorizedBefore = as2.counts.authorize;
    expect(await modern.call('notes__whoami')).toBe('bob mcp:read');
    expect(modern.asked).toHaveLength(1); // the input_required round carried the URL elicitation
    expect(modern.asked[0]).toMatchObject({ mode: 'url', url: expect.stringMatching(new RegExp(`^${publicUrl}/connect/`)) });
    expect((await modern.walks[0]!).status).toBe(200);
    expect(as2.counts.authorize).toBe(authorizedBefore + 1); // a new login at AS2, not the revoked token
  }, 30_000);

  it('the audit log records connects and the revoke by user, and neither it, the log nor /metrics holds a token or secret', async () => {
    const audit = readFileSync(path.join(dir, 'audit.jsonl'), 'utf8');
    const lines = audit.split('\n').filter(Boolean);
    const entries = (kind: string) => lines.filter((l) => l.includes(`"${kind}"`));
    for (const user of ['alice', 'bob'])
      expect(
        entries('credential.connect').some((l) => l.includes(`"${user}"`)),
        `no credential.connect for ${user}`,
      ).toBe(true);
    expect(entries('credential.revoke').some((l) => l.includes('"bob"'))).toBe(true);
    const scrape = await fetch(`${publicUrl}/metrics`, { headers: { authorization: `Bearer ${OPS_TOKEN}` } });
    expect(scrape.status).toBe(200);
    const metrics = await scrape.text();
    const secrets = [...held, ...clientTokens, ...notes.seen.map((h) => h.replace(/^Bearer /, ''))];
    const places = { audit, stderr: gw.stderrLines.join('\n'), metrics };
    for (const [where, text] of Object.entries(places)) for (const secret of secrets) expect(text.includes(secret), `a secret (${secret.slice(0, 6)}…) is in the ${where}`).toBe(false);
  }, 20_000);
});
