// The ask to connect a per-user server, in each form the spec offers: a URL elicitation to a
// 2025-11-25 client that declared elicitation.url (then elicitation/complete to that session only),
// an input round for a 2026-07-28 request, and -32042 for a client that cannot take either. Parallel
// calls share one elicitation; decline, cancel and expiry end the call with an error naming the server.

import { describe, expect, it } from 'vitest';
import { RpcError } from '../../../src/errors.js';
import { Cancellation } from '../../../src/jsonrpc/cancellation.js';
import type { JsonObject } from '../../../src/protocol/json.js';
import type { JsonRpcNotification } from '../../../src/protocol/jsonrpc.js';
import { type ConnectAsker, type ConnectLink, ConnectAsks } from '../../../src/router/connect-ask.js';
import { InputBridge } from '../../../src/router/input-bridge.js';
import type { RequestOwner, Session } from '../../../src/router/session.js';

const URL_CAPS = { elicitation: { url: {} } };

class FakeAsker implements ConnectAsker {
  links: ConnectLink[] = [];
  private waiting: (() => void)[] = [];
  constructor(private readonly ttlMs = 60_000) {}
  async link(user: string, server: string): Promise<ConnectLink> {
    const n = this.links.length;
    const link = { url: `https://gw.test/connect/${server}?t=${n}`, elicitationId: `el-${n}`, expiresAt: Date.now() + this.ttlMs, message: `Connect ${server} as ${user}` };
    this.links.push(link);
    return link;
  }
  connected(_user: string, _server: string, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push(resolve);
      signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    });
  }
  /** The test stores the credential: every wait resolves (the connect pages' part). */
  store(): void {
    for (const done of this.waiting.splice(0)) done();
  }
  get waiters(): number {
    return this.waiting.length;
  }
}

function session(answer: JsonObject | (() => Promise<JsonObject>), caps: JsonObject = URL_CAPS) {
  const asked: { method: string; params: unknown }[] = [];
  const sent: JsonRpcNotification[] = [];
  const s = {
    id: 's1',
    user: 'bob',
    clientCapabilities: caps,
    unaskable: undefined as string | undefined,
    rootsFromConfig: false,
    logLevel: undefined,
    view: undefined,
    hears: () => false,
    async requestClient(method: string, params: unknown) {
      asked.push({ method, params });
      return typeof answer === 'function' ? answer() : answer;
    },
    send: (n: JsonRpcNotification) => sent.push(n),
  } as unknown as Session & { unaskable: string | undefined };
  return { s, asked, sent };
}

const ownerOf = (s: Session, extra: Partial<RequestOwner> = {}): RequestOwner => ({ session: s, client: s, cancellation: new Cancellation(), ...extra });

