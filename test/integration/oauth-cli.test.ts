// OAuth towards a protected server, end to end with the built CLI (dist/main.js): check before
// any login, `switchboard login` (the browser step is an HTTP client following redirects),
// serving with the token, expiry → refresh, revoked → needs-login while the other server keeps
// serving, login again → picked up without a restart, logout; a server with a client secret
// (client credentials: no login at all). Real AS (oidc-provider), real protected MCP servers,
// the official SDK client in front of the gateway.

import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanup,
  connectHttpClient,
  exited,
  fixtureServer,
  gatewayMain,
  httpServer,
  LineCollector,
  nodeBin,
  repoRoot,
  spawnTracked,
  startGateway,
  trackDir,
  yamlServers,
  type HttpGateway,
} from '../helpers/index.js';
import { startAuthServer, type AuthServer } from '../fixtures/oauth/auth-server.js';
import { followRedirects } from '../fixtures/oauth/browser.js';
import { startProtectedServer, type ProtectedServer } from '../fixtures/oauth/protected-server.js';

let as: AuthServer;
let mcp: ProtectedServer;
let stateHome: string;
let configPath: string;
let config: string;
const CLIENT_TOKEN = 'client-token-that-must-never-reach-a-server';
const M2M_SECRET = 'm2m-secret-that-must-never-be-logged';
/** What the AS issues tokens for (read per request: servers started later are added). */
const resources: Record<string, { scopes: string[] }> = {};

beforeAll(async () => {
  const m2m = { client_id: 'm2m', client_secret: M2M_SECRET, grant_types: ['client_credentials'], redirect_uris: [], response_types: [], token_endpoint_auth_method: 'client_secret_basic' };
  as = await startAuthServer({ resources, clients: [m2m] });
  mcp = await startProtectedServer({ issuer: as.issuer, requiredScopes: ['mcp:read'], toolScopes: { write_note: ['mcp:write'] } });
  resources[mcp.url] = { scopes: ['mcp:read', 'mcp:write'] };
  stateHome = trackDir(await mkdtemp(path.join(os.tmpdir(), 'sb-oauth-cli-')));
  // A short maxDelay: a server waiting for a login looks for a new token that often.
  config = yamlServers([httpServer('notes', mcp.url, { auth: 'oauth', reconnect: { maxDelay: '200ms' } }), fixtureServer('echo', 'echo')], {
    clients: [{ name: 'me', token: CLIENT_TOKEN, operator: true }],
  });
  configPath = path.join(stateHome, 'switchboard.yaml');
  await writeFile(configPath, config);
});

afterAll(async () => {
  await cleanup();
  await mcp?.close();
  await as?.close();
});

const env = () => ({ XDG_STATE_HOME: stateHome, SWITCHBOARD_NO_BROWSER: '1', SWITCHBOARD_LOG_LEVEL: 'info', SWITCHBOARD_TOKEN: CLIENT_TOKEN });
const tokenFile = () => path.join(stateHome, 'switchboard', 'tokens.json');
const storedTokens = async () => Object.values(JSON.parse(await readFile(tokenFile(), 'utf8')).tokens) as { accessToken: string; refreshToken?: string; expiresAt?: number }[];

