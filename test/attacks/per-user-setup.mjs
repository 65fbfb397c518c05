// The stage of the per-user credential attacks (issue 33): the built gateway with its HTTP face
// behind a real authorization server (AS1: users log in to the gateway there, MCP clients get
// tokens minted with its key), a per-user API-key server (the fixture), optionally a per-user
// OAuth server (`notes`, behind a second authorization server AS2), credentials sealed in a file
// under a key the attack knows (so it can seed records and read what the gateway stored), and the
// audit log in a file. People's browsers are Chromium contexts (test/fixtures/oauth/connect-browser.mjs).

import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startAuthServer } from '../fixtures/oauth/auth-server.mjs';
import { launchBrowser } from '../fixtures/oauth/connect-browser.mjs';
import { startApiKeyServer } from '../fixtures/servers/api-key-server.mjs';
import { HttpClient, startGateway } from './lib.mjs';

/** A port free now, so the config can name the face's public URL before the gateway listens. */
const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/**
 * An OAuth-protected MCP server stand-in for the attacks: serves RFC 9728 metadata naming `issuer`
 * and answers 401 with a challenge to a request without a token. It does not check tokens (the
 * attacks are about what the gateway stores and sends, not about this server); `whoami` reads the
 * JWT's `sub`.
 */
async function protectedStandIn(issuer) {
  const server = http.createServer((req, res) => {
    const url = `http://127.0.0.1:${server.address().port}/mcp`;
    const json = (status, body, headers = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    if (req.method === 'GET' && req.url.startsWith('/.well-known/oauth-protected-resource')) return json(200, { resource: url, authorization_servers: [issuer], scopes_supported: ['mcp:read'] });
    const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token) return json(401, { error: 'token required' }, { 'www-authenticate': `Bearer resource_metadata="http://127.0.0.1:${server.address().port}/.well-known/oauth-protected-resource/mcp"` });
    // No GET stream, no session to DELETE: what a JSON-only server answers to the other methods.
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      const msg = JSON.parse(text);
      if (msg.id === undefined) return void res.writeHead(202).end();
      const reply = (result) => json(200, { jsonrpc: '2.0', id: msg.id, result });
      if (msg.method === 'initialize') return reply({ protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'notes', version: '1' } });
      if (msg.method === 'tools/list') return reply({ tools: [{ name: 'whoami', inputSchema: { type: 'object' } }] });
      const sub = (() => {
        try {
          return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sub;
        } catch {
          return 'opaque';
        }
      })();
      return reply({ content: [{ type: 'text', text: String(sub) }] });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/mcp`, close: () => new Promise((r) => (server.closeAllConnections(), server.close(r))) };
}

/**
 * Starts the stage. `keyedNames`: per-user API-key server entries (all the one fixture);
 * `notes`: add the per-user OAuth server; `seed`: [user, server, values] secrets records stored
 * before start (the first user of a per-user server, so its tools are listed); `credentials`:
 * more of the `credentials:` section; `labels`: key → name for the fixture's whoami.
 */
export async function perUserStage({ cli, keyedNames = ['keyed'], notes = false, seed = [], credentials = {}, labels = {}, env = {} }) {
  const closers = [];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-attack-per-user-'));
  closers.push(async () => rmSync(dir, { recursive: true, force: true }));
  try {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    const gwUrl = `${publicUrl}/mcp`;
    // The connect pages log browsers in there as the pre-registered public client `switchboard-connect`.
    const as1 = await startAuthServer({
      resources: { [gwUrl]: { scopes: ['mcp:read'] } },
      clients: [
        { client_id: 'switchboard-connect', token_endpoint_auth_method: 'none', redirect_uris: [`${publicUrl}/connect/callback`], grant_types: ['authorization_code'], response_types: ['code'] },
      ],
    });
    closers.push(() => as1.close());
    const keyed = await startApiKeyServer({ labels });
    closers.push(() => keyed.close());
    const servers = keyedNames.map((name) => ({ name, url: keyed.url, transport: 'streamable-http', headers: { Authorization: 'Bearer ${user.API_KEY}' }, userSecrets: { API_KEY: 'Your API key' } }));
    let as2;
    if (notes) {
      const resources = {};
      as2 = await startAuthServer({ resources });
      closers.push(() => as2.close());
      const standIn = await protectedStandIn(as2.issuer);
      closers.push(() => standIn.close());
      resources[standIn.url] = { scopes: ['mcp:read'] };
      servers.push({ name: 'notes', url: standIn.url, transport: 'streamable-http', auth: { type: 'oauth', perUser: true } });
    }
    const key = randomBytes(32).toString('hex');
    const credentialsFile = path.join(dir, 'credentials.json');
    const auditFile = path.join(dir, 'audit.jsonl');
    // The store the gateway uses, opened with the built code the attack runs against.
    const { openCredentialStore } = await import(pathToFileURL(path.join(path.dirname(cli), 'state/open-credentials.js')).href);
    const store = await openCredentialStore({ file: credentialsFile, env: { SWITCHBOARD_CREDENTIALS_KEY: key } });
    for (const [user, server, values] of seed) await store.put(user, server, { kind: 'secrets', values });
    const opsToken = `ops-${randomBytes(16).toString('hex')}`;
    const config = {
      listen: { auth: { issuer: as1.issuer } },
      // An operator's static token, to read /metrics (OAuth users match no profile: they see all).
      clients: [{ name: 'ops', token: opsToken, operator: true }],
      credentials: { file: credentialsFile, publicUrl, login: { clientId: 'switchboard-connect', scopes: ['openid', 'mcp:read'] }, ...credentials },
      sanitize: { auditLog: auditFile },
      servers,
    };
    // JSON is YAML.
    const gw = await startGateway({
      cli,
      yaml: JSON.stringify(config, null, 2),
      args: ['--http', `127.0.0.1:${port}`],
      env: { SWITCHBOARD_CREDENTIALS_KEY: key, XDG_STATE_HOME: dir, SWITCHBOARD_NO_BROWSER: '1', ...env },
    });
    closers.push(() => gw.stop());
    let chromium;
    const clientTokens = [];
    return {
      dir,
      publicUrl,
      gw,
      as1,
      as2,
      keyed,
      store,
      clientTokens,
      opsToken,
      credentialsFile,
      /** The audit file's text ('' when nothing was written). */
      audit: () => (existsSync(auditFile) ? readFileSync(auditFile, 'utf8') : ''),
      /** An MCP session (2025-11-25, raw HTTP) as `user`, with an AS1 token for the gateway. */
      async clientAs(user, capabilities = {}) {
        const token = await as1.mint({ sub: user, aud: gwUrl, scope: 'mcp:read', client_id: 'attack-client' });
        clientTokens.push(token);
        const client = new HttpClient(gw.url, { token });
        await client.initialize(capabilities);
        return client;
      },
      /** A fresh browser context: one person's browser. */
      async browserOf() {
        if (!chromium) {
          chromium = await launchBrowser();
          closers.push(() => chromium.close());
        }
        return chromium.browser.createBrowserContext();
      },
      /** Every (user/server) pair with a credential, sorted. */
      async pairs() {
        return (await store.list()).map((e) => `${e.user}/${e.server}`).sort();
      },
      /** Every secret value and token the store holds now, decrypted with the key. */
      async heldSecrets() {
        const out = [];
        for (const { user, server } of await store.list()) {
          const c = (await store.get(user, server))?.credential;
          if (c?.kind === 'oauth') out.push(c.tokens.accessToken, ...(c.tokens.refreshToken ? [c.tokens.refreshToken] : []));
          else if (c) out.push(...Object.values(c.values));
        }
        return out;
      },
      async close() {
        for (const close of closers.reverse()) await close().catch(() => {});
      },
    };
  } catch (err) {
    for (const close of closers.reverse()) await close().catch(() => {});
    throw err;
  }
}

/** The connect link of a call answered -32042, or undefined (with the answer, to report). */
export async function linkOfCall(client, tool) {
  const r = await client.call(tool);
  const e = r.response?.error;
  const url = e?.code === -32042 ? e.data?.elicitations?.[0]?.url : undefined;
  return { url, answer: JSON.stringify(r.response ?? r.text).slice(0, 200) };
}
