// Per-user servers end to end (issue 33), on the gateway's real HTTP face with the official SDK
// clients: two static-token profiles (alice, bob), a fixture that needs each caller's own API key,
// credentials in the real sealed file store. Alice's call reaches the server with her key; bob's
// first call asks him to connect (URL elicitation; -32042 to a client that cannot take one;
// input_required to a 2026-07-28 request) and goes through once his credential is stored; a stdio
// server runs one process per user; one user at the per-user bound cannot starve another.
//
// The connect pages are h33-connect's: until they merge, a fake ConnectAsker stands in for them,
// and the test stores the credential as the page would (its `connected` resolves on that).

import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitationCompleteNotificationSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom, filter } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../src/app/app.js';
import type { GatewayConfig } from '../../src/config/types.js';
import { silentLogger } from '../../src/log.js';
import type { CredentialStore } from '../../src/state/credentials.js';
import { openCredentialStore } from '../../src/state/open-credentials.js';
import { cleanup, fixture, nodeBin, pidAlive, spawnTracked, trackClosable } from '../helpers/index.js';
import { LineCollector } from '../helpers/processes.js';
import { STATELESS_VERSION, postMessage } from '../helpers/stateless-client.js';
import { FakeConnectPages } from '../helpers/connect-pages.js';
import { httpConfig, listenWithCredentials } from '../helpers/per-user-app.js';

const TOKENS = { alice: 'alice-gateway-token', bob: 'bob-gateway-token', carol: 'carol-gateway-token' };

let app: App;
let url: string;
let pages: FakeConnectPages;
let store: CredentialStore;
let fixtureUrl: string;

async function startFixture(): Promise<string> {
  const proc = spawnTracked(nodeBin, [fixture('per-user-http.mjs'), '--keys', 'alice-key,bob-key,bob-old-key']);
  const line = await new LineCollector(proc.stdout).waitForLine(/"url"/, 10_000, 'per-user-http stdout');
  return (JSON.parse(line) as { url: string }).url;
}

function config(serverUrl: string, publicUrl?: string): GatewayConfig {
  return httpConfig({
    listen: { host: '127.0.0.1', port: 0 },
    clients: Object.entries(TOKENS).map(([name, token]) => ({ name, token })),
    // Filled per user from their own secrets: the references make both servers per-user.
    servers: [
      { name: 'keys', url: serverUrl, headers: { Authorization: 'Bearer ${user.API_KEY}' } },
      { name: 'proc', command: nodeBin, args: [fixture('per-user-stdio.mjs')], env: { TOKEN: '${user.TOKEN}' } },
    ],
    credentials: { ...(publicUrl === undefined ? {} : { publicUrl }), linkTtl: '60s', connections: { perUser: 1, total: 3, idleTimeout: '10m' } },
  });
}

