import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CallStats, LATENCY_BOUNDS, Latency, ObservedStats } from '../../../src/observability/stats.js';

describe('Latency', () => {
  it('puts each value in the first bucket whose bound is not below it, and keeps count and sum', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1000, noNaN: true }), { maxLength: 200 }), (values) => {
        const l = new Latency();
        for (const v of values) l.observe(v);
        expect(l.count).toBe(values.length);
        expect([...l.buckets].reduce((a, b) => a + b, 0)).toBe(values.length);
        expect(l.sum).toBeCloseTo(
          values.reduce((a, b) => a + b, 0),
          6,
        );
        const expected = new Array(LATENCY_BOUNDS.length + 1).fill(0);
        for (const v of values) {
          const i = LATENCY_BOUNDS.findIndex((b) => v <= b);
          expected[i === -1 ? LATENCY_BOUNDS.length : i]++;
        }
        expect([...l.buckets]).toEqual(expected);
      }),
    );
  });
});

describe('CallStats', () => {
  it('counts ok apart from other outcomes and brings in-flight back down', () => {
    const s = new CallStats();
    s.inFlight += 3;
    s.ended('ok', 0.001);
    s.ended('server_timeout', 30);
    s.ended('server_timeout', 30);
    expect(s.inFlight).toBe(0);
    expect(s.ok).toBe(1);
    expect([...s.outcomes]).toEqual([['server_timeout', 2]]);
    expect(s.latency.count).toBe(3);
  });
});

describe('ObservedStats', () => {
  it('counts client methods it does not serve under one label, whatever a client sends', () => {
    const known = new Set(['tools/call', 'tools/list']);
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 100 }), (methods) => {
        const stats = new ObservedStats(known);
        for (const m of methods) stats.clientRequest(m).ok++;
        for (const label of stats.clients.keys()) expect(['tools/call', 'tools/list', 'other']).toContain(label);
        const total = [...stats.clients.values()].reduce((n, s) => n + s.ok, 0);
        expect(total).toBe(methods.length);
      }),
    );
  });

  it('hands the same stats object for the same server and method (no allocation per call)', () => {
    const stats = new ObservedStats(new Set());
    expect(stats.serverCall('a', 'tools/call')).toBe(stats.serverCall('a', 'tools/call'));
    expect(stats.serverCall('a', 'tools/call')).not.toBe(stats.serverCall('b', 'tools/call'));
  });

  it("adds a server's methods up for the dashboard", () => {
    const stats = new ObservedStats(new Set());
    const call = stats.serverCall('a', 'tools/call');
    const read = stats.serverCall('a', 'resources/read');
    call.inFlight = 2;
    call.ended('ok', 0.0001);
    read.inFlight = 1;
    read.ended('error', 2);
    const totals = stats.serverTotals('a');
    expect(totals.calls).toBe(2);
    expect(totals.inFlight).toBe(1);
    expect(totals.buckets[0]).toBe(1);
    expect(stats.serverTotals('nobody').calls).toBe(0);
  });
});
