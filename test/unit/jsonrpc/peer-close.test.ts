// A Peer being closed while the other side still talks, as a stdio child does between the end of
// its stdin and its exit: what it says then is not a protocol error. And when the other side goes
// away, the reason's detail (the process's stderr) reaches every request it fails.

import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { Peer } from '../../../src/jsonrpc/peer.js';
import type { JsonRpcMessage } from '../../../src/protocol/jsonrpc.js';
import { NO_SINK, type Transport, type TransportSink } from '../../../src/transport.js';

/** A pipe whose far end keeps writing until the test lets close() finish (a child still exiting). */
class SlowClosingTransport implements Transport {
  sink: TransportSink = NO_SINK;
  sent: any[] = [];
  private exited!: () => void;
  async start(sink: TransportSink) {
    this.sink = sink;
  }
  async send(m: JsonRpcMessage) {
    this.sent.push(m);
  }
  close(): Promise<void> {
    return new Promise((resolve) => (this.exited = resolve));
  }
  exit() {
    this.exited();
  }
  deliver(m: any) {
    this.sink.message(m);
  }
}

function setup() {
  const t = new SlowClosingTransport();
  const problems: string[] = [];
  const notifications: any[] = [];
  const peer = new Peer(t, { onProtocolError: (p) => problems.push(p), onNotification: (n) => notifications.push(n) }, 'srv');
  void peer.start();
  return { t, peer, problems, notifications };
}

describe('Peer closing', () => {
  it('fails what is in flight, then ignores the answer that arrives before the other side is gone', async () => {
    const { t, peer, problems, notifications } = setup();
    const inFlight = peer.request('tools/list');
    const closing = peer.close();
    await expect(inFlight).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    t.deliver({ jsonrpc: '2.0', id: t.sent[0].id, result: { tools: [] } });
    t.deliver({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    t.exit();
    await closing;
    expect(problems).toEqual([]);
    expect(notifications).toEqual([]);
  });

  it('still reports an answer for an id it never asked, while open', () => {
    const { t, problems } = setup();
    t.deliver({ jsonrpc: '2.0', id: 99, result: {} });
    expect(problems).toEqual(['response for unknown id 99']);
  });

  it("passes the reason's detail on to every request the end fails", async () => {
    const { t, peer } = setup();
    const inFlight = peer.request('initialize');
    t.sink.close(new GatewayError('CONNECTION_CLOSED', 'server process exited with code 1', { detail: 'stderr: Error: boom' }));
    const err = await inFlight.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ message: expect.stringContaining('exited with code 1'), detail: 'stderr: Error: boom' });
  });
});
