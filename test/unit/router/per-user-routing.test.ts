// The registry's routing of per-user servers: the shared connection only lists (calls go to the
// user's own), a client with no user is told the gateway must authenticate it, a user without a
// credential is asked once and then served, a revoked or replaced credential's connection gives
// way, and a credential the server refuses mid-call is dropped and asked for again.

import { describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../../src/config/types.js';
import { GatewayError } from '../../../src/errors.js';
import { ConnectAsks } from '../../../src/router/connect-ask.js';
import { ConnectionRegistry, type PerUserDeps } from '../../../src/router/connections.js';
import type { Connection, RequestOwner, Session } from '../../../src/router/session.js';

const perUserEntry = { name: 'gh', isolation: 'shared', perUser: { kind: 'secrets', secrets: [{ name: 'TOKEN' }] } } as unknown as ServerConfig;
const plainEntry = { name: 'plain', isolation: 'shared' } as unknown as ServerConfig;

function fakeConnection(config: ServerConfig, label: string) {
  return {
    name: config.name,
    config,
    label,
    callsInFlight: 0,
    closed: false,
    close: async function (this: { closed: boolean }) {
      this.closed = true;
    },
  } as unknown as Connection & { label: string; closed: boolean };
}

function owner(user: string | undefined): RequestOwner {
  const session = { id: `s-${user}`, user, clientCapabilities: {}, unaskable: undefined, rootsFromConfig: false, hears: () => false, send: () => {} } as unknown as Session;
  return { session, client: session };
}

/** A registry whose per-user openings read `credentials` (user → label), and whose asks "connect" by filling it. */
function registry(credentials: Map<string, string>) {
  const opened: (Connection & { label: string; closed: boolean })[] = [];
  const asked: string[] = [];
  const refused: string[] = [];
  const current = new Map<Connection, string>();
  const asks = new ConnectAsks(() => undefined);
  // The test's asks: no client to elicit, so the connect is simulated and recorded instead.
  asks.ask = async (_owner, user, server) => {
    asked.push(`${user}/${server}`);
    credentials.set(user, `${user}-new`);
  };
  const deps: PerUserDeps = {
    open: async (server, user) => {
      const label = credentials.get(user);
      if (label === undefined) throw new GatewayError('CONNECT_REQUIRED', 'none', { server: server.name });
      const c = fakeConnection(server, label);
      opened.push(c);
      current.set(c, label);
      return c;
    },
    bounds: () => ({ perUser: 4, total: 8, idleTimeoutMs: 60_000 }),
    asks,
    entry: (name) => (name === 'gh' ? perUserEntry : undefined),
    current: async (c, user) => credentials.get(user) === current.get(c),
    refused: async (user) => {
      refused.push(user);
      credentials.delete(user);
    },
  };
  const r = new ConnectionRegistry(
    () => Promise.reject(new Error('no per-session')),
    () => 0,
    deps,
  );
  const listing = fakeConnection(perUserEntry, 'listing');
  const plain = fakeConnection(plainEntry, 'plain');
  r.set(
    new Map<string, Connection>([
      ['gh', listing],
      ['plain', plain],
    ]),
  );
  return { r, opened, asked, refused, listing, plain };
}

describe('ConnectionRegistry, per-user servers', () => {
  it('a shared server answers at once with its shared connection; a per-user one never does', async () => {
    const { r, plain, listing } = registry(new Map([['alice', 'alice-1']]));
    expect(r.for('plain', owner('alice'))).toBe(plain);
    const c = await r.for('gh', owner('alice'));
    expect(c).not.toBe(listing);
    expect((c as unknown as { label: string }).label).toBe('alice-1');
  });

  it('a client with no user is told the gateway must authenticate its clients', async () => {
    const { r } = registry(new Map());
    await expect(r.for('gh', owner(undefined))).rejects.toMatchObject({ code: 'CONNECT_REQUIRED', message: expect.stringMatching(/must authenticate its clients/) });
  });

  it('a user without a credential is asked once, then served with the new one', async () => {
    const { r, asked } = registry(new Map());
    const c = await r.for('gh', owner('bob'));
    expect(asked).toEqual(['bob/gh']);
    expect((c as unknown as { label: string }).label).toBe('bob-new');
  });

  it('a connection whose credential was revoked or replaced closes, and the next call opens from the store', async () => {
    const credentials = new Map([['alice', 'alice-1']]);
    const { r, opened } = registry(credentials);
    await r.for('gh', owner('alice'));
    credentials.set('alice', 'alice-2'); // a new connect
    const c = await r.for('gh', owner('alice'));
    expect((c as unknown as { label: string }).label).toBe('alice-2');
    expect(opened[0]!.closed).toBe(true);
  });

  it('a 401 mid-call drops the credential, closes the connection, asks, and gives the connection to retry on', async () => {
    const { r, refused, asked } = registry(new Map([['alice', 'alice-1']]));
    const first = await r.for('gh', owner('alice'));
    const err = new GatewayError('CONNECTION_CLOSED', 'gh: POST → 401', { server: 'gh', cause: new GatewayError('HTTP_ERROR', 'POST → 401', { status: 401 }) });
    const next = await r.afterRefusal(first, owner('alice'), err);
    expect(refused).toEqual(['alice']);
    expect(asked).toEqual(['alice/gh']);
    expect((first as unknown as { closed: boolean }).closed).toBe(true);
    expect((next as unknown as { label: string }).label).toBe('alice-new');
  });

  it('any other failure is passed on untouched, nothing dropped', async () => {
    const { r, refused } = registry(new Map([['alice', 'alice-1']]));
    const first = await r.for('gh', owner('alice'));
    const timeout = new GatewayError('SERVER_TIMEOUT', 'slow', { server: 'gh' });
    await expect(r.afterRefusal(first, owner('alice'), timeout)).rejects.toBe(timeout);
    expect(refused).toEqual([]);
  });
});
