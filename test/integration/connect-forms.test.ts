// The connect pages as the app builds them (app/connector.ts), without a browser: the gateway-token
// form of a face with static client tokens (the user is `profile:<name>`, as for MCP requests), and
// the loopback listener of a stdio-only gateway (the local user, the single-use link as proof).
// Requests are plain HTTP with the cookies carried by hand, as a browser would.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConnector, type AppConnector } from '../../src/app/connector.js';
import { createConnector } from '../../src/connect/connector.js';
import type { Connector, ConnectServer } from '../../src/connect/types.js';
import { parseConfig } from '../../src/config/load.js';
import type { GatewayConfig } from '../../src/config/types.js';
import type { HttpEndpoint } from '../../src/inbound/http-endpoint-options.js';
import { silentLogger } from '../../src/log.js';
import { startAuthServer, type AuthServer } from '../fixtures/oauth/auth-server.js';
import { followRedirects } from '../fixtures/oauth/browser.js';
import { createAuditLog } from '../../src/observability/audit.js';
import { Keyring } from '../../src/state/credential-keys.js';
import { FileCredentialBackend } from '../../src/state/credential-file.js';
import { type CredentialStore, SealedCredentialStore } from '../../src/state/credentials.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { openCredentialStore } from '../../src/state/open-credentials.js';
import { RedisStore } from '../../src/state/redis-store.js';
import type { StateStore } from '../../src/state/store.js';
import { startRedis } from '../helpers/redis-server.js';
import { serveConnectPages } from '../helpers/per-user-app.js';

const TEAM_TOKEN = `team-${randomBytes(8).toString('hex')}`;
const OTHER_TOKEN = `other-${randomBytes(8).toString('hex')}`;
const SECRET = `sk-${randomBytes(8).toString('hex')}`;
let dir: string;
let credentials: SealedCredentialStore;
/** The app's side as openConnector sees it: the one store, and a connect heard of (nothing to list here). */
const given = (store: CredentialStore) => ({ credentials: async () => store, noteConnect: async () => {} });

