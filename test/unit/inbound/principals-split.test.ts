// Shares split between replicas: each enforces its part of streams, calls and bytes (at least 1),
// sessions and connections stay whole (sessions are counted across replicas in the store).
import { describe, expect, it } from 'vitest';
import { DEFAULT_SHARES, Principals } from '../../../src/inbound/principals.js';

describe('Principals.split', () => {
  it('gives each of n replicas its part of streams, calls and bytes, never less than one', () => {
    const p = new Principals({ ...DEFAULT_SHARES, streams: 10, callsInFlight: 3, bytesInFlight: 1000, codeRuns: 2 });
    p.split(3);
    expect(p.shares).toMatchObject({ streams: 3, callsInFlight: 1, bytesInFlight: 333, codeRuns: 1, sessions: DEFAULT_SHARES.sessions, connections: DEFAULT_SHARES.connections });
    const h = p.holding('alice', false);
    const share = p.callShare(h);
    expect(share.take()).toBe(true);
    expect(share.take()).toBe(false);
    p.split(1);
    expect(p.shares.callsInFlight).toBe(3);
    expect(share.take()).toBe(true);
  });
});
