// Opening a user's own connection from their stored credential: `${user.NAME}` filled from their
// secrets (a missing one, or no credential, is CONNECT_REQUIRED), a credential the server refuses is
// dropped and audited, and an OAuth refresh runs through the credential store's single flight.

import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fillSecrets, openPerUserConnection, type PerUserOpenDeps, renewer } from '../../../src/app/per-user-open.js';
import type { ServerConfig } from '../../../src/config/types.js';
import { GatewayError } from '../../../src/errors.js';
import type { AuditEntry } from '../../../src/observability/audit.js';
import type { StoredTokens } from '../../../src/outbound/auth/token-store.js';
import type { ServerAuth } from '../../../src/outbound/auth/types.js';
import type { Connection } from '../../../src/router/session.js';
import type { CredentialStore } from '../../../src/state/credentials.js';
import { openCredentialStore } from '../../../src/state/open-credentials.js';
import { gatewayConfig } from '../outbound/connection-harness.js';

let store: CredentialStore;
let audited: AuditEntry[];

beforeEach(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-per-user-open-'));
  store = await openCredentialStore({ file: join(dir, 'credentials.json'), env: { SWITCHBOARD_CREDENTIALS_KEY: randomBytes(32).toString('hex') } });
  audited = [];
});
afterEach(() => store.close());

const http = gatewayConfig({ servers: [{ name: 'gh', url: 'https://gh.test/mcp', headers: { Authorization: 'Bearer $${user.TOKEN}', 'X-Org': 'acme' } }] }).servers[0]!;
const stdio = gatewayConfig({ servers: [{ name: 'p', command: 'p', env: { A: '$${user.A}-$${user.B}', PLAIN: 'x' } }] }).servers[0]!;

function deps(connect: PerUserOpenDeps['connect']): PerUserOpenDeps {
  return {
    credentials: async () => store,
    connect,
    clients: () => ({ getClient: async () => undefined, setClient: async () => {} }),
    audit: { record: (e) => audited.push(e), close: async () => {} },
  };
}

describe('fillSecrets', () => {
  it('fills every ${user.NAME} of headers (HTTP) or env (stdio), and nothing else', () => {
    expect((fillSecrets(http, { TOKEN: 't1' }) as Extract<ServerConfig, { kind: 'http' }>).headers).toEqual({ Authorization: 'Bearer t1', 'X-Org': 'acme' });
    expect((fillSecrets(stdio, { A: '1', B: '2' }) as Extract<ServerConfig, { kind: 'stdio' }>).env).toEqual({ A: '1-2', PLAIN: 'x' });
  });
  it('names the first secret the credential lacks (never a value)', () => {
    expect(fillSecrets(stdio, { A: 'secret-a' })).toBe('B');
    expect(fillSecrets(http, { toString: 'x' } as unknown as Record<string, string>)).toBe('TOKEN');
  });
});

describe('openPerUserConnection', () => {
  it('no credential, or one missing a secret: CONNECT_REQUIRED naming the server, nothing connected', async () => {
    let connects = 0;
    const d = deps(async () => (connects++, {}) as Connection);
    await expect(openPerUserConnection(d, http, 'alice')).rejects.toMatchObject({ code: 'CONNECT_REQUIRED', server: 'gh' });
    await store.put('alice', 'gh', { kind: 'secrets', values: { OTHER: 'v' } });
    const err = await openPerUserConnection(d, http, 'alice').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'CONNECT_REQUIRED' });
    expect((err as Error).message).toContain('TOKEN');
    expect((err as Error).message).not.toContain('"v"');
    expect(connects).toBe(0);
  });

  it('connects with the filled entry', async () => {
    await store.put('alice', 'gh', { kind: 'secrets', values: { TOKEN: 'alice-token' } });
    let seen: ServerConfig | undefined;
    let oauth: ServerAuth | undefined;
    await openPerUserConnection(
      deps(async (entry, auth) => ((seen = entry), (oauth = auth), {} as Connection)),
      http,
      'alice',
    );
    expect((seen as Extract<ServerConfig, { kind: 'http' }>).headers.Authorization).toBe('Bearer alice-token');
    // Its own OAuth client state, with no token: never the process-wide one of `switchboard login`.
    expect(oauth).toBeDefined();
    expect(oauth!.state().status).toBe('none');
  });

  it('a 401 at the handshake drops the credential, audits it without the secret, and asks for a new connect', async () => {
    await store.put('alice', 'gh', { kind: 'secrets', values: { TOKEN: 'stale-token' } });
    const refused = deps(async () => {
      throw new GatewayError('HTTP_ERROR', 'HTTP 401', { server: 'gh', status: 401 });
    });
    await expect(openPerUserConnection(refused, http, 'alice')).rejects.toMatchObject({ code: 'CONNECT_REQUIRED' });
    expect(await store.get('alice', 'gh')).toBeUndefined();
    expect(audited).toEqual([expect.objectContaining({ server: 'gh', kind: 'credential.denied', item: 'alice' })]);
    expect(JSON.stringify(audited)).not.toContain('stale-token');
  });

  it('another failure (server down) keeps the credential and is passed on as it is', async () => {
    await store.put('alice', 'gh', { kind: 'secrets', values: { TOKEN: 't' } });
    const down = deps(async () => {
      throw new GatewayError('SERVER_UNAVAILABLE', 'down', { server: 'gh' });
    });
    await expect(openPerUserConnection(down, http, 'alice')).rejects.toMatchObject({ code: 'SERVER_UNAVAILABLE' });
    expect(await store.get('alice', 'gh')).toBeDefined();
  });
});

describe('renewer (OAuth refresh of one user)', () => {
  const tokens = (access: string): StoredTokens => ({
    accessToken: access,
    refreshToken: `r-${access}`,
    tokenType: 'Bearer',
    issuer: 'https://as.test',
    resource: 'https://gh.test/mcp',
    grant: 'authorization_code',
    obtainedAt: 1,
  });

  it('concurrent refreshes share one grant, store its tokens once, and audit the refresh', async () => {
    await store.put('alice', 'gh', { kind: 'oauth', tokens: tokens('old') });
    const renew = renewer(
      deps(async () => ({}) as Connection),
      store,
      'alice',
      'gh',
    );
    let grants = 0;
    const grant = async () => (grants++, tokens('new'));
    const [a, b] = await Promise.all([renew(grant), renew(grant)]);
    expect(grants).toBe(1);
    expect(a.accessToken).toBe('new');
    expect(b.accessToken).toBe('new');
    expect((await store.get('alice', 'gh'))!.credential).toMatchObject({ kind: 'oauth', tokens: { accessToken: 'new' } });
    expect(audited.filter((e) => e.kind === 'credential.refresh')).toHaveLength(1);
  });

  it('tokens another process refreshed already are taken as they are: no grant, nothing audited', async () => {
    await store.put('alice', 'gh', { kind: 'oauth', tokens: tokens('by-another-replica') });
    const renew = renewer(
      deps(async () => ({}) as Connection),
      store,
      'alice',
      'gh',
    );
    const got = await renew(async (stored) => stored!);
    expect(got.accessToken).toBe('by-another-replica');
    expect(audited).toEqual([]);
  });
});