/** A parsed config with one per-user secrets server, `perUser` added as h33-config will normalize it. */
function perUserConfig(listen: string[] = []): GatewayConfig {
  const yaml = [...listen, 'clients:', `  - { name: team, token: ${TEAM_TOKEN} }`, `  - { name: other, token: ${OTHER_TOKEN} }`, 'servers:', '  - { name: keys, url: "http://127.0.0.1:9/mcp" }'].join(
    '\n',
  );
  const config = parseConfig(yaml, { baseDir: dir, env: {} });
  Object.assign(config.servers[0]!, { perUser: { kind: 'secrets', secrets: [{ name: 'API_KEY', description: 'API key' }] } });
  Object.assign(config, { credentials: { linkTtlMs: 60_000, localUser: 'me' } });
  return config;
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-connect-forms-'));
  credentials = new SealedCredentialStore(new FileCredentialBackend(path.join(dir, 'credentials.json')), new Keyring(randomBytes(32)));
});
afterAll(async () => {
  await credentials.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The value of a hidden input of the page. */
const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
const cookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

async function post(url: string, origin: string, fields: Record<string, string>, cookie = ''): Promise<Response> {
  return fetch(url, { method: 'POST', redirect: 'manual', headers: { origin, cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
}

describe('the gateway-token form (static client tokens on the HTTP face)', () => {
  let app: AppConnector;
  let endpoint: HttpEndpoint;
  let base: string;
  beforeAll(async () => {
    const config = perUserConfig();
    const audit = createAuditLog({ logger: silentLogger() });
    app = (await openConnector({ config: () => config, state: new MemoryStore(), audit, logger: silentLogger(), httpFace: true, faceUrl: () => endpoint?.url, perUser: given(credentials) }))!;
    endpoint = await serveConnectPages(app.connector);
    base = new URL(endpoint.url).origin;
  });
  afterAll(async () => {
    await app.close();
    await endpoint.close();
  });

  it("stores the secret for profile:team after the team's token, and refuses another profile's token on team's link", async () => {
    const link = await app.connector.link('profile:team', 'keys');
    const form = await fetch(link.url);
    expect(form.status).toBe(200);
    const ticket = hidden(await form.text(), 'ticket');
    const action = `${base}/connect/keys`;
    expect((await post(action, base, { action: 'login', ticket, token: 'not-a-token' })).status).toBe(403);
    const loggedIn = await post(action, base, { action: 'login', ticket, token: TEAM_TOKEN });
    expect(loggedIn.status).toBe(200);
    const cookie = cookieOf(loggedIn);
    expect(loggedIn.headers.getSetCookie()[0]).toMatch(/HttpOnly; SameSite=Lax/);
    const csrf = hidden(await loggedIn.text(), 'csrf');
    // Without the identity cookie the form is refused: it is bound to the verified user.
    expect((await post(action, base, { action: 'secrets', csrf, 'secret.API_KEY': SECRET })).status).toBe(403);
    // From another origin, refused before the form is read.
    expect((await post(action, 'http://evil.example', { action: 'secrets', csrf, 'secret.API_KEY': SECRET }, cookie)).status).toBe(403);
    const saved = await post(action, base, { action: 'secrets', csrf, 'secret.API_KEY': SECRET }, cookie);
    expect(saved.status).toBe(200);
    expect(await saved.text()).not.toContain(SECRET);
    expect((await credentials.get('profile:team', 'keys'))?.credential).toEqual({ kind: 'secrets', values: { API_KEY: SECRET } });
    // The same form twice: refused.
    expect((await post(action, base, { action: 'secrets', csrf, 'secret.API_KEY': 'again' }, cookie)).status).toBe(410);

    const teamLink = await app.connector.link('profile:team', 'keys');
    const ticket2 = hidden(await (await fetch(teamLink.url)).text(), 'ticket');
    const other = await post(action, base, { action: 'login', ticket: ticket2, token: OTHER_TOKEN });
    expect(other.status).toBe(403);
    expect(await other.text()).toContain('someone else');
    expect(await credentials.get('profile:other', 'keys')).toBeUndefined();
  });

  it('refuses a form larger than the bound', async () => {
    const res = await post(`${base}/connect/keys`, base, { action: 'secrets', csrf: 'x'.repeat(20_000) });
    expect(res.status).toBe(413);
  });
});

describe('the loopback listener of a stdio-only gateway', () => {
  let app: AppConnector;
  beforeAll(async () => {
    const config = perUserConfig();
    app = (await openConnector({
      config: () => config,
      state: new MemoryStore(),
      audit: createAuditLog({ logger: silentLogger() }),
      logger: silentLogger(),
      httpFace: false,
      faceUrl: () => undefined,
      perUser: given(credentials),
    }))!;
  });
  afterAll(() => app.close());

  it('serves the link of the local user on 127.0.0.1, where the link itself is the proof', async () => {
    const link = await app.connector.link('me', 'keys');
    const base = new URL(link.url).origin;
    // A HEAD (a link checker) does not use the link up.
    expect((await fetch(link.url, { method: 'HEAD' })).status).toBe(200);
    expect(new URL(base).hostname).toBe('127.0.0.1');
    // No link, no proof: a direct visit is refused.
    expect((await fetch(`${base}/connect/keys`)).status).toBe(403);
    const form = await fetch(link.url);
    expect(form.status).toBe(200);
    const csrf = hidden(await form.text(), 'csrf');
    const saved = await post(`${base}/connect/keys`, base, { action: 'secrets', csrf, 'secret.API_KEY': SECRET });
    expect(saved.status).toBe(200);
    expect((await credentials.get('me', 'keys'))?.credential).toEqual({ kind: 'secrets', values: { API_KEY: SECRET } });
  });

  it('answers only a Host of its own address (no DNS rebinding)', async () => {
    const { url } = await app.connector.link('me', 'keys');
    const u = new URL(url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: u.port, path: `${u.pathname}${u.search}`, headers: { host: 'attacker.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});

/** Two replicas: their stores (sharing a backend) and each one's CredentialStore. */
interface Pair {
  a: { store: StateStore; credentials: CredentialStore };
  b: { store: StateStore; credentials: CredentialStore };
  close(): Promise<void>;
}

const pairs: [string, () => Promise<Pair>][] = [
  [
    'memory',
    async () => {
      const a = new MemoryStore();
      return { a: { store: a, credentials }, b: { store: new MemoryStore({ shareWith: a }), credentials }, close: async () => {} };
    },
  ],
  [
    'redis (credentials in Redis too)',
    async () => {
      const redis = await startRedis();
      const keyring = new Keyring(randomBytes(32));
      const replica = async () => {
        const store = new RedisStore({ url: redis.url, logger: silentLogger() });
        expect(await store.start(5000)).toBe('up');
        return { store, credentials: await openCredentialStore({ store, keyring }) };
      };
      const [a, b] = [await replica(), await replica()];
      return {
        a,
        b,
        async close() {
          await Promise.all([a.store.close(), b.store.close()]);
          await redis.stop();
        },
      };
    },
  ],
];

describe.each(pairs)('two replicas sharing a store: %s', (_name, makePair) => {
  const servers = new Map<string, ConnectServer>([['keys', { name: 'keys', perUser: { kind: 'secrets', secrets: [{ name: 'API_KEY' }] } }]]);
  let pair: Pair;
  let http: Server;
  let base = '';
  const replica = (r: Pair['a']): Connector =>
    createConnector({
      servers: () => servers,
      settings: () => ({ linkTtlMs: 60_000 }),
      credentials: r.credentials,
      store: r.store,
      logger: silentLogger(),
      publicUrl: () => base,
      browser: { kind: 'local', user: 'ops' },
    });
  let a: Connector;
  let b: Connector;
  beforeAll(async () => {
    pair = await makePair();
    a = replica(pair.a);
    b = replica(pair.b);
    // Behind one address, as behind a balancer: this test sends every page request to replica B.
    http = createServer((req, res) => b.handle(req, res));
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  }, 20_000);
  afterAll(async () => {
    http.closeAllConnections();
    await new Promise((r) => http.close(r));
    await pair.close();
  });

  it("a connect on replica B ends the wait of replica A's call, and A's link is used up on B", async () => {
    const link = await a.link('ops', 'keys');
    const waiting = a.connected('ops', 'keys', new AbortController().signal);
    const form = await fetch(link.url);
    expect(form.status).toBe(200);
    const csrf = hidden(await form.text(), 'csrf');
    expect((await post(`${base}/connect/keys`, base, { action: 'secrets', csrf, 'secret.API_KEY': SECRET })).status).toBe(200);
    await waiting;
    expect((await pair.a.credentials.get('ops', 'keys'))?.credential).toEqual({ kind: 'secrets', values: { API_KEY: SECRET } });
    expect((await fetch(link.url)).status).toBe(410);
    await pair.a.credentials.delete('ops', 'keys');
  });
});

describe('the login at the face issuer (listen.auth) through app/connector.ts', () => {
  let as: AuthServer;
  let app: AppConnector;
  let endpoint: HttpEndpoint;
  beforeAll(async () => {
    as = await startAuthServer({ resources: {}, anyResource: { scopes: ['mcp:read'] } });
    const config = perUserConfig(['listen:', `  auth: { issuer: "${as.issuer}", requiredScopes: [mcp:read] }`]);
    app = (await openConnector({
      config: () => config,
      state: new MemoryStore(),
      audit: createAuditLog({ logger: silentLogger() }),
      logger: silentLogger(),
      httpFace: true,
      faceUrl: () => endpoint?.url,
      perUser: given(credentials),
    }))!;
    endpoint = await serveConnectPages(app.connector);
  });
  afterAll(async () => {
    await app.close();
    await endpoint.close();
    await as.close();
  });

  it("takes the user from the token's subject as MCP requests do: alice reaches her form, bob on alice's link is refused", async () => {
    const alice = await followRedirects((await app.connector.link('alice', 'keys')).url);
    expect(alice.hops.some((h) => h.startsWith(as.issuer))).toBe(true);
    expect(alice.status).toBe(200);
    expect(alice.url.startsWith(`${new URL(endpoint.url).origin}/connect/callback`)).toBe(true);
    as.loginAs('bob');
    try {
      const bob = await followRedirects((await app.connector.link('alice', 'keys')).url);
      expect(bob.status).toBe(403);
    } finally {
      as.loginAs(undefined);
    }
  });
});