function cli(args: string[], file = configPath, vars: Record<string, string> = env()): { done: Promise<{ code: number | null; stdout: string; stderr: LineCollector }>; stderr: LineCollector } {
  const child = spawnTracked(nodeBin, [gatewayMain, ...args, '-c', file], { cwd: repoRoot, env: { ...process.env, ...vars }, stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr = new LineCollector(child.stderr);
  let stdout = '';
  child.stdout!.on('data', (d) => (stdout += d));
  const done = exited(child).then(async ({ code }) => {
    await stderr.ended();
    return { code, stdout, stderr };
  });
  return { done, stderr };
}

/** `switchboard login notes`, with the test playing the browser: open the printed URL, follow redirects. */
async function login(): Promise<string> {
  const run = cli(['login', 'notes']);
  const line = await run.stderr.waitForLine(/by opening: (\S+)/, 15_000, 'login stderr');
  const visit = await followRedirects(/by opening: (\S+)/.exec(line)![1]!);
  expect(visit.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
  const r = await run.done;
  expect(r.code, r.stderr.text).toBe(0);
  return r.stdout;
}

const text = (result: any) => result.content?.[0]?.text as string;

describe('switchboard login, serve, refresh, revoke (built CLI)', () => {
  let gw: HttpGateway;

  it('check before any login: the server needs a login and says how; the others connect', async () => {
    const r = await cli(['check', '--json']).done;
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    const notes = report.servers.find((s: any) => s.name === 'notes');
    expect(notes).toMatchObject({ state: 'needs-login', auth: { status: 'needs-login' } });
    expect(notes.problem).toMatch(/Run: switchboard login notes/);
    expect(report.servers.find((s: any) => s.name === 'echo').state).toBe('ready');
  });

  it('login: prints the URL, stores the tokens in a file only the user can read', async () => {
    const before = { ...as.counts, token: { ...as.counts.token } };
    const out = await login();
    expect(out).toContain(`Logged in to "notes" at ${as.issuer}`);
    expect(out).toMatch(/scopes: .*mcp:read/);
    expect(as.counts.register - before.register).toBe(1); // dynamic registration
    expect((as.counts.token.authorization_code ?? 0) - (before.token.authorization_code ?? 0)).toBe(1);
    expect((await stat(tokenFile())).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(tokenFile()))).mode & 0o777).toBe(0o700);
    const [t] = await storedTokens();
    expect(out).not.toContain(t!.accessToken);
    expect(t!.refreshToken).toBeDefined();
  });

  it('serve: calls reach the server with the stored token, never with the client token; status shows the expiry', async () => {
    gw = await startGateway(config, { env: env() });
    const client = await connectHttpClient(gw.url, { headers: { authorization: `Bearer ${CLIENT_TOKEN}` } });
    const r = await client.callTool({ name: 'notes__whoami', arguments: {} });
    expect(text(r)).toMatch(/^user-1 .*mcp:read/);
    const [t] = await storedTokens();
    expect(mcp.seen.at(-1)).toBe(`Bearer ${t!.accessToken}`);
    expect(mcp.seen.some((h) => h.includes(CLIENT_TOKEN))).toBe(false);

    const s = await cli(['status', '--json', '--http', new URL(gw.url).host]).done;
    expect(s.code).toBe(0);
    const notes = JSON.parse(s.stdout).servers.find((x: any) => x.name === 'notes');
    expect(notes.state).toBe('ready');
    expect(notes.auth).toMatchObject({ status: 'ok', issuer: as.issuer });
    expect(notes.auth.expiresAt).toBeGreaterThan(Date.now());
    const human = await cli(['status', '--http', new URL(gw.url).host]).done;
    expect(human.stdout).toMatch(/notes: connected .*OAuth ok, token expires in \d+m/);
  });

  it('a token past its expiry is refreshed before it is sent', async () => {
    await gw.stop();
    // As if the gateway had been off while the token expired: the stored expiry is in the past.
    const file = JSON.parse(await readFile(tokenFile(), 'utf8'));
    const key = Object.keys(file.tokens)[0]!;
    const old = file.tokens[key].accessToken;
    file.tokens[key].expiresAt = Date.now() - 1000;
    await writeFile(tokenFile(), JSON.stringify(file), { mode: 0o600 });
    const refreshes = as.counts.token.refresh_token ?? 0;
    const sent = mcp.seen.length;

    gw = await startGateway(config, { env: env() });
    const client = await connectHttpClient(gw.url, { headers: { authorization: `Bearer ${CLIENT_TOKEN}` } });
    expect(text(await client.callTool({ name: 'notes__whoami', arguments: {} }))).toMatch(/^user-1/);
    expect((as.counts.token.refresh_token ?? 0) - refreshes).toBe(1);
    const [t] = await storedTokens();
    expect(t!.accessToken).not.toBe(old);
    expect(t!.expiresAt).toBeGreaterThan(Date.now());
    expect(new Set(mcp.seen.slice(sent))).toEqual(new Set([`Bearer ${t!.accessToken}`])); // the expired one never went out
  });

  it('revoked: the server needs a login, calls say what to run, the other server keeps serving', async () => {
    const [t] = await storedTokens();
    await as.revokeRefreshToken(t!.refreshToken!);
    mcp.reject(t!.accessToken);
    const client = await connectHttpClient(gw.url, { headers: { authorization: `Bearer ${CLIENT_TOKEN}` } });
    await expect(client.callTool({ name: 'notes__whoami', arguments: {} })).rejects.toThrow(/needs an OAuth login.*Run: switchboard login notes/);
    await gw.waitForStderr(/"server":"notes".*needs an OAuth login/);
    await expect(client.callTool({ name: 'notes__whoami', arguments: {} })).rejects.toThrow(/Run: switchboard login notes/);
    expect(text(await client.callTool({ name: 'echo__echo', arguments: { text: 'still here' } }))).toContain('still here');

    const s = await cli(['status', '--json', '--http', new URL(gw.url).host]).done;
    expect(s.code).toBe(1);
    const notes = JSON.parse(s.stdout).servers.find((x: any) => x.name === 'notes');
    expect(notes).toMatchObject({ state: 'needs-login', auth: { status: 'needs-login' } });
    const human = await cli(['status', '--http', new URL(gw.url).host]).done;
    expect(human.stdout).toMatch(/notes: needs login — .*switchboard login notes/);
  });

  it('login again while the gateway runs: it picks the new token up without a restart', async () => {
    const seen = gw.stderrLines.length;
    await login();
    await gw.waitForStderr(/"server":"notes".*"msg":"reconnected"/, 10_000);
    expect(gw.stderrLines.length).toBeGreaterThan(seen);
    const client = await connectHttpClient(gw.url, { headers: { authorization: `Bearer ${CLIENT_TOKEN}` } });
    expect(text(await client.callTool({ name: 'notes__whoami', arguments: {} }))).toMatch(/^user-1/);
  });

  it('a call that needs more scopes fails naming them; after `switchboard login` the running gateway has them', async () => {
    const client = await connectHttpClient(gw.url, { headers: { authorization: `Bearer ${CLIENT_TOKEN}` } });
    await expect(client.callTool({ name: 'notes__write_note', arguments: {} })).rejects.toThrow(
      /needs an OAuth login \(scopes: mcp:read.* mcp:write\): the operation needs more scopes\. Run: switchboard login notes/,
    );
    expect(text(await client.callTool({ name: 'notes__whoami', arguments: {} }))).toMatch(/^user-1/); // still serving
    const out = await login();
    expect(out).toMatch(/scopes: .*mcp:write/);
    expect(text(await client.callTool({ name: 'notes__write_note', arguments: {} }))).toMatch(/^user-1 .*mcp:write/);
  });

  it('no token, refresh token or client secret appears in any log line of the gateway', async () => {
    const file = JSON.parse(await readFile(tokenFile(), 'utf8'));
    const secrets = [CLIENT_TOKEN, ...mcp.seen.map((h) => h.replace(/^Bearer /, ''))];
    for (const t of Object.values(file.tokens) as any[]) secrets.push(t.accessToken, t.refreshToken);
    for (const c of Object.values(file.clients) as any[]) if (c.clientSecret) secrets.push(c.clientSecret);
    const log = gw.stderrLines.join('\n');
    for (const s of secrets.filter(Boolean)) expect(log).not.toContain(s);
  });

  it('logout forgets the tokens', async () => {
    await gw.stop();
    const r = await cli(['logout', 'notes']).done;
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Logged out of "notes"');
    expect(await storedTokens()).toEqual([]);
  });

  it('login names the servers it can log in to when given another name', async () => {
    const r = await cli(['login', 'echo']).done;
    expect(r.code).toBe(2);
    expect(r.stderr.text).toMatch(/"echo" is a stdio server; OAuth is for HTTP servers \(HTTP servers in the config: notes\)/);
  });
});

describe('a server with a client secret: client credentials, no login (built CLI)', () => {
  it('check connects at once and shows the token and its expiry; serve calls with it; the secret is never logged', async () => {
    const billing = await startProtectedServer({ issuer: as.issuer, requiredScopes: ['mcp:read'] });
    resources[billing.url] = { scopes: ['mcp:read'] };
    const home = trackDir(await mkdtemp(path.join(os.tmpdir(), 'sb-oauth-m2m-')));
    const yaml = yamlServers([httpServer('billing', billing.url, { auth: { type: 'oauth', clientId: 'm2m', clientSecret: '${M2M_SECRET}', scopes: ['mcp:read'] } })], {
      clients: [{ name: 'me', token: CLIENT_TOKEN, operator: true }],
    });
    const file = path.join(home, 'switchboard.yaml');
    await writeFile(file, yaml);
    const vars = { ...env(), XDG_STATE_HOME: home, M2M_SECRET };
    const before = { cc: as.counts.token.client_credentials ?? 0, authorize: as.counts.authorize, register: as.counts.register };
    try {
      const checked = await cli(['check'], file, vars).done;
      expect(checked.code, checked.stderr.text).toBe(0);
      expect(checked.stdout).toMatch(/billing\s+ready\s.*OAuth ok, token expires in \d+m, scopes mcp:read/);
      expect((as.counts.token.client_credentials ?? 0) - before.cc).toBe(1);
      expect(as.counts.authorize).toBe(before.authorize); // no browser,
      expect(as.counts.register).toBe(before.register); // no registration

      const gw = await startGateway(yaml, { env: vars });
      const client = await connectHttpClient(gw.url, { headers: { authorization: `Bearer ${CLIENT_TOKEN}` } });
      expect(text(await client.callTool({ name: 'billing__whoami', arguments: {} }))).toMatch(/mcp:read/);
      expect(billing.seen.at(-1)).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/); // the AS's JWT, not the client's token
      const human = await cli(['status', '--http', new URL(gw.url).host], file, vars).done;
      expect(human.stdout).toMatch(/billing: connected .*OAuth ok, token expires in \d+m/);
      await gw.stop();
      const log = [...gw.stderrLines, checked.stderr.text, human.stderr.text].join('\n');
      for (const secret of [M2M_SECRET, CLIENT_TOKEN, ...billing.seen.map((h) => h.replace(/^Bearer /, ''))]) expect(log).not.toContain(secret);
    } finally {
      await billing.close();
    }
  });
});
