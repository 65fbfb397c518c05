// Idle sessions: a session that never opened a GET stream (a CLI client that left without DELETE)
// is ended after limits.streamlessSessionIdleTimeout, one that had a stream after
// sessionIdleTimeout; the dashboard counts live (in flight, or a GET stream open) and idle apart.

import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEntry } from '../../../src/inbound/http-session.js';
import { SessionTable } from '../../../src/inbound/http-session-table.js';
import { Principals } from '../../../src/inbound/principals.js';

class FakeEntry {
  busy = false;
  stream = false;
  hadGetStream = false;
  ended = false;
  constructor(
    readonly id: string,
    public lastWork: number,
  ) {}
  hasOpenGetStream(): boolean {
    return this.stream;
  }
  idleSince(now: number): number {
    return this.busy || this.stream ? 0 : now - this.lastWork;
  }
  terminate(): void {
    this.ended = true;
  }
}

let table: SessionTable | undefined;
afterEach(() => table?.terminateAll());

function setup(idleMs: number, streamlessMs: number) {
  const principals = new Principals({ sessions: 10, streams: 10, connections: 10, callsInFlight: 10, unauthenticatedConnections: 10 });
  table = new SessionTable(
    10,
    idleMs,
    (e) => e.terminate(),
    principals,
    () => {},
    streamlessMs,
  );
  const t = table;
  const add = (id: string, lastWork: number, had = false) => {
    const e = Object.assign(new FakeEntry(id, lastWork), { hadGetStream: had });
    t.byId.set(id, e as unknown as SessionEntry);
    return e;
  };
  return { table: t, add };
}

describe('the idle sweep', () => {
  it('ends a session that never opened a GET stream after the shorter timeout', () => {
    const { table, add } = setup(3_600_000, 300_000);
    const cli = add('cli', 0);
    const ide = add('ide', 0, true);
    table.sweep(299_999);
    expect([cli.ended, ide.ended]).toEqual([false, false]);
    table.sweep(300_000);
    expect([cli.ended, ide.ended]).toEqual([true, false]);
    table.sweep(3_600_000);
    expect(ide.ended).toBe(true);
  });

  it('never ends a session with a request in flight or its stream open', () => {
    const { table, add } = setup(3_600_000, 1000);
    const busy = add('busy', 0);
    busy.busy = true;
    const streaming = add('streaming', 0, true);
    streaming.stream = true;
    table.sweep(10_000_000);
    expect([busy.ended, streaming.ended]).toEqual([false, false]);
  });

  it('takes sessionIdleTimeout when it is the shorter', () => {
    const { table, add } = setup(1000, 300_000);
    const cli = add('cli', 0);
    table.sweep(1000);
    expect(cli.ended).toBe(true);
  });
});

describe('activity', () => {
  it('counts live (in flight, or a GET stream open) and idle apart', () => {
    const { table, add } = setup(3_600_000, 300_000);
    add('a', 0).busy = true;
    add('b', 0, true).stream = true;
    add('c', 0, true);
    add('d', 0);
    expect(table.activity()).toEqual({ live: 2, idle: 2 });
  });
});
