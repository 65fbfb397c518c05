// What every StateStore promises (src/state/store.ts), as one suite run against each implementation:
// in memory (two MemoryStores sharing maps act as two replicas) and Redis (two RedisStores on one
// redis-server). Each test gets a fresh backend; `peer` is a second replica on the same one.

import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionMessage, SessionRecord, StateStore } from '../../src/state/store.js';
import { waitFor } from '../helpers/processes.js';

export interface StoreSubject {
  /** The first replica on a fresh backend. */
  open(): Promise<StateStore>;
  /** Another replica on the backend the last open() made. */
  peer(): Promise<StateStore>;
  /** What the stores were opened with. */
  readonly maxEvents: number;
  readonly maxEventBytes: number;
  /** A TTL this subject can outlive in a test. */
  readonly shortTtlMs: number;
  /** Returns once `id`, put with shortTtlMs, has expired (memory: its clock moves; Redis: polled). */
  outlive(store: StateStore, id: string): Promise<void>;
}

const LONG = 60_000;

export const record = (id: string, more: Partial<SessionRecord> = {}): SessionRecord => ({
  id,
  protocolVersion: '2025-11-25',
  clientCapabilities: { roots: { listChanged: true }, elicitation: {} },
  clientInfo: { name: 'contract', version: '1.0.0' },
  profile: 'team',
  principal: 'profile:team',
  holder: 'p:team',
  logLevel: 'info',
  subscriptions: ['file:///a', 'file:///b'],
  keyId: 'abcdef012345',
  replica: 'r1',
  ...more,
});

/** The next message `store` hears about `sessionId` (subscribed before the caller acts). */
export async function nextMessage(store: StateStore, sessionId: string): Promise<{ message: Promise<SessionMessage>; stop: () => void }> {
  let resolve!: (m: SessionMessage) => void;
  const message = new Promise<SessionMessage>((r) => (resolve = r));
  const stop = await store.subscribe(sessionId, (m) => resolve(m));
  return { message, stop };
}

