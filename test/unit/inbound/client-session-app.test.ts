// ClientSession and App in process, on fake servers: what a client sees through the whole core
// (initialize, lists, calls, progress, cancellation, the session call limit, list_changed only
// for what its profile sees), without the CLI, a socket or a child process.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../../src/app/app.js';
import type { ClientSession } from '../../../src/inbound/client-session.js';
import { silentLogger } from '../../../src/log.js';
import type { JsonRpcMessage } from '../../../src/protocol/jsonrpc.js';
import { fakeServers, type FakeCall } from '../../helpers/fake-transport.js';
import { Conditions, gatewayConfig } from '../outbound/connection-harness.js';

vi.mock('../../../src/outbound/stdio-transport.js', async () => (await import('../../helpers/fake-transport.js')).fakeStdioModule());

const tool = (name: string) => ({ name, description: `${name} things`, inputSchema: { type: 'object' } });
let app: App | undefined;

beforeEach(() => {
  fakeServers.clear();
  fakeServers.define('alpha', { tools: [tool('echo'), tool('slow')], prompts: [{ name: 'greet' }] });
  fakeServers.define('beta', { tools: [tool('search')] });
});
afterEach(async () => {
  await app?.close();
  app = undefined;
});

interface Client {
  session: ClientSession;
  /** What the gateway pushed to this client outside answers (notifications, its requests). */
  pushed: JsonRpcMessage[];
  call(method: string, params?: Record<string, any>, related?: (m: JsonRpcMessage) => void): Promise<any>;
  notify(method: string, params?: Record<string, any>): void;
  until(pred: () => boolean): Promise<void>;
}

let ids = 0;

async function startApp(extra: Record<string, unknown> = {}): Promise<App> {
  const config = gatewayConfig({
    servers: [
      { name: 'alpha', command: 'alpha' },
      { name: 'beta', command: 'beta' },
    ],
    ...extra,
  });
  app = new App(config, silentLogger());
  await app.start();
  return app;
}

/** Opens a session (as `principal`'s profile, if given) and completes the handshake. */
async function connect(principal?: string): Promise<Client> {
  const conditions = new Conditions();
  const pushed: JsonRpcMessage[] = [];
  const session = app!.openSession((m) => {
    pushed.push(m);
    conditions.check();
  }, principal);
  const client: Client = {
    session,
    pushed,
    call: (method, params, related) => session.handle({ jsonrpc: '2.0', id: ++ids, method, ...(params ? { params } : {}) }, related),
    notify: (method, params) => void session.handle({ jsonrpc: '2.0', method, ...(params ? { params } : {}) }),
    until: (pred) => conditions.until(pred),
  };
  const init = await client.call('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } });
  expect(init.result.protocolVersion).toBe('2025-06-18');
  client.notify('notifications/initialized');
  return client;
}

const names = (answer: any, key = 'tools') => answer.result[key].map((t: any) => t.name);

/** Resolves with the next catalog the store publishes (a server's state or lists changed). */
function nextSnapshot(app: App): Promise<void> {
  let first = true;
  return new Promise((resolve) => {
    const sub = app.store.snapshots.subscribe(() => {
      if (first) return void (first = false);
      sub.unsubscribe();
      resolve();
    });
  });
}

describe('a client through the core', () => {
  it('initializes, lists the merged catalog and calls a tool on its server, under the server’s own name', async () => {
    await startApp();
    const c = await connect();
    expect(names(await c.call('tools/list'))).toEqual(['alpha__echo', 'alpha__slow', 'beta__search']);
    const answer = await c.call('tools/call', { name: 'alpha__echo', arguments: { text: 'through the core' } });
    expect(answer.result).toEqual({ content: [{ type: 'text', text: 'through the core' }] });
    expect(fakeServers.latest('alpha').requests('tools/call')[0]!.params).toMatchObject({ name: 'echo', arguments: { text: 'through the core' } });
    const unknown = await c.call('tools/call', { name: 'gamma__nothing' });
    expect(unknown.error).toMatchObject({ code: -32602 });
  });

  it('relays progress with the client’s own token on the request’s channel', async () => {
    fakeServers.define('alpha', {
      tools: [tool('slow')],
      handlers: {
        'tools/call': (_p, call: FakeCall) => {
          call.progress(1, 2);
          call.progress(2, 2);
          return { content: [] };
        },
      },
    });
    await startApp();
    const c = await connect();
    const channel: any[] = [];
    await c.call('tools/call', { name: 'alpha__slow', _meta: { progressToken: 'mine' } }, (m) => channel.push(m));
    expect(channel.map((m) => m.params)).toEqual([
      { progressToken: 'mine', progress: 1, total: 2 },
      { progressToken: 'mine', progress: 2, total: 2 },
    ]);
    // The server saw a token of the gateway's, not the client's.
    expect(fakeServers.latest('alpha').requests('tools/call')[0]!.params._meta.progressToken).not.toBe('mine');
  });

  it('a client’s cancellation reaches the server under the server’s request id, and the call ends CANCELLED', async () => {
    fakeServers.define('alpha', { tools: [tool('slow')], handlers: { 'tools/call': (_p, call: FakeCall) => call.cancelled.then(() => new Promise(() => {})) } });
    await startApp();
    const c = await connect();
    const answer = c.call('tools/call', { name: 'alpha__slow' });
    const server = fakeServers.latest('alpha');
    const forwarded = await server.waitFor('tools/call');
    c.notify('notifications/cancelled', { requestId: ids, reason: 'user pressed stop' });
    const cancelled = await server.waitFor('notifications/cancelled');
    expect(cancelled.params.requestId).toBe(forwarded.id);
    expect((await answer).error.data).toMatchObject({ code: 'CANCELLED', server: 'alpha' });
  });

  it('past limits.maxCallsPerSession a call is refused at once (LIMIT_EXCEEDED, session); other sessions are not affected', async () => {
    const held: Array<() => void> = [];
    fakeServers.define('alpha', { tools: [tool('slow')], handlers: { 'tools/call': () => new Promise((resolve) => held.push(() => resolve({ content: [] }))) } });
    await startApp({ limits: { maxCallsPerSession: 2 } });
    const [c, other] = [await connect(), await connect()];
    const first = c.call('tools/call', { name: 'alpha__slow' });
    const second = c.call('tools/call', { name: 'alpha__slow' });
    const third = await c.call('tools/call', { name: 'alpha__slow' });
    expect(third.error.data).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'session' });
    expect((await other.call('tools/list')).result).toBeDefined();
    const server = fakeServers.latest('alpha');
    await server.waitFor(() => server.requests('tools/call').length === 2);
    held[0]!();
    await first;
    const fourth = c.call('tools/call', { name: 'alpha__slow' });
    await server.waitFor(() => server.requests('tools/call').length === 3);
    held.splice(1).forEach((answer) => {
      answer();
    });
    expect((await Promise.all([second, fourth])).map((a) => a.result)).toEqual([{ content: [] }, { content: [] }]);
  });

  it('a dropped server: its tools stay listed, its calls fail at once with SERVER_UNAVAILABLE naming it', async () => {
    await startApp();
    const c = await connect();
    const published = nextSnapshot(app!);
    fakeServers.latest('beta').drop();
    await published;
    expect(app!.router.connection('beta')!.state).toBe('backing-off');
    expect(names(await c.call('tools/list'))).toContain('beta__search');
    const answer = await c.call('tools/call', { name: 'beta__search' });
    expect(answer.error.data).toMatchObject({ code: 'SERVER_UNAVAILABLE', server: 'beta' });
  });

  it('closing a session cancels its calls on the servers and releases it', async () => {
    fakeServers.define('alpha', { tools: [tool('slow')], handlers: { 'tools/call': () => new Promise(() => {}) } });
    await startApp();
    const c = await connect();
    void c.call('tools/call', { name: 'alpha__slow' });
    const server = fakeServers.latest('alpha');
    const forwarded = await server.waitFor('tools/call');
    expect(app!.sessionCount).toBe(1);
    c.session.close();
    expect(app!.sessionCount).toBe(0);
    expect((await server.waitFor('notifications/cancelled')).params.requestId).toBe(forwarded.id);
  });
});