async function v1Client(user: keyof typeof TOKENS, capabilities: Record<string, unknown>): Promise<Client> {
  const client = trackClosable(new Client({ name: `${user}-client`, version: '1.0.0' }, { capabilities }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKENS[user]}` } } }));
  return client;
}

const text = (r: unknown) => (r as { content: { text: string }[] }).content[0]!.text;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-per-user-'));
  store = await openCredentialStore({ file: join(dir, 'credentials.json'), env: { SWITCHBOARD_CREDENTIALS_KEY: randomBytes(32).toString('base64') } });
  // Alice connected before the gateway started: the catalog lists the servers with her credential.
  await store.put('profile:alice', 'keys', { kind: 'secrets', values: { API_KEY: 'alice-key' } });
  await store.put('profile:alice', 'proc', { kind: 'secrets', values: { TOKEN: 'alice-token' } });
  pages = new FakeConnectPages(store);
  fixtureUrl = await startFixture();
  ({ app, url } = await listenWithCredentials(config(fixtureUrl), store, pages));
}, 30_000);

afterAll(async () => {
  await app?.close();
  await store?.close();
  await cleanup();
});

afterEach(async () => {
  // Each test starts with bob and carol unconnected.
  for (const user of ['profile:bob', 'profile:carol']) for (const server of ['keys', 'proc']) await store.delete(user, server);
  await app.router.registry.closeUser('profile:bob');
  await app.router.registry.closeUser('profile:carol');
});

describe('per-user servers', () => {
  it('are listed for every user from one user’s connection, and alice’s call reaches the server with her key', async () => {
    const alice = await v1Client('alice', {});
    const names = (await alice.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['keys__whoami', 'proc__whoami']));
    expect(text(await alice.callTool({ name: 'keys__whoami', arguments: {} }))).toBe('key:alice-key');
  });

  it('bob (elicitation.url) gets a URL elicitation; the call completes once his credential is stored, as him', async () => {
    const completed: string[] = [];
    const bob = trackClosable(new Client({ name: 'bob-client', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } } }));
    bob.setRequestHandler(ElicitRequestSchema, async (request) => {
      const params = request.params as { mode: string; url: string };
      expect(params.mode).toBe('url');
      // The user opens the page and submits the key after agreeing to open it.
      setImmediate(() => void pages.submit('profile:bob', 'keys', { API_KEY: 'bob-key' }));
      return { action: 'accept' };
    });
    bob.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => void completed.push(n.params.elicitationId));
    await bob.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKENS.bob}` } } }));
    expect(text(await bob.callTool({ name: 'keys__whoami', arguments: {} }))).toBe('key:bob-key');
    const link = pages.links.at(-1)!;
    expect(link).toMatchObject({ user: 'profile:bob', server: 'keys' });
    expect(completed).toEqual([link.elicitationId]);
    // Alice is still herself: bob's connect changed nothing of hers.
    const alice = await v1Client('alice', {});
    expect(text(await alice.callTool({ name: 'keys__whoami', arguments: {} }))).toBe('key:alice-key');
  });

  it('declining ends the call with an error naming the server, and no credential is stored', async () => {
    const bob = trackClosable(new Client({ name: 'bob-client', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } } }));
    bob.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
    await bob.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKENS.bob}` } } }));
    const err = await bob.callTool({ name: 'keys__whoami', arguments: {} }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: -32603, data: { code: 'CONNECT_REQUIRED', server: 'keys' } });
    expect((err as Error).message).toMatch(/declined connecting server "keys"/);
    expect(await store.get('profile:bob', 'keys')).toBeUndefined();
  });

  it('a client without URL elicitation gets -32042 with the URL; calling again after connecting works', async () => {
    const bob = await v1Client('bob', {});
    const err = (await bob.callTool({ name: 'keys__whoami', arguments: {} }).catch((e: unknown) => e)) as { code: number; data: { elicitations: { url: string; mode: string }[] } };
    const link = pages.links.at(-1)!;
    expect(err.code).toBe(-32042);
    expect(err.data.elicitations).toEqual([{ mode: 'url', elicitationId: link.elicitationId, url: link.url, message: link.message }]);
    expect(String((err as unknown as Error).message)).toContain(link.url);
    await pages.submit('profile:bob', 'keys', { API_KEY: 'bob-key' });
    expect(text(await bob.callTool({ name: 'keys__whoami', arguments: {} }))).toBe('key:bob-key');
  });

  it('a 2026-07-28 request gets input_required with the URL elicitation; the retry’s accept completes the call', async () => {
    const caps = { elicitation: { url: {} } };
    const params = { name: 'keys__whoami', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': STATELESS_VERSION, 'io.modelcontextprotocol/clientCapabilities': caps } };
    const headers = { 'mcp-protocol-version': STATELESS_VERSION, 'mcp-method': 'tools/call', 'mcp-name': 'keys__whoami', authorization: `Bearer ${TOKENS.bob}` };
    const first = await postMessage(url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params }, headers);
    expect(first.data.result.resultType).toBe('input_required');
    const [[key, request]] = Object.entries(first.data.result.inputRequests as Record<string, { method: string; params: Record<string, unknown> }>);
    const link = pages.links.at(-1)!;
    expect(request).toEqual({ method: 'elicitation/create', params: { mode: 'url', message: link.message, url: link.url } });
    await pages.submit('profile:bob', 'keys', { API_KEY: 'bob-key' });
    const retry = await postMessage(
      url,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { ...params, requestState: first.data.result.requestState, inputResponses: { [key!]: { action: 'accept' } } } },
      headers,
    );
    expect(retry.data.result.content[0].text).toBe('key:bob-key');
  });

  it('the SDK v2 client (2025-11-25 session, elicitation.url) is asked and completes the same way', async () => {
    const transport = new V2Transport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKENS.bob}` } } });
    const client = new V2Client({ name: 'bob-v2', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: 'legacy' } });
    client.setRequestHandler('elicitation/create', async () => {
      setImmediate(() => void pages.submit('profile:bob', 'keys', { API_KEY: 'bob-key' }));
      return { action: 'accept' };
    });
    trackClosable(client);
    await client.connect(transport);
    expect(text(await client.callTool({ name: 'keys__whoami', arguments: {} }))).toBe('key:bob-key');
  });

  it('a credential revoked mid-session (another process, as `switchboard users revoke`) is asked for again on the next call; a new connect is used at once', async () => {
    await pages.submit('profile:bob', 'keys', { API_KEY: 'bob-key' });
    const bob = await v1Client('bob', {});
    expect(text(await bob.callTool({ name: 'keys__whoami', arguments: {} }))).toBe('key:bob-key');
    await store.delete('profile:bob', 'keys');
    const err = (await bob.callTool({ name: 'keys__whoami', arguments: {} }).catch((e: unknown) => e)) as { code: number };
    expect(err.code).toBe(-32042);
    // He connects again with another key (the fixture knows alice-key too): the next call uses it, not the old connection.
    await pages.submit('profile:bob', 'keys', { API_KEY: 'alice-key' });
    expect(text(await bob.callTool({ name: 'keys__whoami', arguments: {} }))).toBe('key:alice-key');
    // A connect that replaces a credential in use: the open connection gives way to one with the new key.
    await pages.submit('profile:bob', 'keys', { API_KEY: 'bob-key' });
    expect(text(await bob.callTool({ name: 'keys__whoami', arguments: {} }))).toBe('key:bob-key');
  });

  it('a credential the server refuses during a call (401) is dropped and the user asked again; the call goes on once he connects', async () => {
    await pages.submit('profile:bob', 'keys', { API_KEY: 'bob-old-key' });
    const completed: string[] = [];
    const bob = trackClosable(new Client({ name: 'bob-client', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } } }));
    bob.setRequestHandler(ElicitRequestSchema, async () => {
      setImmediate(() => void pages.submit('profile:bob', 'keys', { API_KEY: 'bob-key' }));
      return { action: 'accept' };
    });
    bob.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => void completed.push(n.params.elicitationId));
    await bob.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKENS.bob}` } } }));
    expect(text(await bob.callTool({ name: 'keys__revoke_my_key', arguments: {} }))).toBe('revoked:bob-old-key');
    // The service now answers 401 to his old key: he is asked, connects, and this same call answers.
    expect(text(await bob.callTool({ name: 'keys__whoami', arguments: {} }))).toBe('key:bob-key');
    expect(completed).toHaveLength(1);
  });

  it('a per-user stdio server runs one process per user, each with their own secret', async () => {
    await pages.submit('profile:bob', 'proc', { TOKEN: 'bob-token' });
    const alice = await v1Client('alice', {});
    const bob = await v1Client('bob', {});
    const a = text(await alice.callTool({ name: 'proc__whoami', arguments: {} }));
    const b = text(await bob.callTool({ name: 'proc__whoami', arguments: {} }));
    expect(a).toMatch(/^token:alice-token pid:\d+$/);
    expect(b).toMatch(/^token:bob-token pid:\d+$/);
    const pidOf = (s: string) => Number(/pid:(\d+)/.exec(s)![1]);
    expect(pidOf(a)).not.toBe(pidOf(b));
    // Revoking bob closes his process: no orphan.
    await app.router.registry.closeUser('profile:bob');
    expect(pidAlive(pidOf(b))).toBe(false);
    expect(pidAlive(pidOf(a))).toBe(true);
  });

  it('one user at the per-user bound (1 here) cannot starve another: carol still gets her connection', async () => {
    await pages.submit('profile:bob', 'keys', { API_KEY: 'bob-key' });
    await pages.submit('profile:bob', 'proc', { TOKEN: 'bob-token' });
    await pages.submit('profile:carol', 'keys', { API_KEY: 'alice-key' });
    const bob = await v1Client('bob', {});
    // Bob alternates between two servers: each opening closes his other (idle) one, never another user's.
    expect(text(await bob.callTool({ name: 'keys__whoami', arguments: {} }))).toBe('key:bob-key');
    expect(text(await bob.callTool({ name: 'proc__whoami', arguments: {} }))).toMatch(/^token:bob-token/);
    expect(app.router.registry.perUser.count('profile:bob')).toBe(1);
    const carol = await v1Client('carol', {});
    expect(text(await carol.callTool({ name: 'keys__whoami', arguments: {} }))).toBe('key:alice-key');
  });

  it('with no user connected, the server waits in needs-connect saying where to connect, with no tools; the first connect lists it; a revoke moves the listing on, the last one keeps its tools listed', async () => {
    const empty = await openCredentialStore({
      file: join(mkdtempSync(join(tmpdir(), 'sb-per-user-empty-')), 'credentials.json'),
      env: { SWITCHBOARD_CREDENTIALS_KEY: randomBytes(32).toString('hex') },
    });
    const second = new App(config(fixtureUrl, 'https://gateway.example/'), silentLogger(), { credentials: empty, connectAsker: new FakeConnectPages(empty) });
    try {
      await second.start();
      const keys = () => second.summary().find((s) => s.name === 'keys')!;
      expect(keys()).toMatchObject({ state: 'needs-connect', problem: expect.stringContaining('connect at https://gateway.example/connect/keys') });
      expect(second.catalog.lists.tools.entries.filter((e) => e.server === 'keys')).toEqual([]);
      const listed = firstValueFrom(second.store.snapshots.pipe(filter((c) => c.lists.tools.entries.some((e) => e.server === 'keys'))));
      await empty.put('profile:bob', 'keys', { kind: 'secrets', values: { API_KEY: 'bob-key' } });
      await second.perUser.noteConnect('profile:bob', 'keys'); // what the connect page does once it stored the credential
      await listed;
      expect(keys().state).toBe('ready');
      // Bob is revoked: the listing moves to alice's credential; with her revoked too, the server waits again.
      await empty.put('profile:alice', 'keys', { kind: 'secrets', values: { API_KEY: 'alice-key' } });
      await empty.delete('profile:bob', 'keys');
      await second.perUser.recheck(); // what the watch runs every few seconds
      expect(keys().state).toBe('ready');
      expect(second.router.connection('keys')!.config).toMatchObject({ headers: { Authorization: 'Bearer alice-key' } });
      // With nobody's credential left the server waits again, yet keeps the tools it listed: a call
      // must still reach the router to ask its user to connect (the stdio gateway's only way back).
      await empty.delete('profile:alice', 'keys');
      await second.perUser.recheck();
      expect(keys().state).toBe('needs-connect');
      second.store.rebuild();
      expect(second.catalog.lists.tools.entries.filter((e) => e.server === 'keys').length).toBeGreaterThan(0);
    } finally {
      await second.close();
      await empty.close();
    }
  });

  it('an HTTP client the gateway did not authenticate has no user: a clear error saying so', async () => {
    // The same gateway's face requires tokens; a session of no user is what stdio-less, token-less faces give.
    const session = app.openSession(() => {});
    const reply = await session.handle({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'anon', version: '1' } } });
    expect(reply).toBeDefined();
    await session.handle({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const answer = (await session.handle({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'keys__whoami', arguments: {} } })) as { error: { message: string; data: { code: string } } };
    expect(answer.error.data.code).toBe('CONNECT_REQUIRED');
    expect(answer.error.message).toMatch(/must authenticate its clients/);
    session.close();
  });
});
