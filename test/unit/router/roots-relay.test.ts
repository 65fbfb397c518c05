// What a server asking roots/list is told: its client's own roots when that client declared the
// capability; else the configured roots (the profile's, else the top-level ones); with no client
// to ask (at start-up, outside any request) the top-level roots, else an empty list — never an
// error a server would print as a failure, never another client's roots.

import { describe, expect, it } from 'vitest';
import type { Connection, RequestOwner, Session } from '../../../src/router/session.js';
import { ServerRequestRelay } from '../../../src/router/server-request-relay.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} } as never;
const connection = { name: 'files' } as Connection;
const request = { jsonrpc: '2.0' as const, id: 1, method: 'roots/list' };
const signal = new AbortController().signal;
const GLOBAL = [{ uri: 'file:///srv/docs', name: 'docs' }];
const MINE = [{ uri: 'file:///home/me', name: 'me' }];

function session(capabilities: Record<string, any>, roots?: typeof MINE): Session {
  return {
    id: 's',
    clientCapabilities: capabilities,
    profile: roots ? ({ name: 'p', roots } as never) : undefined,
    // As its own requests' client, the way ClientSession is for a stateful request.
    hears: () => true,
    rootsFromConfig: capabilities.roots === undefined,
    unaskable: undefined,
    requestClient: async () => ({ roots: [{ uri: 'file:///client/own', name: 'own' }] }),
  } as unknown as Session;
}

function relay(configured: typeof GLOBAL | undefined, sessions = 0) {
  return new ServerRequestRelay(
    silent,
    () => sessions,
    () => undefined,
    (s) => (s?.profile as { roots?: typeof MINE } | undefined)?.roots ?? configured,
  );
}

describe('roots/list', () => {
  it('with no client to ask: the configured roots, else an empty list', async () => {
    expect(await relay(GLOBAL).relay(connection, request, undefined, signal)).toEqual({ roots: GLOBAL });
    expect(await relay(undefined).relay(connection, request, undefined, signal)).toEqual({ roots: [] });
    // Clients connected, but none the request belongs to: still the gateway's own roots.
    expect(await relay(GLOBAL, 3).relay(connection, request, undefined, signal)).toEqual({ roots: GLOBAL });
  });

  it('during a request of a client that declared roots: that client answers', async () => {
    const mine = session({ roots: {} }, MINE);
    const owner: RequestOwner = { session: mine, client: mine };
    expect(await relay(GLOBAL).relay(connection, request, owner, signal)).toEqual({ roots: [{ uri: 'file:///client/own', name: 'own' }] });
  });

  it('for a client that declared none: its profile’s roots, else the top-level ones, else the client’s error', async () => {
    const own = (s: Session): RequestOwner => ({ session: s, client: s });
    expect(await relay(GLOBAL).relay(connection, request, own(session({}, MINE)), signal)).toEqual({ roots: MINE });
    expect(await relay(GLOBAL).relay(connection, request, own(session({})), signal)).toEqual({ roots: GLOBAL });
    const plain = own({ ...session({}), requestClient: () => Promise.reject(new Error('the client did not declare the roots capability')) } as Session);
    await expect(relay(undefined).relay(connection, request, plain, signal)).rejects.toThrow(/did not declare the roots capability/);
  });
});
