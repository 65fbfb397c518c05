// ServerConnection's needs-login state, in process, against a real AS and a protected MCP server:
// a login is needed at connect, or becomes needed while the server is in use (refresh refused);
// a token stored by a login elsewhere is picked up; other failures are not mistaken for it; a
// 2026-07-28 server gets the token on its stateless POSTs and the same refresh on 401.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.js';
import { createServerAuth, MemoryTokenStore, type ServerAuth } from '../../src/outbound/auth/index.js';
import { serverAuthFor } from '../../src/outbound/auth/registry.js';
import type { HttpServerConfig } from '../../src/config/types.js';
import { silentLogger } from '../../src/log.js';
import { startAuthServer, type AuthServer } from '../fixtures/oauth/auth-server.js';
import { followRedirects } from '../fixtures/oauth/browser.js';
import { startProtectedServer, type ProtectedServer } from '../fixtures/oauth/protected-server.js';
import { gatewayConfig, watched } from '../unit/outbound/connection-harness.js';

let as: AuthServer;
let mcp: ProtectedServer;
/** What the AS issues tokens for (read at each request: servers started later are added here). */
const resources: Record<string, { scopes: string[] }> = {};

beforeAll(async () => {
  as = await startAuthServer({ resources });
  mcp = await startProtectedServer({ issuer: as.issuer, requiredScopes: ['mcp:read'] });
  resources[mcp.url] = { scopes: ['mcp:read'] };
});
afterAll(async () => {
  await mcp?.close();
  await as?.close();
});

const httpConfig = (url: string, extra: Record<string, unknown> = {}) =>
  gatewayConfig({ servers: [{ name: 'notes', url, auth: 'oauth', transport: 'streamable-http', reconnect: { initialDelay: '10ms', maxDelay: '20ms' }, ...extra }] }).servers[0] as HttpServerConfig;

/** The gateway's non-interactive state, and a `switchboard login` that writes the same store. */
function authPair(url: string) {
  const store = new MemoryTokenStore();
  const target = { name: 'notes', url, auth: { type: 'oauth' as const } };
  const gateway: ServerAuth = createServerAuth(target, { store, interactive: false });
  const login = () => createServerAuth(target, { store, interactive: true, print: () => {}, openUrl: async (u) => void (await followRedirects(u)) }).login();
  return { store, gateway, login };
}

describe('ServerConnection: needs-login', () => {
  it('no token at connect: needs-login (not a crash loop), then a login elsewhere is picked up by itself', async () => {
    const { gateway, login } = authPair(mcp.url);
    const w = watched(httpConfig(mcp.url), { auth: gateway });
    await w.connection.connect();
    expect(w.connection.state).toBe('needs-login');
    expect(w.connection.problem).toMatch(/needs an OAuth login.*Run: switchboard login notes/);
    expect(w.connection.unavailable().message).toMatch(/Run: switchboard login notes/);
    await login();
    await w.until((c) => c.state === 'ready');
    expect(w.connection.lists.tools.map((t) => t.name)).toEqual(['whoami', 'write_note']);
    await w.connection.close();
  });

  it('a refresh refused while ready: needs-login at once, calls fail saying what to run, items stay listed for the grace period', async () => {
    const { store, gateway, login } = authPair(mcp.url);
    await login();
    const w = watched(httpConfig(mcp.url), { auth: gateway });
    await w.connection.connect();
    expect(w.connection.state).toBe('ready');
    const t = (await store.getTokens('notes', mcp.url))!;
    await as.revokeRefreshToken(t.refreshToken!);
    mcp.reject(t.accessToken);
    const failed = await w.connection.forward('tools/call', { name: 'whoami', arguments: {} }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failed).toBeInstanceOf(GatewayError);
    expect((failed as Error).message).toMatch(/needs an OAuth login.*Run: switchboard login notes/);
    await w.until((c) => c.state === 'needs-login');
    expect(w.connection.listed).toBe(true); // downtimeGrace: a quick login is invisible to clients
    await expect(w.connection.forward('tools/call', { name: 'whoami', arguments: {} })).rejects.toThrow(/Run: switchboard login notes/);
    await w.connection.close();
  });

  it('a server with auth configured that fails for another reason is not reported as needing a login', async () => {
    const broken = createServer((_req, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('boom'));
    await new Promise<void>((r) => broken.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(broken.address() as AddressInfo).port}/mcp`;
    const { gateway } = authPair(url);
    const w = watched(httpConfig(url), { auth: gateway, reconnect: false });
    await w.connection.connect();
    expect(w.connection.state).toBe('failed');
    expect(w.connection.problem).toMatch(/500/);
    await w.connection.close();
    await new Promise<void>((r) => broken.close(() => r()));
  });
});

describe('ServerConnection: a protected server of 2026-07-28 (stateless HTTP)', () => {
  it('every POST carries the token, from the discover probe on; a token the server stops accepting is refreshed once and the call goes through', async () => {
    const modern = await startProtectedServer({ issuer: as.issuer, requiredScopes: ['mcp:read'], modern: true });
    resources[modern.url] = { scopes: ['mcp:read'] };
    try {
      const { store, gateway, login } = authPair(modern.url);
      await login();
      const w = watched(httpConfig(modern.url), { auth: gateway });
      await w.connection.connect();
      expect(w.connection.state).toBe('ready');
      expect(w.connection.era).toBe('stateless');
      expect(w.connection.lists.tools.map((t) => t.name)).toEqual(['whoami', 'write_note']);

      const first = (await store.getTokens('notes', modern.url))!;
      modern.reject(first.accessToken);
      const refreshes = as.counts.token.refresh_token ?? 0;
      const answer = await w.connection.forward('tools/call', { name: 'whoami', arguments: {} });
      expect(answer.result?.content?.[0]?.text).toMatch(/mcp:read/);
      expect((as.counts.token.refresh_token ?? 0) - refreshes).toBe(1);
      const second = (await store.getTokens('notes', modern.url))!;
      expect(second.accessToken).not.toBe(first.accessToken);

      // Every request went over the 2026-07-28 transport with a token: the first, then the new one.
      expect(modern.versions.every((v) => v === '2026-07-28')).toBe(true);
      expect(modern.seen).toHaveLength(modern.counts.requests);
      expect(new Set(modern.seen)).toEqual(new Set([`Bearer ${first.accessToken}`, `Bearer ${second.accessToken}`]));
      expect(modern.seen.at(-1)).toBe(`Bearer ${second.accessToken}`);
      await w.connection.close();
    } finally {
      await modern.close();
    }
  });
});

describe('the process-wide ServerAuth registry', () => {
  it('gives every connection to one server entry the same ServerAuth (one token, one refresh), another entry its own', () => {
    const a = httpConfig('https://mcp.example.com/mcp');
    const again = httpConfig('https://mcp.example.com/mcp');
    const other = httpConfig('https://mcp.example.com/mcp', { auth: { type: 'oauth', scopes: ['x'] } });
    const log = silentLogger();
    expect(serverAuthFor(a, log)).toBe(serverAuthFor(again, log));
    expect(serverAuthFor(other, log)).not.toBe(serverAuthFor(a, log));
  });
});
