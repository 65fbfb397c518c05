// `switchboard users` as an operator runs it: the built CLI against a real credentials file (records
// sealed by the store the gateway uses) and, once, a real redis-server. It lists who has what
// without ever printing a token or secret, revokes one pair or all of a user's (audited as
// credential.revoke via cli, exit 1 when there was nothing), and re-seals under a new key. `users
// connect` stores a user's own credential: secrets from stdin, or an OAuth login at a real
// authorization server (oidc-provider) with the test as the browser.

import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Keyring } from '../../src/state/credential-keys.js';
import { openCredentialStore } from '../../src/state/open-credentials.js';
import { RedisStore } from '../../src/state/redis-store.js';
import { cleanup, runCli, trackDir } from '../helpers/index.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { usersConnect } from '../helpers/users-connect.js';
import { startAuthServer, type AuthServer } from '../fixtures/oauth/auth-server.js';
import { followRedirects } from '../fixtures/oauth/browser.js';
import { startProtectedServer, type ProtectedServer } from '../fixtures/oauth/protected-server.js';

const KEY = Buffer.alloc(32, 7).toString('base64');
const NEW_KEY = Buffer.alloc(32, 9).toString('base64');
const SECRETS = ['AT-alice-secret', 'RT-alice-secret', 'PAT-alice-secret', 'AT-bob-secret'];

const oauth = (accessToken: string, refreshToken?: string) => ({
  kind: 'oauth' as const,
  tokens: { accessToken, refreshToken, tokenType: 'Bearer', issuer: 'https://as.example', resource: 'https://gh.example/mcp', grant: 'authorization_code' as const, obtainedAt: 1 },
});

/** Stores alice's two credentials and bob's one, as the gateway's connect would. */
async function seed(options: Parameters<typeof openCredentialStore>[0]) {
  const store = await openCredentialStore({ ...options, env: { SWITCHBOARD_CREDENTIALS_KEY: KEY } });
  await store.put('alice', 'github', oauth(SECRETS[0]!, SECRETS[1]));
  await store.put('alice', 'tracker', { kind: 'secrets', values: { TRACKER_API_KEY: SECRETS[2]! } });
  await store.put('bob', 'github', oauth(SECRETS[3]!));
  await store.close();
}

const noSecret = (text: string) => {
  for (const s of [...SECRETS, KEY, NEW_KEY]) expect(text).not.toContain(s);
};

let dir: string;
beforeAll(() => {
  dir = trackDir(mkdtempSync(path.join(os.tmpdir(), 'switchboard-users-')));
});
afterAll(cleanup);

