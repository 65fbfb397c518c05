// ServerConnection in process, on a fake server and a fake clock: the handshake, every page of
// every list, refetching on list_changed, and the calls (timeouts reset by progress but capped,
// the per-server limit). Its life after a drop is in server-connection-life.test.ts.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TICK_MS } from '../../../src/jsonrpc/deadlines.js';
import { GatewayError, RpcError } from '../../../src/errors.js';
import { LATEST_PROTOCOL_VERSION } from '../../../src/protocol/mcp.js';
import { fakeServers } from '../../helpers/fake-transport.js';
import { serverConfig, watched } from './connection-harness.js';

vi.mock('../../../src/outbound/stdio-transport.js', async () => (await import('../../helpers/fake-transport.js')).fakeStdioModule());

const tool = (name: string) => ({ name, description: `the ${name} tool`, inputSchema: { type: 'object' } });

beforeEach(() => {
  fakeServers.clear();
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('handshake', () => {
  it('initializes with our newest revision, sends initialized, and keeps what the server said', async () => {
    fakeServers.define('alpha', { tools: [tool('a')], instructions: 'Use alpha for a.', serverInfo: { name: 'alpha-server', version: '2.0.0' } });
    const w = watched(serverConfig('alpha'), { clientCapabilities: { roots: {} } });
    await w.connection.connect();
    const server = fakeServers.latest('alpha');
    const init = server.requests('initialize')[0]!;
    expect(init.params).toMatchObject({ protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: { roots: {} }, clientInfo: { name: 'switchboard' } });
    // The era probe first (this server answers it -32601: the stateful era), then initialized
    // after the answer to initialize, and before any list request.
    const methods = server.received.map((m: any) => m.method);
    expect(methods.slice(0, 3)).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
    expect(w.connection).toMatchObject({
      state: 'ready',
      era: 'stateful',
      listed: true,
      protocolVersion: LATEST_PROTOCOL_VERSION,
      instructions: 'Use alpha for a.',
      serverInfo: { name: 'alpha-server' },
    });
    expect(w.changes.at(-1)).toMatchObject({ state: 'ready', kinds: ['tools', 'prompts', 'resources', 'resourceTemplates'] });
  });

  it('accepts an older revision the server answers with, and refuses one the gateway does not speak', async () => {
    fakeServers.define('old', { protocolVersion: '2024-11-05', tools: [] });
    fakeServers.define('odd', { protocolVersion: '1999-01-01', tools: [] });
    const old = watched(serverConfig('old'));
    const odd = watched(serverConfig('odd'), { reconnect: false });
    await Promise.all([old.connection.connect(), odd.connection.connect()]);
    expect(old.connection.protocolVersion).toBe('2024-11-05');
    expect(odd.connection.state).toBe('failed');
    expect(odd.connection.problem).toContain('"1999-01-01"');
    expect(fakeServers.latest('odd').closed).toBe(true);
  });

  it('a refused initialize is a PROTOCOL_ERROR, and a hung one ends at the startup timeout, in simulated time', async () => {
    fakeServers.define('refusing', { initialize: 'refuse' });
    fakeServers.define('hanging', { initialize: 'hang' });
    const refusing = watched(serverConfig('refusing'), { reconnect: false });
    await refusing.connection.connect();
    expect(refusing.connection.problem).toMatch(/^initialize failed: initialize refused/);

    const hanging = watched(serverConfig('hanging', { startupTimeout: '20s' }), { reconnect: false });
    const connecting = hanging.connection.connect();
    await vi.advanceTimersByTimeAsync(19_999);
    expect(hanging.connection.state).toBe('connecting');
    await vi.advanceTimersByTimeAsync(1);
    await connecting;
    expect(hanging.connection).toMatchObject({ state: 'failed', problem: expect.stringContaining('within 20s') });
    expect(fakeServers.latest('hanging').closed).toBe(true);
  });

  it('a server that dies during the handshake is down with the reason its pipe gave', async () => {
    fakeServers.define('dying', () => 'exit');
    const w = watched(serverConfig('dying'), { reconnect: false });
    await w.connection.connect();
    expect(w.connection).toMatchObject({ state: 'failed', listed: false, problem: expect.stringContaining('exited with code 1') });
  });
});

describe('lists', () => {
  it('fetches every page of each list the server offers, and asks for nothing it does not offer', async () => {
    const tools = ['t1', 't2', 't3', 't4', 't5'].map(tool);
    const prompts = [{ name: 'p1' }, { name: 'p2' }, { name: 'p3' }];
    fakeServers.define('paged', { tools, prompts, pageSize: 2 });
    const w = watched(serverConfig('paged'));
    await w.connection.connect();
    expect(w.connection.lists.tools.map((t) => t.name)).toEqual(['t1', 't2', 't3', 't4', 't5']);
    expect(w.connection.lists.prompts.map((p) => p.name)).toEqual(['p1', 'p2', 'p3']);
    const server = fakeServers.latest('paged');
    expect(server.requests('tools/list').map((r) => r.params?.cursor)).toEqual([undefined, '2', '4']);
    expect(server.requests('resources/list')).toEqual([]);
    expect(server.requests('resources/templates/list')).toEqual([]);
  });

  it('a server without resource templates (-32601) still connects with its resources', async () => {
    fakeServers.define('notemplates', {
      resources: [{ uri: 'file:///a', name: 'a' }],
      handlers: { 'resources/templates/list': () => Promise.reject({ code: -32601, message: 'no' }) },
    });
    const w = watched(serverConfig('notemplates'));
    await w.connection.connect();
    expect(w.connection.state).toBe('ready');
    expect(w.connection.lists.resources).toHaveLength(1);
    expect(w.connection.lists.resourceTemplates).toEqual([]);
  });

  it('refetches a list on its list_changed; a burst during the fetch costs exactly one more fetch', async () => {
    fakeServers.define('changing', { tools: [tool('v1')] });
    const w = watched(serverConfig('changing'));
    await w.connection.connect();
    const server = fakeServers.latest('changing');
    const release = server.hold('tools/list');
    server.setList('tools', [tool('v2')]);
    await server.waitFor((m) => m.method === 'tools/list' && server.requests('tools/list').length === 2);
    for (let i = 3; i <= 7; i++) server.setList('tools', [tool(`v${i}`)]);
    release();
    await w.until(() => w.changes.filter((c) => c.kinds.length === 1).length === 1);
    // The one more fetch keeps limits.listRefetchInterval (1s) after the last one ended.
    expect(server.requests('tools/list')).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(server.requests('tools/list')).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await w.until((c) => c.lists.tools[0]?.name === 'v7' && w.changes.filter((c) => c.kinds.length === 1).length === 2);
    expect(server.requests('tools/list')).toHaveLength(3);
    expect(server.requests('prompts/list')).toHaveLength(0);
    expect(w.changes.filter((c) => c.kinds.length === 1).map((c) => c.kinds)).toEqual([['tools'], ['tools']]);
  });

  it('resources/list_changed refetches resources and templates', async () => {
    fakeServers.define('res', { resources: [{ uri: 'file:///1', name: '1' }], resourceTemplates: [] });
    const w = watched(serverConfig('res'));
    await w.connection.connect();
    const server = fakeServers.latest('res');
    server.lists.resourceTemplates = [{ uriTemplate: 'file:///{x}', name: 'x' }];
    server.setList('resources', [{ uri: 'file:///2', name: '2' }]);
    await w.until((c) => c.lists.resources[0]?.uri === 'file:///2' && c.lists.resourceTemplates.length === 1);
  });

  it('a connection that does not fetch lists (per-session) ignores list_changed', async () => {
    fakeServers.define('own', { tools: [tool('a')] });
    const w = watched(serverConfig('own'), { fetchLists: false });
    await w.connection.connect();
    const server = fakeServers.latest('own');
    server.setList('tools', [tool('b')]);
    await w.connection.request('ping');
    expect(server.requests('tools/list')).toEqual([]);
    expect(w.connection.listed).toBe(false);
  });
});

describe('calls', () => {
  it('relays the server answer as it is: a result, or its JSON-RPC error', async () => {
    fakeServers.define('calls', { tools: [tool('echo')], handlers: { 'prompts/get': () => Promise.reject({ code: -32602, message: 'no such prompt' }) } });
    const w = watched(serverConfig('calls'));
    await w.connection.connect();
    expect(await w.connection.request('tools/call', { name: 'echo', arguments: { text: 'hi' } })).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    const err = await w.connection.request('prompts/get', { name: 'x' }).catch((e) => e);
    expect(err).toBeInstanceOf(RpcError);
    expect(err).toMatchObject({ code: -32602, message: 'no such prompt' });
  });

  it('refuses calls before it is ready with SERVER_UNAVAILABLE, naming the server', async () => {
    fakeServers.define('slowstart', { initialize: 'hang' });
    const w = watched(serverConfig('slowstart'));
    void w.connection.connect();
    const err = await w.connection.forward('tools/call', { name: 'x' }).catch((e) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ code: 'SERVER_UNAVAILABLE', server: 'slowstart', message: expect.stringContaining('still connecting') });
    await w.connection.close();
  });

  it('a silent request times out after the server timeout, and the server is told to stop', async () => {
    fakeServers.define('silent', { tools: [], handlers: { 'tools/call': () => new Promise(() => {}) } });
    const w = watched(serverConfig('silent', { timeout: '5s' }));
    await w.connection.connect();
    const call = w.connection.forward('tools/call', { name: 'x' }).catch((e) => e);
    await vi.advanceTimersByTimeAsync(4_999);
    const server = fakeServers.latest('silent');
    expect(server.requests('notifications/cancelled')).toEqual([]);
    await vi.advanceTimersByTimeAsync(1 + 2 * TICK_MS);
    expect(await call).toMatchObject({ code: 'SERVER_TIMEOUT', server: 'silent' });
    const cancelled = await server.waitFor('notifications/cancelled');
    expect(cancelled.params.requestId).toBe(server.requests('tools/call')[0]!.id);
  });

  it('progress resets the timeout, but a request never outlives maxTotalMs', async () => {
    const handler = (_p: Record<string, any>, call: { progress(n: number): void }) => {
      // Progress every 800 ms, forever: only the total cap can end this call.
      let n = 0;
      setInterval(() => call.progress(++n), 800);
      return new Promise(() => {});
    };
    fakeServers.define('chatty', { tools: [], handlers: { 'tools/call': handler } });
    const w = watched(serverConfig('chatty'));
    await w.connection.connect();
    const progress: number[] = [];
    const started = Date.now();
    const call = w.connection.forward('tools/call', { name: 'x' }, { timeoutMs: 1000, resetOnProgress: true, maxTotalMs: 5000, onProgress: (p) => progress.push(p.progress) }).then(
      () => 'answered',
      (e) => e,
    );
    let settledAt: number | undefined;
    void call.then(() => (settledAt = Date.now()));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(settledAt).toBeUndefined();
    expect(progress.length).toBeGreaterThanOrEqual(6);
    // Deadlines run on a wheel of TICK_MS: due at 5000 ms, fired within two ticks of it.
    await vi.advanceTimersByTimeAsync(1 + 2 * TICK_MS);
    expect(settledAt! - started).toBeGreaterThanOrEqual(5000);
    expect(settledAt! - started).toBeLessThanOrEqual(5000 + 2 * TICK_MS);
    expect(await call).toMatchObject({ code: 'SERVER_TIMEOUT' });
    vi.clearAllTimers();
  });

  it('without progress, the same request ends at its timeout', async () => {
    fakeServers.define('quiet', { tools: [], handlers: { 'tools/call': () => new Promise(() => {}) } });
    const w = watched(serverConfig('quiet'));
    await w.connection.connect();
    let settledAt: number | undefined;
    const started = Date.now();
    const call = w.connection.forward('tools/call', { name: 'x' }, { timeoutMs: 1000, resetOnProgress: true, maxTotalMs: 5000 }).catch((e) => ((settledAt = Date.now()), e));
    await vi.advanceTimersByTimeAsync(999);
    expect(settledAt).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1 + 2 * TICK_MS);
    expect(settledAt! - started).toBeGreaterThanOrEqual(1000);
    expect(settledAt! - started).toBeLessThanOrEqual(1000 + 2 * TICK_MS);
    expect(await call).toMatchObject({ code: 'SERVER_TIMEOUT' });
  });

  it('past maxCallsInFlight a call is refused at once with LIMIT_EXCEEDED (server); a finished one makes room', async () => {
    const answers: Array<() => void> = [];
    const hold = () => new Promise((resolve) => answers.push(() => resolve({ content: [] })));
    fakeServers.define('busy', { tools: [], handlers: { 'tools/call': hold } });
    const w = watched(serverConfig('busy'), { maxCallsInFlight: 2 });
    await w.connection.connect();
    const first = w.connection.forward('tools/call', { name: 'a' });
    const second = w.connection.forward('tools/call', { name: 'b' });
    const third = await w.connection.forward('tools/call', { name: 'c' }).catch((e) => e);
    expect(third).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'server', server: 'busy', retryAfterMs: expect.any(Number) });
    const server = fakeServers.latest('busy');
    await server.waitFor((m) => m.method === 'tools/call' && server.requests('tools/call').length === 2);
    expect(server.requests('tools/call')).toHaveLength(2);
    answers[0]!();
    await first;
    const fourth = w.connection.forward('tools/call', { name: 'd' });
    await server.waitFor((m) => m.params?.name === 'd');
    answers[1]!();
    answers[2]!();
    await Promise.all([second, fourth]);
  });

  it('a request from the server reaches onRequest with the owner of the call in flight; ping is answered by the connection', async () => {
    let seen: unknown;
    fakeServers.define('asking', {
      tools: [],
      handlers: {
        'tools/call': async (_p, call) => {
          const answer = await call.server.request('sampling/createMessage', { messages: [] });
          return { content: [{ type: 'text', text: JSON.stringify((answer as { result?: unknown }).result) }] };
        },
      },
    });
    const w = watched<string>(
      serverConfig('asking'),
      {},
      {
        onRequest: async (_c, request, context) => {
          seen = { method: request.method, owner: context.owner };
          return { model: 'm' };
        },
      },
    );
    await w.connection.connect();
    const result = await w.connection.request('tools/call', { name: 'x' }, { owner: 'session-1' });
    expect(seen).toEqual({ method: 'sampling/createMessage', owner: 'session-1' });
    expect(result.content[0].text).toBe('{"model":"m"}');
    const pong = await fakeServers.latest('asking').request('ping');
    expect(pong).toMatchObject({ result: {} });
  });
});
