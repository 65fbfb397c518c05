// What a ServerConnection does once a server is found to speak 2026-07-28, in process on fake
// servers and a fake clock: the per-request envelope (the router's, else the connection's), the
// stateful era's methods answered here, the listen stream and re-listening (subscribe, unsubscribe,
// reconnect), and subscriptions to stateful-era servers kept across their reconnects.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RpcError } from '../../../src/errors.js';
import { eraCache } from '../../../src/outbound/era.js';
import { fakeServers, type FakeMcpServer } from '../../helpers/fake-transport.js';
import { serverConfig, watched, type Watched } from './connection-harness.js';
import { ACK, SID, VERSION, cancelledIds, env, listens, statelessServer, onStream } from './stateless-fake.js';

vi.mock('../../../src/outbound/stdio-transport.js', async () => (await import('../../helpers/fake-transport.js')).fakeStdioModule());

const tool = (name: string) => ({ name, description: `the ${name} tool`, inputSchema: { type: 'object' } });
const resource = (uri: string) => ({ uri, name: uri });

beforeEach(() => {
  fakeServers.clear();
  eraCache.clear();
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

async function modern(name: string, script: Parameters<typeof statelessServer>[0] = {}, options = {}): Promise<{ w: Watched; server: FakeMcpServer }> {
  fakeServers.define(name, statelessServer(script));
  const w = watched(serverConfig(name), { clientCapabilities: { roots: {} }, ...options });
  await w.connection.connect();
  expect(w.connection.era).toBe('stateless');
  return { w, server: fakeServers.latest(name) };
}

/** The listen request number `n` (1-based), once it has arrived. */
const nthListen = (server: FakeMcpServer, n: number) => server.waitFor((m) => m.method === 'subscriptions/listen' && listens(server).indexOf(m) === n - 1);

describe('the envelope', () => {
  it("carries the request's client capabilities (only those the connection can relay, and our extensions), log level and trace, and keeps the request's other _meta", async () => {
    const { w, server } = await modern('env', { tools: [tool('t')] }, { clientCapabilities: { roots: {}, elicitation: { form: {}, url: {} } } });
    await w.connection.request(
      'tools/call',
      { name: 't', arguments: {}, _meta: { 'custom/key': 1, [env.version]: '1999-01-01', [env.level]: 'error' } },
      {
        envelope: { clientCapabilities: { elicitation: { form: {} }, sampling: {} }, logLevel: 'debug', trace: { traceparent: '00-abc-def-01', baggage: 'k=v' } },
      },
    );
    const call = server.requests('tools/call')[0]!;
    expect(call.params._meta).toEqual({
      'custom/key': 1,
      [env.version]: VERSION,
      [env.caps]: { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/ui': expect.any(Object), 'io.modelcontextprotocol/skills': {} } },
      [env.info]: { name: 'switchboard', version: expect.any(String) },
      [env.level]: 'debug',
      traceparent: '00-abc-def-01',
      baggage: 'k=v',
    });
  });

  it("defaults to the connection's capabilities; logging/setLevel and ping are answered here, the level then rides on each request", async () => {
    const { w, server } = await modern('defaults', { tools: [tool('t')] });
    expect(await w.connection.request('ping')).toEqual({});
    expect(await w.connection.request('logging/setLevel', { level: 'info' })).toEqual({});
    await w.connection.request('tools/call', { name: 't', arguments: {} });
    expect(server.requests('ping')).toEqual([]);
    expect(server.requests('logging/setLevel')).toEqual([]);
    expect(server.requests('tools/call')[0]!.params._meta).toMatchObject({ [env.caps]: { roots: {} }, [env.level]: 'info' });
    // Notifications of the stateful era are not sent (2026-07-28 has none from clients but cancellation).
    w.connection.notify('notifications/roots/list_changed');
    await w.connection.request('tools/list');
    expect(server.requests('notifications/roots/list_changed')).toEqual([]);
  });

  it('a stateful-era server gets the trace keys in _meta, and no envelope', async () => {
    fakeServers.define('old', { tools: [tool('t')] });
    const w = watched(serverConfig('old'));
    await w.connection.connect();
    await w.connection.request('tools/call', { name: 't', arguments: {} }, { envelope: { clientCapabilities: { sampling: {} }, logLevel: 'debug', trace: { traceparent: '00-1-2-01' } } });
    expect(fakeServers.latest('old').requests('tools/call')[0]!.params._meta).toEqual({ traceparent: '00-1-2-01' });
  });

  it('results come back as the server sent them: resultType, input_required, requestState and all', async () => {
    const interim = { resultType: 'input_required', inputRequests: { name: { method: 'elicitation/create', params: { message: 'Name?' } } }, requestState: 'opaque' };
    const { w } = await modern('mrtr', { tools: [tool('ask')], handlers: { 'tools/call': () => interim } });
    const answer = (await w.connection.forward('tools/call', { name: 'ask', arguments: {} })) as any;
    expect(answer.result).toEqual(interim);
  });
});

describe('the listen stream', () => {
  it('asks for the list changes the server announces; a tagged list_changed refetches, the acknowledgement and other streams do not count', async () => {
    const { w, server } = await modern('lists', { tools: [tool('a')], prompts: [] });
    const listen = await nthListen(server, 1);
    expect(listen.params.notifications).toEqual({ toolsListChanged: true, promptsListChanged: true });
    expect(listen.params._meta).toMatchObject({ [env.version]: VERSION });
    server.setList('tools', [tool('a'), tool('b')], true);
    onStream(server, 'someone-else', 'notifications/tools/list_changed');
    onStream(server, listen.id, 'notifications/tools/list_changed');
    await w.until((c) => c.lists.tools.length === 2);
    expect(server.requests('tools/list')).toHaveLength(2);
    expect(w.notifications.map((n) => n.notification.method)).not.toContain(ACK);
  });

  it('subscribe: a new stream with the URI, acknowledged before the old one closes; updates arrive once, untagged', async () => {
    const { w, server } = await modern('subs', { resources: [resource('file:///a')] });
    const first = await nthListen(server, 1);
    await w.connection.subscribe('file:///a');
    const second = listens(server)[1]!;
    expect(second.params.notifications).toEqual({ resourcesListChanged: true, resourceSubscriptions: ['file:///a'] });
    // The old stream was closed once the new one was acknowledged.
    await server.waitFor((m) => m.method === 'notifications/cancelled' && m.params.requestId === first.id);
    onStream(server, first.id, 'notifications/resources/updated', { uri: 'file:///a' });
    onStream(server, second.id, 'notifications/resources/updated', { uri: 'file:///a' });
    await w.until(() => w.notifications.length > 0);
    await w.connection.request('resources/list');
    expect(w.notifications.map((n) => n.notification)).toEqual([{ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'file:///a' } }]);
    expect(w.connection.subscriptions).toEqual(new Set(['file:///a']));

    await w.connection.unsubscribe('file:///a');
    expect(listens(server)[2]!.params.notifications).toEqual({ resourcesListChanged: true });
    expect(cancelledIds(server)).toContain(second.id);
  });

  it('subscriptions made at once: a stream replaced before its acknowledgement hands its waiters to the next', async () => {
    const { w, server } = await modern('burst', { resources: [resource('file:///x'), resource('file:///y')] });
    await nthListen(server, 1);
    await Promise.all([w.connection.subscribe('file:///x'), w.connection.subscribe('file:///y')]);
    const all = listens(server);
    expect(all.at(-1)!.params.notifications.resourceSubscriptions).toEqual(['file:///x', 'file:///y']);
    // Every stream but the last was closed; the last one is in charge.
    await server.waitFor((m) => m.method === 'notifications/cancelled' && m.params.requestId === all.at(-2)!.id);
    expect(cancelledIds(server)).not.toContain(all.at(-1)!.id);
    onStream(server, all.at(-1)!.id, 'notifications/resources/updated', { uri: 'file:///y' });
    await w.until(() => w.notifications.length === 1);
  });

  it('resources/subscribe and unsubscribe forwarded by the router become subscribe() and unsubscribe()', async () => {
    const { w, server } = await modern('fwd', { resources: [resource('file:///b')] });
    expect(await w.connection.request('resources/subscribe', { uri: 'file:///b' })).toEqual({});
    expect(server.requests('resources/subscribe')).toEqual([]);
    expect(listens(server).at(-1)!.params.notifications.resourceSubscriptions).toEqual(['file:///b']);
    expect(await w.connection.request('resources/unsubscribe', { uri: 'file:///b' })).toEqual({});
    expect(listens(server).at(-1)!.params.notifications.resourceSubscriptions).toBeUndefined();
  });

  it('a server that offers no subscriptions refuses subscribe with its RpcError, and nothing is kept', async () => {
    const { w } = await modern('nosubs', { resources: [resource('file:///c')], capabilities: { resources: {} } });
    await expect(w.connection.subscribe('file:///c')).rejects.toBeInstanceOf(RpcError);
    expect(w.connection.subscriptions.size).toBe(0);
  });

  it('after a reconnect the new process is listened to with the same subscriptions', async () => {
    const { w, server } = await modern('again', { resources: [resource('file:///d')] });
    await w.connection.subscribe('file:///d');
    server.drop();
    await w.until((c) => c.state === 'backing-off');
    await vi.runOnlyPendingTimersAsync();
    await w.until((c) => c.state === 'ready');
    const next = fakeServers.latest('again');
    expect(next).not.toBe(server);
    const listen = await nthListen(next, 1);
    expect(listen.params.notifications.resourceSubscriptions).toEqual(['file:///d']);
    onStream(next, listen.id, 'notifications/resources/updated', { uri: 'file:///d' });
    await w.until(() => w.notifications.length === 1);
  });

  it('a stream the server ends is opened again after a pause', async () => {
    let ends = 0;
    const { w, server } = await modern('ending', {
      tools: [tool('a')],
      handlers: {
        'subscriptions/listen': (params, call) => {
          call.server.notify(ACK, { _meta: { [SID]: call.id }, notifications: params.notifications });
          // The first stream is ended by the server with its result; the next ones stay open.
          return ends++ === 0 ? { resultType: 'complete', _meta: { [SID]: call.id } } : new Promise(() => {});
        },
      },
    });
    await nthListen(server, 1);
    expect(listens(server)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    await nthListen(server, 2);
    expect(w.connection.state).toBe('ready');
  });
});

describe('subscriptions to a stateful-era server', () => {
  it('are resources/subscribe, made again on the new process after a reconnect', async () => {
    fakeServers.define('old-subs', { resources: [resource('file:///e')] });
    const w = watched(serverConfig('old-subs'));
    await w.connection.connect();
    await w.connection.subscribe('file:///e');
    await w.connection.subscribe('file:///e');
    const first = fakeServers.latest('old-subs');
    expect(first.requests('resources/subscribe').map((r) => r.params.uri)).toEqual(['file:///e']);
    first.drop();
    await w.until((c) => c.state === 'backing-off');
    await vi.runOnlyPendingTimersAsync();
    await w.until((c) => c.state === 'ready');
    const second = await fakeServers.nth('old-subs', 2);
    await second.waitFor('resources/subscribe');
    await w.connection.unsubscribe('file:///e');
    expect(second.requests('resources/unsubscribe').map((r) => r.params.uri)).toEqual(['file:///e']);
    expect(w.connection.subscriptions.size).toBe(0);
  });
});
