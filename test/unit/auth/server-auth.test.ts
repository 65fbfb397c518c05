import { describe, expect, it } from 'vitest';
import { AuthError, createServerAuth, MemoryTokenStore, sendWithAuth } from '../../../src/outbound/auth/index.js';
import { SingleFlight } from '../../../src/outbound/auth/single-flight.js';

const server = { name: 'files', url: 'http://127.0.0.1:9/mcp' };
const stored = (over: Record<string, unknown> = {}) => ({
  accessToken: 'at-1',
  tokenType: 'bearer',
  issuer: 'http://127.0.0.1:8',
  resource: server.url,
  grant: 'authorization_code' as const,
  obtainedAt: 0,
  requestedScopes: ['files:read'],
  scopes: ['files:read'],
  ...over,
});

describe('ServerAuth without a network', () => {
  it('starts in none (automatic) or needs-login (configured); sends nothing until it has a token', async () => {
    const auto = createServerAuth(server, { store: new MemoryTokenStore() });
    await auto.ready;
    expect(auto.state().status).toBe('none');
    expect(await auto.headers()).toEqual({});
    const configured = createServerAuth({ ...server, auth: { type: 'oauth' } }, { store: new MemoryTokenStore() });
    await configured.ready;
    expect(configured.state()).toMatchObject({ status: 'needs-login' });
  });

  it('uses a stored token: Authorization header, status ok with expiry and scopes', async () => {
    const store = new MemoryTokenStore();
    await store.setTokens('files', server.url, stored({ expiresAt: Date.now() + 3_600_000 }));
    const auth = createServerAuth(server, { store });
    await auth.ready;
    expect(await auth.headers()).toEqual({ authorization: 'Bearer at-1' });
    expect(auth.state()).toMatchObject({ status: 'ok', scopes: ['files:read'], issuer: 'http://127.0.0.1:8' });
  });

  it('non-interactive 401 without a token: AUTH_REQUIRED naming the server and the challenged scopes', async () => {
    const auth = createServerAuth(server, { store: new MemoryTokenStore(), interactive: false });
    const err = await auth.challenged(401, 'Bearer resource_metadata="http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp", scope="files:read"').catch((e) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect(err).toMatchObject({ code: 'AUTH_REQUIRED', server: 'files', scopes: ['files:read'] });
    expect(err.message).toContain('switchboard login files');
    expect(auth.state()).toMatchObject({ status: 'needs-login', reason: 'no token yet' });
  });

  it('a 401 without a Bearer challenge on an unconfigured server is not OAuth: a clear error, no discovery', async () => {
    const calls: string[] = [];
    const auth = createServerAuth(server, { store: new MemoryTokenStore(), interactive: true, fetch: async (u) => (calls.push(String(u)), new Response('', { status: 404 })) });
    await expect(auth.challenged(401, 'Basic realm="x"')).rejects.toMatchObject({ code: 'AUTH_FAILED' });
    expect(calls).toEqual([]);
  });

  it('a 403 that is not insufficient_scope cannot be fixed by a login: AUTH_FORBIDDEN', async () => {
    const auth = createServerAuth(server, { store: new MemoryTokenStore(), interactive: true });
    await expect(auth.challenged(403, undefined)).rejects.toMatchObject({ code: 'AUTH_FORBIDDEN', server: 'files' });
  });

  it('a failed interactive login is an AUTH_FAILED naming the server (here: discovery finds nothing)', async () => {
    const auth = createServerAuth(server, { store: new MemoryTokenStore(), interactive: true, fetch: async () => new Response('', { status: 404 }), print: () => {} });
    // No PRM, no AS metadata: the 2025-03-26 fallback endpoints, whose /register answers 404.
    const err = await auth.challenged(401, 'Bearer').catch((e) => e);
    expect(err).toMatchObject({ code: 'AUTH_FAILED', server: 'files' });
    expect(err.message).toMatch(/"files"/);
  });

  it('a concurrent failure that used an older token just retries: another caller already has a new one', async () => {
    const store = new MemoryTokenStore();
    await store.setTokens('files', server.url, stored({ accessToken: 'at-2' }));
    const auth = createServerAuth(server, { store });
    await auth.ready;
    await expect(auth.challenged(401, 'Bearer error="invalid_token"', { authorization: 'Bearer at-1' })).resolves.toBe('retry');
  });

  it('sendWithAuth stops after a bounded number of challenges and hands back the last response', async () => {
    let sends = 0;
    const fake = {
      headers: async () => ({}),
      challenged: async () => 'retry' as const,
      state: () => ({ status: 'ok' as const }),
      login: async () => ({ status: 'ok' as const }),
      logout: async () => {},
      ready: Promise.resolve(),
    };
    const res = await sendWithAuth(fake, async () => (sends++, { status: 401 }));
    expect(res.status).toBe(401);
    expect(sends).toBe(3);
  });
});

describe('SingleFlight', () => {
  it('joins callers with the same key, queues a different key behind, and never rejects settled()', async () => {
    const f = new SingleFlight();
    const order: string[] = [];
    let release!: () => void;
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const a1 = f.run('a', () => {
      started();
      return new Promise<void>((r) => (release = () => (order.push('a'), r())));
    });
    const a2 = f.run('a', async () => void order.push('a-again'));
    const b = f.run('b', async () => void order.push('b'));
    expect(f.busy).toBe(true);
    await running;
    release();
    await Promise.all([a1, a2, b]);
    expect(order).toEqual(['a', 'b']);
    const failing = f.run('c', async () => {
      throw new Error('boom');
    });
    await expect(f.settled()).resolves.toBeUndefined();
    await expect(failing).rejects.toThrow('boom');
    expect(f.busy).toBe(false);
  });
});

describe('needs-login and a login done elsewhere', () => {
  it('a refused token that cannot be refreshed is dropped; the token a later login stores is picked up', async () => {
    const store = new MemoryTokenStore();
    await store.setTokens('files', server.url, stored());
    const auth = createServerAuth(server, { store, interactive: false });
    expect(await auth.headers()).toEqual({ authorization: 'Bearer at-1' });
    await expect(auth.challenged(401, 'Bearer error="invalid_token"', { authorization: 'Bearer at-1' })).rejects.toMatchObject({ code: 'AUTH_REQUIRED' });
    expect(auth.state().status).toBe('needs-login');
    expect(await auth.headers()).toEqual({}); // the refused token is not sent again
    await store.setTokens('files', server.url, stored({ accessToken: 'at-2' }));
    expect(await auth.headers()).toEqual({ authorization: 'Bearer at-2' });
    expect(auth.state().status).toBe('ok');
  });
});

describe('browserOpener', () => {
  it('opens only where a browser can exist', async () => {
    const { browserOpener } = await import('../../../src/outbound/auth/browser.js');
    expect(browserOpener({}, 'linux')).toBeUndefined();
    expect(browserOpener({ DISPLAY: ':0', SSH_CONNECTION: '1 2 3 4' }, 'linux')).toBeUndefined();
    expect(browserOpener({ DISPLAY: ':0', CI: 'true' }, 'linux')).toBeUndefined();
    expect(typeof browserOpener({ DISPLAY: ':0' }, 'linux')).toBe('function');
    expect(typeof browserOpener({}, 'darwin')).toBe('function');
  });
});
