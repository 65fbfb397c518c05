// Which session ends when an initialize needs room: the principal's own idlest at its share, else
// the idlest of whoever is to be shed first (anonymous, then holding the most); never a session
// with a request in flight, never one of a principal that holds no more than the newcomer's.

import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEntry } from '../../../src/inbound/http-session.js';
import { SessionTable } from '../../../src/inbound/http-session-table.js';
import { Principals, type Holding, type Shares } from '../../../src/inbound/principals.js';

const WIDE: Shares = { sessions: 100, streams: 100, connections: 100, callsInFlight: 100, unauthenticatedConnections: 100 };

/** The part of a SessionEntry the table reads. */
class FakeEntry {
  closed = false;
  busy = false;
  stream = false;
  constructor(
    readonly id: string,
    readonly holder: Holding,
    public lastWork: number,
  ) {
    holder.sessions++;
  }
  hasOpenGetStream(): boolean {
    return this.stream;
  }
  idleSince(now: number): number {
    return this.busy || this.stream ? 0 : now - this.lastWork;
  }
  terminate(): void {
    if (this.closed) return;
    this.closed = true;
    this.holder.sessions--;
  }
}

let table: SessionTable | undefined;
afterEach(() => table?.terminateAll());

function setup(max: number, shares: Partial<Shares> = {}, idleTimeoutMs = 3_600_000) {
  const principals = new Principals({ ...WIDE, ...shares });
  const shed: string[] = [];
  table = new SessionTable(
    max,
    idleTimeoutMs,
    (e) => e.terminate(),
    principals,
    (e) => shed.push(e.id),
  );
  const t = table;
  let n = 0;
  const add = (holder: Holding, lastWork: number) => {
    const e = new FakeEntry(`s${n++}`, holder, lastWork);
    t.byId.set(e.id, e as unknown as SessionEntry);
    return e;
  };
  return { table: t, principals, shed, add };
}

describe('SessionTable.admit', () => {
  it('lets a session in while there is room', () => {
    const { table, principals } = setup(2);
    expect(table.admit(principals.of('alice', undefined), 0)).toBe('ok');
  });

  it("at its share, ends the principal's own idlest session (no stream first, then least recent work)", () => {
    const { table, principals, add, shed } = setup(100, { sessions: 3 });
    const alice = principals.of('alice', undefined);
    const streaming = add(alice, 0);
    streaming.stream = true;
    add(alice, 20);
    const older = add(alice, 10);
    add(principals.of('bob', undefined), 0);
    expect(table.admit(alice, 100)).toBe('ok');
    expect(shed).toEqual([older.id]);
    expect(older.closed).toBe(true);
  });

  it("at its share with every session busy, refuses: 429 is the principal's own limit", () => {
    const { table, principals, add } = setup(100, { sessions: 2 });
    const alice = principals.of('alice', undefined);
    add(alice, 0).busy = true;
    add(alice, 0).busy = true;
    expect(table.admit(alice, 100)).toBe('share');
  });

  it('with every slot taken, ends the idlest session of the principal holding the most', () => {
    const { table, principals, add, shed } = setup(5);
    const alice = principals.of('alice', undefined);
    const bob = principals.of('bob', undefined);
    const pinged = add(alice, 50); // pings do not move lastWork: it last worked at 50
    add(alice, 60);
    add(alice, 70).busy = true;
    add(bob, 0);
    add(bob, 1);
    expect(table.admit(principals.of('canary', undefined), 100)).toBe('ok');
    expect(shed).toEqual([pinged.id]);
  });

  it('sheds the anonymous first, whatever they hold', () => {
    const { table, principals, add, shed } = setup(3);
    const alice = principals.of('alice', undefined);
    add(alice, 0);
    add(alice, 0);
    const anon = add(principals.of(undefined, '10.0.0.1'), 50);
    expect(table.admit(principals.of('canary', undefined), 100)).toBe('ok');
    expect(shed).toEqual([anon.id]);
  });

  it("refuses when the newcomer's principal holds the most itself, or all are busy", () => {
    const { table, principals, add } = setup(3);
    const alice = principals.of('alice', undefined);
    add(alice, 0);
    add(alice, 0);
    add(principals.of('bob', undefined), 0).busy = true;
    expect(table.admit(alice, 100)).toBe('full');
    const bob = principals.of('bob', undefined);
    expect(table.admit(bob, 100)).toBe('ok'); // alice holds more than bob: her idlest goes
    add(bob, 100).busy = true;
    const carol = principals.of('carol', undefined);
    expect(table.admit(carol, 100)).toBe('ok'); // alice's last idle one
    add(carol, 100).busy = true;
    expect(table.admit(principals.of('dave', undefined), 100)).toBe('full'); // all busy
  });

  it('lets sessions past the idle timeout expire before anyone is shed', () => {
    const { table, principals, add, shed } = setup(2, {}, 1000);
    const alice = principals.of('alice', undefined);
    const stale = add(alice, 0);
    add(alice, 5000);
    expect(table.admit(principals.of('bob', undefined), 5500)).toBe('ok');
    expect(stale.closed).toBe(true);
    expect(shed).toEqual([]);
  });
});
