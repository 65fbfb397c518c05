import { describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { Peer } from '../../../src/jsonrpc/peer.js';
import { RpcError } from '../../../src/errors.js';
import { Cancellation } from '../../../src/jsonrpc/cancellation.js';
import type { JsonRpcMessage } from '../../../src/protocol/jsonrpc.js';
import { NO_SINK, type Transport, type TransportSink } from '../../../src/transport.js';

/** An in-memory transport whose far side is the test. */
class FakeTransport implements Transport {
  sink: TransportSink = NO_SINK;
  sent: any[] = [];
  waiters: ((m: any) => void)[] = [];
  async start(sink: TransportSink) {
    this.sink = sink;
  }
  async send(m: JsonRpcMessage) {
    this.sent.push(m);
    this.waiters.shift()?.(m);
  }
  async close() {
    this.sink.close();
  }
  next(): Promise<any> {
    return new Promise((r) => this.waiters.push(r));
  }
  deliver(m: any) {
    this.sink.message(m);
  }
}

function setup() {
  const t = new FakeTransport();
  const notifications: any[] = [];
  const problems: string[] = [];
  const peer = new Peer(t, { onNotification: (n) => notifications.push(n), onProtocolError: (p) => problems.push(p) }, 'srv');
  void peer.start();
  return { t, peer, notifications, problems };
}

describe('Peer', () => {
  it('matches responses to requests by our own ids, whatever order they come in', async () => {
    const { t, peer } = setup();
    const a = peer.request('a');
    const b = peer.request('b');
    const [ma, mb] = t.sent;
    expect(ma.id).not.toBe(mb.id);
    t.deliver({ jsonrpc: '2.0', id: mb.id, result: { v: 'b' } });
    t.deliver({ jsonrpc: '2.0', id: ma.id, result: { v: 'a' } });
    expect(await a).toEqual({ v: 'a' });
    expect(await b).toEqual({ v: 'b' });
    expect(peer.pendingCount).toBe(0);
  });

  it('relays an error response as an RpcError and keeps it raw in requestRaw', async () => {
    const { t, peer } = setup();
    const p = peer.request('x');
    t.deliver({ jsonrpc: '2.0', id: t.sent[0].id, error: { code: -32602, message: 'bad', data: { k: 1 } } });
    await expect(p).rejects.toBeInstanceOf(RpcError);
    const raw = peer.requestRaw('y', {});
    t.deliver({ jsonrpc: '2.0', id: t.sent[1].id, error: { code: -1, message: 'm' } });
    expect(await raw).toMatchObject({ error: { code: -1, message: 'm' } });
  });

  it('times out, tells the server to stop, and ignores the late answer', async () => {
    const { t, peer, problems } = setup();
    const p = peer.request('slow', {}, { timeoutMs: 20 });
    const id = t.sent[0].id;
    const err = await p.catch((e) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err.code).toBe('SERVER_TIMEOUT');
    expect(t.sent[1]).toMatchObject({ method: 'notifications/cancelled', params: { requestId: id } });
    t.deliver({ jsonrpc: '2.0', id, result: {} });
    expect(problems.length).toBe(1);
    expect(peer.pendingCount).toBe(0);
  });

  it('routes progress by a token of its own and gives the caller its params', async () => {
    const { t, peer, notifications } = setup();
    const seen: any[] = [];
    const p = peer.request('work', { _meta: { progressToken: 'client-token', other: 1 } }, { onProgress: (x) => seen.push(x) });
    const sent = t.sent[0];
    const token = sent.params._meta.progressToken;
    expect(token).not.toBe('client-token');
    expect(sent.params._meta.other).toBe(1);
    t.deliver({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 2 } });
    t.deliver({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'unknown', progress: 1 } });
    t.deliver({ jsonrpc: '2.0', id: sent.id, result: { ok: true } });
    await p;
    expect(seen).toEqual([{ progressToken: token, progress: 1, total: 2 }]);
    expect(notifications.map((n) => n.params.progressToken)).toEqual(['unknown']);
  });

  it('cancels on abort: sends notifications/cancelled with its own id', async () => {
    const { t, peer } = setup();
    const cancellation = new Cancellation();
    const p = peer.request('long', {}, { cancellation });
    cancellation.cancel();
    await expect(p).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(t.sent[1]).toMatchObject({ method: 'notifications/cancelled', params: { requestId: t.sent[0].id } });
  });

  it('fails everything in flight when the transport closes, and refuses new requests', async () => {
    const { t, peer } = setup();
    const p1 = peer.request('a');
    const p2 = peer.request('b');
    t.sink.close(new Error('process exited with code 1'));
    for (const p of [p1, p2]) await expect(p).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    await expect(peer.request('c')).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });

  it('drops an answer with a "method" beside its result and fails that request at once, naming the server', async () => {
    const requests: any[] = [];
    const t = new FakeTransport();
    const problems: string[] = [];
    const peer = new Peer(t, { onRequest: async (r) => (requests.push(r), {}), onProtocolError: (p) => problems.push(p) }, 'srv');
    void peer.start();
    const call = peer.request('tools/call', { name: 'x' });
    const id = t.sent[0].id;
    t.deliver({ jsonrpc: '2.0', id, result: { content: [] }, method: 'sampling/createMessage', params: { messages: [] } });
    await expect(call).rejects.toMatchObject({ code: 'PROTOCOL_ERROR', server: 'srv', message: expect.stringContaining('"method" beside its result') });
    // Not taken for a request of the server's either: nothing was handled or answered for it.
    expect(requests).toEqual([]);
    expect(problems).toEqual(['invalid JSON-RPC message']);
    expect(peer.pendingCount).toBe(0);
    // An invalid error object fails its request the same way; an invalid message for no request fails nothing.
    const other = peer.request('b');
    t.deliver({ jsonrpc: '2.0', id: t.sent[1].id, error: { message: 'no code' } });
    await expect(other).rejects.toMatchObject({ code: 'PROTOCOL_ERROR' });
    t.deliver({ jsonrpc: '2.0', id: 999, method: 'x', result: {} });
    expect(t.sent).toHaveLength(2);
  });

  it('answers a server ping and refuses unknown server requests with -32601', async () => {
    const { t } = setup();
    const answer = t.next();
    t.deliver({ jsonrpc: '2.0', id: 'p1', method: 'ping' });
    expect(await answer).toEqual({ jsonrpc: '2.0', id: 'p1', result: {} });
    const refusal = t.next();
    t.deliver({ jsonrpc: '2.0', id: 9, method: 'sampling/createMessage', params: {} });
    expect(await refusal).toMatchObject({ id: 9, error: { code: -32601 } });
  });

  it('resets the timeout on progress, but never past the hard maximum', async () => {
    vi.useFakeTimers();
    try {
      const { t, peer } = setup();
      const p = peer.request('work', {}, { timeoutMs: 100, resetOnProgress: true, maxTotalMs: 350, onProgress: () => {} }).catch((e) => e);
      const token = t.sent[0].params._meta.progressToken;
      for (let i = 1; i <= 3; i++) {
        await vi.advanceTimersByTimeAsync(80); // each report comes before the 100 ms timeout
        t.deliver({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: i } });
      }
      expect(peer.pendingCount).toBe(1); // 240 ms in: alive thanks to progress
      await vi.advanceTimersByTimeAsync(80);
      t.deliver({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 4 } });
      // 380 ms: past the 350 ms maximum despite progress (deadlines run on a 10 ms wheel).
      await vi.advanceTimersByTimeAsync(60);
      expect((await p).code).toBe('SERVER_TIMEOUT');
    } finally {
      vi.useRealTimers();
    }
  });
});