/** Resolves once `check` holds, checking after each turn of the event loop (no fixed sleep). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((r) => setImmediate(r));
  expect(check()).toBe(true);
}

describe('ConnectAsks, 2025-11-25 client with elicitation.url', () => {
  it('sends a URL elicitation, waits for the connect after accept, then completes it to that session and goes on', async () => {
    const asker = new FakeAsker();
    const { s, asked, sent } = session({ action: 'accept' });
    const asks = new ConnectAsks(() => asker);
    let done = false;
    const asking = asks.ask(ownerOf(s), 'bob', 'github').then(() => (done = true));
    await until(() => asker.waiters === 1);
    expect(asked).toEqual([{ method: 'elicitation/create', params: { mode: 'url', message: 'Connect github as bob', url: asker.links[0]!.url, elicitationId: 'el-0' } }]);
    expect(done).toBe(false); // accept means the user agreed to open it, not that the connect is done
    expect(sent).toEqual([]);
    asker.store();
    await asking;
    expect(sent).toEqual([{ jsonrpc: '2.0', method: 'notifications/elicitation/complete', params: { elicitationId: 'el-0' } }]);
  });

  it('three parallel calls of one user to one server get one elicitation', async () => {
    const asker = new FakeAsker();
    const { s, asked } = session({ action: 'accept' });
    const asks = new ConnectAsks(() => asker);
    const calls = [0, 1, 2].map(() => asks.ask(ownerOf(s), 'bob', 'github'));
    await until(() => asker.waiters === 1);
    asker.store();
    await Promise.all(calls);
    expect(asked).toHaveLength(1);
    expect(asker.links).toHaveLength(1);
  });

  it.each(['decline', 'cancel'])('%s ends the call with CONNECT_REQUIRED naming the server, nothing retried', async (action) => {
    const asker = new FakeAsker();
    const { s, asked } = session({ action });
    const err = await new ConnectAsks(() => asker).ask(ownerOf(s), 'bob', 'github').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'CONNECT_REQUIRED', server: 'github' });
    expect((err as Error).message).toContain('"github"');
    expect(asked).toHaveLength(1);
  });

  it('a link that expires before the connect ends the call (CONNECT_REQUIRED, says it expired)', async () => {
    const asker = new FakeAsker(30);
    const { s } = session({ action: 'accept' });
    const err = await new ConnectAsks(() => asker).ask(ownerOf(s), 'bob', 'github').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'CONNECT_REQUIRED', server: 'github' });
    expect((err as Error).message).toMatch(/expired/);
  });

  it('cancelling the only waiting call stops the wait (CANCELLED)', async () => {
    const asker = new FakeAsker();
    const { s } = session({ action: 'accept' });
    const owner = ownerOf(s);
    const asking = new ConnectAsks(() => asker).ask(owner, 'bob', 'github');
    await until(() => asker.waiters === 1);
    owner.cancellation!.cancel();
    await expect(asking).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});

describe('ConnectAsks, clients that cannot take a URL elicitation now', () => {
  it('no elicitation.url: -32042 with the URL elicitation in data and the URL in the message; elicitation/complete once connected', async () => {
    const asker = new FakeAsker();
    const { s, asked, sent } = session({ action: 'accept' }, { elicitation: { form: {} } });
    const err = await new ConnectAsks(() => asker).ask(ownerOf(s), 'bob', 'github').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcError);
    const link = asker.links[0]!;
    expect((err as RpcError).code).toBe(-32042);
    expect((err as RpcError).data).toEqual({ elicitations: [{ mode: 'url', elicitationId: link.elicitationId, url: link.url, message: link.message }] });
    expect((err as RpcError).message).toContain(link.url);
    expect(asked).toEqual([]);
    asker.store();
    await until(() => sent.length === 1);
    expect(sent[0]).toEqual({ jsonrpc: '2.0', method: 'notifications/elicitation/complete', params: { elicitationId: link.elicitationId } });
  });

  it('declared but unaskable during this request (no channel): -32042, no elicitation sent', async () => {
    const asker = new FakeAsker();
    const { s, asked } = session({ action: 'accept' });
    s.unaskable = 'the request has no stream';
    await expect(new ConnectAsks(() => asker).ask(ownerOf(s), 'bob', 'github')).rejects.toMatchObject({ code: -32042 });
    expect(asked).toEqual([]);
  });

  it('no connect pages at all: CONNECT_REQUIRED naming the server', async () => {
    const { s } = session({ action: 'accept' });
    await expect(new ConnectAsks(() => undefined).ask(ownerOf(s), 'bob', 'github')).rejects.toMatchObject({ code: 'CONNECT_REQUIRED', server: 'github' });
  });
});

describe('ConnectAsks, 2026-07-28 request', () => {
  it('parks the URL elicitation as an input round (no elicitationId); the retry’s accept then waits for the connect', async () => {
    const asker = new FakeAsker();
    const { s, asked } = session({ action: 'accept' });
    const bridge = new InputBridge(URL_CAPS);
    const stateless = { clientCapabilities: URL_CAPS, unaskable: 'stateless', rootsFromConfig: false, hears: () => false };
    const asking = new ConnectAsks(() => asker).ask(ownerOf(s, { client: stateless, inputs: bridge }), 'bob', 'github');
    await bridge.inputNeeded();
    const requests = bridge.inputRequests();
    const [key] = Object.keys(requests);
    expect(requests[key!]).toEqual({ method: 'elicitation/create', params: { mode: 'url', message: 'Connect github as bob', url: asker.links[0]!.url } });
    expect(asked).toEqual([]); // never a request to the client: it is the round's
    bridge.answer({ [key!]: { action: 'accept' } });
    await until(() => asker.waiters === 1);
    asker.store();
    await asking;
  });

  it('without elicitation.url in the envelope: -32042 with the URL', async () => {
    const asker = new FakeAsker();
    const { s } = session({ action: 'accept' });
    const stateless = { clientCapabilities: {}, unaskable: 'stateless', rootsFromConfig: false, hears: () => false };
    await expect(new ConnectAsks(() => asker).ask(ownerOf(s, { client: stateless, inputs: new InputBridge({}) }), 'bob', 'github')).rejects.toMatchObject({ code: -32042 });
  });
});