export function stateStoreContract(name: string, makeSubject: () => Promise<StoreSubject>): void {
  describe(`StateStore contract: ${name}`, () => {
    const opened: StateStore[] = [];
    let subject: StoreSubject;
    const open = async () => {
      subject = await makeSubject();
      const a = await subject.open();
      const b = await subject.peer();
      opened.push(a, b);
      return { a, b };
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });

    it('keeps a record whole, for every replica', async () => {
      const { a, b } = await open();
      await a.putSession(record('s1'), LONG);
      expect(await a.getSession('s1')).toEqual(record('s1'));
      expect(await b.getSession('s1')).toEqual(record('s1'));
      expect(await b.getSession('nope')).toBeUndefined();
      // A record without the optional keys comes back without them.
      const bare: SessionRecord = { id: 's2', protocolVersion: '2025-03-26', clientCapabilities: {}, holder: 'ip:1', subscriptions: [], keyId: 'k', replica: 'r2' };
      await b.putSession(bare, LONG);
      expect(await a.getSession('s2')).toEqual(bare);
      // A put replaces the record.
      await a.putSession(record('s1', { logLevel: 'debug', subscriptions: [] }), LONG);
      expect(await b.getSession('s1')).toEqual(record('s1', { logLevel: 'debug', subscriptions: [] }));
    });

    it('expires a record with its TTL; touch pushes the expiry', async () => {
      const { a, b } = await open();
      await a.putSession(record('short'), subject.shortTtlMs);
      await a.putSession(record('touched'), subject.shortTtlMs);
      const gone = await a.appendEvent('short', 'get', '{"n":1}');
      const kept = await a.appendEvent('touched', 'get', '{"n":1}');
      await a.appendEvent('touched', 'get', '{"n":2}');
      expect(await b.touchSession('touched', LONG)).toBe(true);
      expect(await a.getSession('short')).toBeDefined();
      await subject.outlive(a, 'short');
      expect(await b.getSession('short')).toBeUndefined();
      // Its events went with it; the touched session's stayed with it.
      expect(await b.eventsAfter('short', gone.id)).toBeUndefined();
      expect(await a.getSession('touched')).toEqual(record('touched'));
      expect((await b.eventsAfter('touched', kept.id))?.events).toHaveLength(1);
      expect(await a.touchSession('short', LONG)).toBe(false);
      expect(await a.touchSession('never', LONG)).toBe(false);
      expect(await a.getSession('never')).toBeUndefined();
    });

    it('patches a record and tells its holders; a patch of a gone record is a no-op', async () => {
      const { a, b } = await open();
      await a.putSession(record('s1'), LONG);
      const heard = await nextMessage(b, 's1');
      await a.patchSession('s1', { logLevel: 'error', subscriptions: ['file:///c'] });
      expect(await heard.message).toEqual({ kind: 'patched', patch: { logLevel: 'error', subscriptions: ['file:///c'] } });
      heard.stop();
      expect(await b.getSession('s1')).toEqual(record('s1', { logLevel: 'error', subscriptions: ['file:///c'] }));
      // A key patched to undefined is cleared, and the holders are told which (the key is there).
      const cleared = await nextMessage(a, 's1');
      await b.patchSession('s1', { logLevel: undefined });
      const told = await cleared.message;
      cleared.stop();
      expect(told.kind === 'patched' && Object.entries(told.patch)).toEqual([['logLevel', undefined]]);
      expect((await a.getSession('s1'))?.logLevel).toBeUndefined();
      await a.patchSession('gone', { logLevel: 'debug' });
      expect(await b.getSession('gone')).toBeUndefined();
    });

    it('deletes a record with its events and claims, and tells every holder', async () => {
      const { a, b } = await open();
      await a.putSession(record('s1'), LONG);
      const first = await a.appendEvent('s1', 'g', '{"n":1}');
      await a.claimCall('s1', 'p1', 1);
      const heard = await nextMessage(b, 's1');
      await a.deleteSession('s1');
      expect(await heard.message).toEqual({ kind: 'ended' });
      heard.stop();
      expect(await b.getSession('s1')).toBeUndefined();
      expect(await b.eventsAfter('s1', first.id)).toBeUndefined();
      expect(await b.callClaim('s1', 'p1')).toBeUndefined();
      expect(await b.countSessions('p:team')).toBe(0);
    });

    it('counts the live sessions of each holder across replicas', async () => {
      const { a, b } = await open();
      await a.putSession(record('x1', { holder: 'h:x' }), LONG);
      await b.putSession(record('x2', { holder: 'h:x' }), LONG);
      await b.putSession(record('y1', { holder: 'h:y' }), LONG);
      await a.putSession(record('x3', { holder: 'h:x' }), subject.shortTtlMs);
      expect(await a.countSessions('h:x')).toBe(3);
      await subject.outlive(a, 'x3');
      expect(await b.countSessions('h:x')).toBe(2);
      expect(await a.countSessions('h:y')).toBe(1);
      expect(await a.countSessions('h:none')).toBe(0);
      await b.deleteSession('x1');
      expect(await a.countSessions('h:x')).toBe(1);
      // A put under a new holder moves the session's count.
      await a.putSession(record('x2', { holder: 'h:y' }), LONG);
      expect([await b.countSessions('h:x'), await b.countSessions('h:y')]).toEqual([0, 2]);
    });

    it('keeps events in order, per stream, and replays those after an id on any replica', async () => {
      const { a, b } = await open();
      await a.putSession(record('s1'), LONG);
      const prime = await a.appendEvent('s1', 'get', '');
      const e1 = await a.appendEvent('s1', 'get', '{"n":1}');
      const p1 = await b.appendEvent('s1', 'post-7', '{"n":2}');
      const e2 = await b.appendEvent('s1', 'get', '{"n":3}');
      const p2 = await a.appendEvent('s1', 'post-7', '{"n":4}');
      expect(new Set([prime.id, e1.id, p1.id, e2.id, p2.id]).size).toBe(5);
      expect(e1).toEqual({ id: e1.id, stream: 'get', data: '{"n":1}' });
      expect(await b.eventsAfter('s1', prime.id)).toEqual({ stream: 'get', events: [e1, e2] });
      expect(await a.eventsAfter('s1', p1.id)).toEqual({ stream: 'post-7', events: [p2] });
      expect(await a.eventsAfter('s1', e2.id)).toEqual({ stream: 'get', events: [] });
      // Unknown ids, ids of another session, and anything that is not an id name no event.
      await a.putSession(record('s2'), LONG);
      const other = await a.appendEvent('s2', 'get', '{}');
      for (const id of ['0-0', '99999999999999-0', 'garbage', '', other.id]) expect(await b.eventsAfter('s1', id)).toBeUndefined();
      expect(await b.eventsAfter('nope', e1.id)).toBeUndefined();
    });

    it('keeps at most maxEvents events per session, dropping the oldest', async () => {
      const { a, b } = await open();
      await a.putSession(record('s1'), LONG);
      const ids: string[] = [];
      for (let i = 0; i < subject.maxEvents + 3; i++) ids.push((await a.appendEvent('s1', 'get', `{"n":${i}}`)).id);
      for (const id of ids.slice(0, 3)) expect(await b.eventsAfter('s1', id)).toBeUndefined();
      const kept = await b.eventsAfter('s1', ids[3]!);
      expect(kept?.events.map((e) => e.id)).toEqual(ids.slice(4));
    });

    it('keeps an event over maxEventBytes as its stand-in, while its holders hear it in full under the same id', async () => {
      const { a, b } = await open();
      await a.putSession(record('s1'), LONG);
      const big = (fill: string) => 'é'.repeat(subject.maxEventBytes / 2) + fill;
      const answer = JSON.stringify({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: big('answer') }] } });
      const progress = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1, message: big('note') } });
      const prime = await a.appendEvent('s1', 'post-9', '');
      const heard: SessionMessage[] = [];
      const stop = await b.subscribe('s1', (m) => heard.push(m));
      const note = await a.appendEvent('s1', 'post-9', progress);
      const stored = await a.appendEvent('s1', 'post-9', answer);
      await waitFor(() => heard.length === 2, { timeout: 3000, interval: 5, message: 'both events heard' });
      stop();
      // Holders hear the full events, with the ids the stand-ins have: the live stream writes them so.
      expect(heard).toEqual([
        { kind: 'event', event: { id: note.id, stream: 'post-9', data: progress } },
        { kind: 'event', event: { id: stored.id, stream: 'post-9', data: answer } },
      ]);
      expect(note.data).toBe('');
      const error = JSON.parse(stored.data) as { id: unknown; error: { code: number; message: string; data: { code: string; bytes: number } } };
      expect(error.id).toBe(7);
      expect(error.error.code).toBe(-32603);
      expect(error.error.data).toEqual({ code: 'ANSWER_NOT_KEPT', bytes: Buffer.byteLength(answer) });
      expect(error.error.message).toContain(`the answer (${Buffer.byteLength(answer)} bytes) was sent once on the original stream`);
      expect(await b.eventsAfter('s1', prime.id)).toEqual({ stream: 'post-9', events: [note, stored] });
      // Up to the bound (counted in UTF-8 bytes), an event is kept as it is.
      const fits = JSON.stringify({ jsonrpc: '2.0', id: 8, result: { text: '' } });
      const exact = fits.replace('""', `"${'é'.repeat((subject.maxEventBytes - Buffer.byteLength(fits)) / 2)}"`);
      expect(Buffer.byteLength(exact)).toBeLessThanOrEqual(subject.maxEventBytes);
      const kept = await a.appendEvent('s1', 'post-9', exact);
      expect(kept.data).toBe(exact);
      expect((await b.eventsAfter('s1', stored.id))?.events).toEqual([kept]);
    });

    it('tells every replica holding a session its messages, this one included', async () => {
      const { a, b } = await open();
      const onB = await nextMessage(b, 's1');
      const onA = await nextMessage(a, 's1');
      const answer: SessionMessage = { kind: 'answer', message: { jsonrpc: '2.0', id: 3, result: { action: 'accept', content: { ok: true } } } };
      await a.publish('s1', answer);
      expect(await onB.message).toEqual(answer);
      expect(await onA.message).toEqual(answer);
      onA.stop();
      onB.stop();
      // An appended event reaches the holders as it was stored.
      const again = await nextMessage(b, 's1');
      const event = await a.appendEvent('s1', 'get', '{"jsonrpc":"2.0","method":"notifications/message"}');
      expect(await again.message).toEqual({ kind: 'event', event });
      again.stop();
      // A listener that left hears nothing more; the one that stayed does.
      let late = 0;
      const leaving = await b.subscribe('s1', () => late++);
      const staying = await nextMessage(b, 's1');
      leaving();
      await a.publish('s1', { kind: 'cancel', requestId: 'r-1' });
      expect(await staying.message).toEqual({ kind: 'cancel', requestId: 'r-1' });
      staying.stop();
      expect(late).toBe(0);
    });

    it('settles a claimed call exactly once across replicas', async () => {
      const { a, b } = await open();
      await a.putSession(record('s1'), LONG);
      await a.claimCall('s1', 'post-1', 7);
      await b.claimCall('s1', 'post-2', 'req-x');
      expect(await b.callClaim('s1', 'post-1')).toEqual({ replica: a.replicaId, requestId: 7 });
      expect(await a.callClaim('s1', 'post-2')).toEqual({ replica: b.replicaId, requestId: 'req-x' });
      const won = await Promise.all([a.settleCall('s1', 'post-1'), b.settleCall('s1', 'post-1'), a.settleCall('s1', 'post-1')]);
      expect(won.filter(Boolean)).toHaveLength(1);
      expect(await a.callClaim('s1', 'post-1')).toBeUndefined();
      expect(await b.settleCall('s1', 'post-1')).toBe(false);
      expect(await b.settleCall('s1', 'never')).toBe(false);
    });

    it('knows which replicas are alive', async () => {
      const { a, b } = await open();
      expect(a.replicaId).not.toBe(b.replicaId);
      expect(await a.isAlive(a.replicaId)).toBe(true);
      expect(await a.isAlive(b.replicaId)).toBe(true);
      expect(await b.isAlive('no-such')).toBe(false);
      await waitUntil(() => a.liveReplicas() === 2);
      await b.close();
      expect(await a.isAlive(b.replicaId)).toBe(false);
      await waitUntil(() => a.liveReplicas() === 1);
      await b.close(); // idempotent
    });

    it('takes a key once across replicas, until it expires (single-use connect links)', async () => {
      const { a, b } = await open();
      const [x, y] = await Promise.all([a.takeOnce('link:n1', LONG), b.takeOnce('link:n1', LONG)]);
      // Exactly one of two replicas racing for the same link wins.
      expect([x, y].filter(Boolean)).toHaveLength(1);
      expect(await a.takeOnce('link:n1', LONG)).toBe(false);
      expect(await b.takeOnce('link:n2', LONG)).toBe(true);
      // After its TTL the key is free again (links carry their own expiry, so that is harmless).
      expect(await a.takeOnce('link:short', subject.shortTtlMs)).toBe(true);
      await a.putSession(record('clock'), subject.shortTtlMs);
      await subject.outlive(a, 'clock');
      expect(await b.takeOnce('link:short', LONG)).toBe(true);
    });

    it('keeps a short-lived value that exactly one replica takes (a pending connect flow)', async () => {
      const { a, b } = await open();
      await a.putValue('flow:1', '{"any":"text ✓"}', LONG);
      const taken = await Promise.all([a.takeValue('flow:1'), b.takeValue('flow:1')]);
      expect(taken.filter((v) => v !== undefined)).toEqual(['{"any":"text ✓"}']);
      expect(await b.takeValue('flow:1')).toBeUndefined();
      expect(await b.takeValue('never')).toBeUndefined();
      await b.putValue('flow:2', 'v', subject.shortTtlMs);
      await a.putSession(record('clock'), subject.shortTtlMs);
      await subject.outlive(a, 'clock');
      expect(await a.takeValue('flow:2')).toBeUndefined();
    });

    it('signals a topic to the listeners of every replica, and not after they stop', async () => {
      const { a, b } = await open();
      let heardA = 0;
      let resolveB!: () => void;
      const heardB = new Promise<void>((r) => (resolveB = r));
      const stopA = await a.listen('connected:alice/gh', () => heardA++);
      const stopB = await b.listen('connected:alice/gh', () => resolveB());
      let other = 0;
      const stopOther = await b.listen('connected:bob/gh', () => other++);
      await a.signal('connected:alice/gh');
      await heardB;
      await waitUntil(() => heardA === 1);
      stopA();
      stopB();
      // A signal after stopping reaches nobody of that topic; one on another topic shows delivery still works.
      await a.signal('connected:alice/gh');
      let resolveOther!: () => void;
      const otherHeard = new Promise<void>((r) => (resolveOther = r));
      const stopOther2 = await b.listen('connected:bob/gh', () => resolveOther());
      await a.signal('connected:bob/gh');
      await otherHeard;
      expect(heardA).toBe(1);
      expect(other).toBe(1);
      stopOther();
      stopOther2();
    });

    it('shares one signing key between replicas', async () => {
      const { a, b } = await open();
      const [ka, kb] = await Promise.all([a.sharedKey(), b.sharedKey()]);
      expect(ka.key.length).toBe(32);
      expect(kb.key.equals(ka.key)).toBe(true);
      expect(ka.keyId).toBe(createHash('sha256').update(ka.key).digest('hex').slice(0, 12));
      expect(kb.keyId).toBe(ka.keyId);
    });
  });
}

/**
 * A store's cached value that changes on its own timer (the live replica count, refreshed with the
 * heartbeat): nothing to await, so it is polled, briefly.
 */
export async function waitUntil(predicate: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms: ${predicate}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