describe('switchboard users, credentials file', () => {
  const config = () => `credentials: { file: ${path.join(dir, 'credentials.json')} }\nsanitize: { auditLog: ${path.join(dir, 'audit.jsonl')} }\nservers: []\n`;
  const env = { SWITCHBOARD_CREDENTIALS_KEY: KEY };

  beforeAll(async () => {
    await seed({ file: path.join(dir, 'credentials.json') });
  });

  it('lists each (user, server) with kind, dates and key id, never a secret', async () => {
    const r = await runCli(['users'], config(), env);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^USER +SERVER +KIND +OBTAINED +UPDATED +KEY$/);
    expect(rows.slice(1).map((l) => l.split(/ +/).slice(0, 3))).toEqual([
      ['alice', 'github', 'oauth'],
      ['alice', 'tracker', 'secrets'],
      ['bob', 'github', 'oauth'],
    ]);
    expect(rows[1]).toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z +\d{4}-.* [0-9a-f]{16}$/);
    expect(r.stderr).toContain(`credentials: file ${path.join(dir, 'credentials.json')}`);
    noSecret(r.stdout + r.stderr);
  });

  it('lists one user with --user, as JSON with --json', async () => {
    const r = await runCli(['users', 'list', '--user', 'alice', '--json'], config(), env);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { credentials: { user: string; server: string; kind: string; keyId: string }[] };
    expect(out.credentials.map((c) => [c.user, c.server, c.kind])).toEqual([
      ['alice', 'github', 'oauth'],
      ['alice', 'tracker', 'secrets'],
    ]);
    expect(out.credentials[0]!.keyId).toBe(new Keyring(Buffer.from(KEY, 'base64')).currentId);
    noSecret(r.stdout);
  });

  it('still lists without a key, saying kinds and dates need one', async () => {
    const r = await runCli(['users'], config(), { SWITCHBOARD_CREDENTIALS_KEY: '' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^alice +github +\? +- +- +[0-9a-f]{16} +no key to open it$/m);
    expect(r.stderr).toMatch(/no usable credentials key/);
  });

  it('re-seals every record under a new key, the old one kept as older', async () => {
    const r = await runCli(['users', 'rotate'], config(), { SWITCHBOARD_CREDENTIALS_KEY: NEW_KEY, SWITCHBOARD_CREDENTIALS_OLD_KEYS: KEY });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('re-sealed 3 credentials under the current key\n');
    const after = await runCli(['users', '--json'], config(), { SWITCHBOARD_CREDENTIALS_KEY: NEW_KEY });
    const ids = (JSON.parse(after.stdout) as { credentials: { keyId: string; kind: string }[] }).credentials;
    expect(new Set(ids.map((c) => c.keyId))).toEqual(new Set([new Keyring(Buffer.from(NEW_KEY, 'base64')).currentId]));
    expect(ids.every((c) => c.kind !== undefined)).toBe(true);
    // Without the key that sealed them, rotation can do nothing with them: exit 1, named.
    const lost = await runCli(['users', 'rotate'], config(), { SWITCHBOARD_CREDENTIALS_KEY: KEY });
    expect(lost.code).toBe(1);
    expect(lost.stdout).toContain('3 did not open with any key');
  });

  it('revokes one pair, then all of a user, audits each, and exits 1 when there is nothing', async () => {
    const key = { SWITCHBOARD_CREDENTIALS_KEY: NEW_KEY };
    const one = await runCli(['users', 'revoke', 'alice', 'github'], config(), key);
    expect([one.code, one.stdout]).toEqual([0, "revoked alice's credential for github\n"]);
    const again = await runCli(['users', 'revoke', 'alice', 'github'], config(), key);
    expect([again.code, again.stderr]).toEqual([1, 'switchboard: alice has no credential for github\n']);
    const rest = await runCli(['users', 'revoke', 'bob'], config(), key);
    expect([rest.code, rest.stdout]).toEqual([0, "revoked bob's credential for github\n"]);
    const left = await runCli(['users', '--json'], config(), key);
    expect((JSON.parse(left.stdout) as { credentials: { user: string; server: string }[] }).credentials.map((c) => `${c.user}/${c.server}`)).toEqual(['alice/tracker']);

    const audit = readFileSync(path.join(dir, 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(audit.map((a) => [a.kind, a.user, a.server, a.via, a.credential])).toEqual([
      ['credential.revoke', 'alice', 'github', 'cli', 'oauth'],
      ['credential.revoke', 'bob', 'github', 'cli', 'oauth'],
    ]);
    noSecret(JSON.stringify(audit));
  });

  it('on a fresh machine: lists nothing, revokes nothing (exit 1), and will not rotate without a key, making none', async () => {
    const fresh = `credentials: { file: ${path.join(dir, 'fresh', 'credentials.json')} }\nservers: []\n`;
    const none = { SWITCHBOARD_CREDENTIALS_KEY: '' };
    const listed = await runCli(['users'], fresh, none);
    expect([listed.code, listed.stdout]).toEqual([0, 'no stored credentials\n']);
    expect((await runCli(['users', 'revoke', 'bob'], fresh, none)).code).toBe(1);
    const rotated = await runCli(['users', 'rotate'], fresh, none);
    expect(rotated.code).toBe(1);
    expect(rotated.stderr).toContain(`switchboard: no credentials key to re-seal with: none yet: the gateway makes ${path.join(dir, 'fresh', 'credentials.key')} on first start`);
    expect(existsSync(path.join(dir, 'fresh')), 'the CLI made nothing').toBe(false);
  });

  it('refuses a malformed command line with exit 2', async () => {
    expect((await runCli(['users', 'revoke'], config(), env)).code).toBe(2);
    expect((await runCli(['users', 'forget', 'alice'], config(), env)).code).toBe(2);
    expect((await runCli(['users', 'revoke', 'alice', '--user', 'bob'], config(), env)).code).toBe(2);
  });
});

describe('switchboard users, Redis', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis({ password: 'users-redis-secret' });
    const store = new RedisStore({ url: redis.url, keyPrefix: 'team', commandTimeoutMs: 1000 });
    expect(await store.start(5000)).toBe('up');
    await seed({ store });
    await store.close();
  });

  it('lists and revokes in the Redis that state.redis names', async () => {
    const config = `state: { redis: "\${REDIS_URL}", keyPrefix: team }\nsanitize: { auditLog: ${path.join(dir, 'redis-audit.jsonl')} }\nservers: []\n`;
    const env = { REDIS_URL: redis.url, SWITCHBOARD_CREDENTIALS_KEY: KEY };
    const listed = await runCli(['users', '--user', 'alice'], config, env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(
      listed.stdout
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(/ +/).slice(0, 3).join(' ')),
    ).toEqual(['alice github oauth', 'alice tracker secrets']);
    expect(listed.stderr).toMatch(/credentials: redis at 127\.0\.0\.1:\d+ \(password hidden\)/);
    const revoked = await runCli(['users', 'revoke', 'alice'], config, env);
    expect([revoked.code, revoked.stdout]).toEqual([0, "revoked alice's credential for github\nrevoked alice's credential for tracker\n"]);
    const after = await runCli(['users', '--json'], config, env);
    expect((JSON.parse(after.stdout) as { credentials: { user: string }[] }).credentials.map((c) => c.user)).toEqual(['bob']);
    noSecret(listed.stdout + listed.stderr + revoked.stdout + after.stdout);
    expect(listed.stdout + listed.stderr).not.toContain('users-redis-secret');
  });
});

