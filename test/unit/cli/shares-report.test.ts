// What check says about limits.perPrincipal: the shares in force, and a note for each that is as
// large as the pool it divides (it then keeps no principal from taking the pool).

import { describe, expect, it } from 'vitest';
import { renderShares, sharesReport } from '../../../src/cli/shares-report.js';
import { parse } from '../config/helpers.js';

describe('sharesReport', () => {
  it('gives the defaults without a note: each share is below its pool', () => {
    const r = sharesReport(parse('servers: []\n').limits);
    expect(r.perPrincipal).toEqual({ sessions: 100, streams: 100, connections: 128, callsInFlight: 128, bytesInFlight: 64 * 1024 * 1024, unauthenticatedConnections: 32 });
    expect(r.notes).toEqual([]);
    expect(renderShares(r)).toContain('100 sessions, 100 streams, 128 connections, 128 calls and 64 MiB in flight; 32 connections per address');
  });

  it('notes each share that is not below its pool', () => {
    const r = sharesReport(parse('limits:\n  maxSessions: 20\n  maxConnections: 64\n  maxCallsPerServer: 128\n  perPrincipal:\n    connections: 32\nservers: []\n').limits);
    expect(r.notes).toHaveLength(2);
    expect(r.notes[0]).toMatch(/^perPrincipal\.sessions \(100\) is not below maxSessions \(20\)/);
    expect(r.notes[1]).toMatch(/^perPrincipal\.callsInFlight \(128\) is not below maxCallsPerServer \(128\)/);
  });

  it('takes half of totalBytesInFlight for bytesInFlight unless set, and notes a share set as large as the total', () => {
    expect(sharesReport(parse('limits:\n  totalBytesInFlight: 4MiB\nservers: []\n').limits).perPrincipal.bytesInFlight).toBe(2 * 1024 * 1024);
    const r = sharesReport(parse('limits:\n  totalBytesInFlight: 4MiB\n  perPrincipal:\n    bytesInFlight: 4MiB\nservers: []\n').limits);
    expect(r.notes).toEqual([expect.stringMatching(/^perPrincipal\.bytesInFlight \(4194304\) is not below totalBytesInFlight \(4194304\)/)]);
  });
});