describe('list_changed', () => {
  const narrow = { clients: [{ name: 'narrow', token: 'narrow-token', tools: { allow: ['alpha__*'] }, prompts: [], resources: [] }] };

  it('a session hears list_changed only for kinds its profile sees change', async () => {
    await startApp(narrow);
    const [all, profiled] = [await connect(), await connect('narrow')];
    const heard = (c: Client) => c.pushed.map((m) => (m as { method?: string }).method);
    expect(names(await profiled.call('tools/list'))).toEqual(['alpha__echo', 'alpha__slow']);

    // beta is outside the profile: only the unrestricted session hears of its new tool.
    fakeServers.latest('beta').setList('tools', [tool('search'), tool('fetch')]);
    await all.until(() => heard(all).length === 1);
    expect(heard(all)).toEqual(['notifications/tools/list_changed']);
    // alpha's prompts are hidden from the profile: again only the unrestricted session hears.
    fakeServers.latest('alpha').setList('prompts', [{ name: 'greet' }, { name: 'part' }]);
    await all.until(() => heard(all).length === 2);
    expect(heard(all)[1]).toBe('notifications/prompts/list_changed');
    expect(heard(profiled)).toEqual([]);
    // alpha's tools are in the profile: both hear.
    fakeServers.latest('alpha').setList('tools', [tool('echo')]);
    await profiled.until(() => heard(profiled).length === 1);
    expect(heard(profiled)).toEqual(['notifications/tools/list_changed']);
    expect(names(await profiled.call('tools/list'))).toEqual(['alpha__echo']);
  });

  it('a session hears nothing before it said initialized', async () => {
    await startApp();
    const earlyPushed: JsonRpcMessage[] = [];
    const early = app!.openSession((m) => earlyPushed.push(m));
    await early.handle({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {} } });
    const c = await connect();
    fakeServers.latest('beta').setList('tools', [tool('other')]);
    // Sessions are told in one pass: by the time c has heard, early would have too.
    await c.until(() => c.pushed.length === 1);
    expect(earlyPushed).toEqual([]);
  });
});