describe('switchboard users connect', () => {
  const PAT = 'tracker-pat-never-printed';
  let as: AuthServer;
  let mcp: ProtectedServer;
  let cdir: string;
  let configFile: string;
  const env = () => ({ SWITCHBOARD_CREDENTIALS_KEY: KEY, XDG_STATE_HOME: cdir, SWITCHBOARD_NO_BROWSER: '1' });
  const stored = async (user: string, server: string) => {
    const store = await openCredentialStore({ file: path.join(cdir, 'credentials.json'), env: { SWITCHBOARD_CREDENTIALS_KEY: KEY } });
    try {
      return (await store.get(user, server))?.credential;
    } finally {
      await store.close();
    }
  };
  const audit = () =>
    existsSync(path.join(cdir, 'audit.jsonl'))
      ? readFileSync(path.join(cdir, 'audit.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, unknown>)
      : [];

  beforeAll(async () => {
    const resources: Record<string, { scopes: string[] }> = {};
    as = await startAuthServer({ resources });
    mcp = await startProtectedServer({ issuer: as.issuer, requiredScopes: ['mcp:read'] });
    resources[mcp.url] = { scopes: ['mcp:read'] };
    cdir = trackDir(mkdtempSync(path.join(os.tmpdir(), 'switchboard-users-connect-')));
    configFile = path.join(cdir, 'switchboard.yaml');
    writeFileSync(
      configFile,
      `credentials: { file: ${path.join(cdir, 'credentials.json')}, localUser: me }
sanitize: { auditLog: ${path.join(cdir, 'audit.jsonl')} }
servers:
  - { name: tracker, command: node, args: [tracker.mjs], env: { TRACKER_TOKEN: "\${user.TRACKER_TOKEN}", TRACKER_ORG: "\${user.TRACKER_ORG}" }, userSecrets: { TRACKER_TOKEN: "your personal access token" } }
  - { name: notes, url: "${mcp.url}", auth: { type: oauth, perUser: true } }
  - { name: shared, command: node, args: [shared.mjs] }
`,
    );
  });
  afterAll(async () => {
    await mcp?.close();
    await as?.close();
  });

  it('stores the local user\u2019s secrets read from stdin (the gateway\u2019s key made as its first start would), audited, never printed', async () => {
    const r = await usersConnect(['tracker'], configFile, env(), `TRACKER_TOKEN=${PAT}\nTRACKER_ORG=acme\n`).done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("stored me's secrets for tracker; a running gateway picks them up at once\n");
    expect(await stored('me', 'tracker')).toEqual({ kind: 'secrets', values: { TRACKER_TOKEN: PAT, TRACKER_ORG: 'acme' } });
    const listed = await runCli(['users', 'list', '--json'], readFileSync(configFile, 'utf8'), { SWITCHBOARD_CREDENTIALS_KEY: KEY });
    expect((JSON.parse(listed.stdout) as { credentials: { user: string; server: string; kind: string }[] }).credentials.map((c) => [c.user, c.server, c.kind])).toEqual([['me', 'tracker', 'secrets']]);
    expect(audit().map((a) => [a.kind, a.user, a.server, a.credential, a.via])).toEqual([['credential.connect', 'me', 'tracker', 'secrets', 'cli']]);
    expect(r.stdout + r.stderr + JSON.stringify(audit())).not.toContain(PAT);
  });

  it('stores nothing and exits 1 for an unknown or a missing secret name, naming names and never the values', async () => {
    const unknown = await usersConnect(['tracker', '--user', 'bob'], configFile, env(), `TRACKER_TOKEN=${PAT}\nTRACKER_ORGG=acme\n`).done;
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/names "TRACKER_ORGG", which this server does not take.*nothing was stored/);
    const missing = await usersConnect(['tracker', '--user', 'bob'], configFile, env(), `TRACKER_TOKEN=${PAT}\n`).done;
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no value for TRACKER_ORG .*nothing was stored/);
    expect(unknown.stderr + missing.stderr).not.toContain(PAT);
    expect(await stored('bob', 'tracker')).toBeUndefined();
  });

  it('exits 1 for a server that is not per-user, or not configured, naming the per-user ones', async () => {
    const shared = await usersConnect(['shared'], configFile, env()).done;
    expect([shared.code, shared.stderr]).toEqual([
      1,
      'switchboard: "shared" takes no per-user credential: it has no ${user.NAME} secrets and no auth.perUser (per-user servers in the config: tracker, notes)',
    ]);
    const none = await usersConnect(['nope'], configFile, env()).done;
    expect([none.code, none.stderr]).toEqual([1, 'switchboard: no server named "nope" (per-user servers in the config: tracker, notes)']);
  });

  it('an OAuth server: the login URL on stderr, the browser\u2019s redirect back, the tokens stored for --user', async () => {
    const run = usersConnect(['notes', '--user', 'alice'], configFile, env());
    const line = await run.stderr.waitForLine(/by opening: (\S+)/, 15_000, 'users connect stderr');
    const visit = await followRedirects(/by opening: (\S+)/.exec(line)![1]!);
    expect(visit.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("stored alice's OAuth tokens for notes; a running gateway picks them up at once\n");
    const credential = await stored('alice', 'notes');
    expect(credential).toMatchObject({ kind: 'oauth', tokens: { issuer: as.issuer, resource: mcp.url, grant: 'authorization_code' } });
    const tokens = (credential as { tokens: { accessToken: string; refreshToken?: string } }).tokens;
    // The token is one the protected server takes.
    const answer = await fetch(mcp.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } } }),
    });
    await answer.body?.cancel();
    expect(answer.status).toBe(200);
    expect(audit().at(-1)).toMatchObject({ kind: 'credential.connect', user: 'alice', server: 'notes', credential: 'oauth', via: 'cli' });
    for (const secret of [tokens.accessToken, tokens.refreshToken].filter((t) => t !== undefined)) {
      expect(r.stdout + r.stderr + JSON.stringify(audit())).not.toContain(secret);
    }
  });
});
