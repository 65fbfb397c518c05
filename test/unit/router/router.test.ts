// The Router in process, on fake servers: which connection serves a session, the one release
// that frees everything a session held on servers, log levels fanned out to servers, and the
// servers' own notifications routed to the sessions they concern (and to no other).

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import type { Connection, RequestOwner, Session } from '../../../src/router/session.js';
import { fakeServers, type FakeCall } from '../../helpers/fake-transport.js';
import { RecordingSession, wire, type Wired } from './router-harness.js';

/** The registry routes a request: its owner is a session and that session's client. */
const ownerOf = <S extends Session>(session: S) => ({ session, client: session });

vi.mock('../../../src/outbound/stdio-transport.js', async () => (await import('../../helpers/fake-transport.js')).fakeStdioModule());

const tools = [{ name: 'work', inputSchema: { type: 'object' } }];
let wired: Wired | undefined;

beforeEach(() => fakeServers.clear());
afterEach(async () => {
  await wired?.close();
  wired = undefined;
  vi.useRealTimers();
});

async function start(servers: Record<string, unknown>[], extra: Record<string, unknown> = {}): Promise<Wired> {
  wired = wire(servers, extra);
  await wired.connect();
  return wired;
}

/** Runs `during` on the server while a tools/call owned by `owner` is in flight, then answers it. */
// biome-ignore lint/suspicious/noConfusingVoidType: `during` may be a plain statement block or an async function
function callWhile(connection: Connection, owner: RequestOwner, during: (call: FakeCall) => Promise<unknown> | void): Promise<unknown> {
  const server = fakeServers.latest(connection.config.kind === 'stdio' ? connection.config.command : '');
  server.script.handlers = { ...server.script.handlers, 'tools/call': async (_p, call) => (await during(call), { content: [] }) };
  return connection.request('tools/call', { name: 'work' }, { owner });
}

describe('connectionFor', () => {
  it('gives every session the one shared connection, and each session its own for a per-session server', async () => {
    fakeServers.define('shared', { tools });
    fakeServers.define('mine', { tools });
    const { router, isolated } = await start([
      { name: 'shared', command: 'shared' },
      { name: 'mine', command: 'mine', isolation: 'per-session' },
    ]);
    const [a, b] = [new RecordingSession(), new RecordingSession()];
    expect(router.registry.for('shared', ownerOf(a))).toBe(router.connection('shared'));
    expect(router.registry.for('shared', ownerOf(b))).toBe(router.connection('shared'));
    // Concurrent first requests of one session share one opening.
    const [a1, a2, b1] = await Promise.all([router.registry.for('mine', ownerOf(a)), router.registry.for('mine', ownerOf(a)), router.registry.for('mine', ownerOf(b))]);
    expect(a1).toBe(a2);
    expect(a1).not.toBe(b1);
    expect(a1).not.toBe(router.connection('mine'));
    expect(isolated.map((i) => i.session)).toEqual([a, b]);
    // Each is a connection of its own to the server: the catalog's, a's and b's.
    expect(fakeServers.instances('mine')).toHaveLength(3);
  });

  it('an unknown server is SERVER_UNAVAILABLE, naming it', async () => {
    const { router } = await start([]);
    let err: unknown;
    try {
      router.registry.for('ghost', ownerOf(new RecordingSession()));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ code: 'SERVER_UNAVAILABLE', server: 'ghost', message: expect.stringContaining('"ghost" is not configured') });
  });

  it('past limits.maxIsolatedConnections a new per-session connection is refused at once (LIMIT_EXCEEDED, gateway)', async () => {
    fakeServers.define('mine', { tools });
    const { router } = await start([{ name: 'mine', command: 'mine', isolation: 'per-session' }], { limits: { maxIsolatedConnections: 1 } });
    const [a, b] = [new RecordingSession(), new RecordingSession()];
    await router.registry.for('mine', ownerOf(a));
    await expect(router.registry.for('mine', ownerOf(b))).rejects.toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'gateway' });
    // Releasing a makes room for b.
    router.release(a);
    await expect(router.registry.for('mine', ownerOf(b))).resolves.toBeDefined();
  });
});

describe('release', () => {
  it('one call frees the subscriptions, tasks, elicitations and per-session connections of a session, and nobody else’s', async () => {
    fakeServers.define('files', { resources: [{ uri: 'file:///a', name: 'a' }] });
    fakeServers.define('mine', { tools });
    const { router, isolated } = await start([
      { name: 'files', command: 'files' },
      { name: 'mine', command: 'mine', isolation: 'per-session' },
    ]);
    const files = router.connection('files')!;
    const server = fakeServers.latest('files');
    const [a, b] = [new RecordingSession(), new RecordingSession()];

    await router.state.subscriptions.subscribe(files, 'file:///a', a, 'files://a');
    await router.state.subscriptions.subscribe(files, 'file:///a', b, 'files://a');
    const task = router.state.tasks.expose(files, 'server-task-1', a);
    for (const [session, id] of [
      [a, 'e1'],
      [b, 'e2'],
    ] as const) {
      await callWhile(files, { session, client: session }, (call) => void call.server.request('elicitation/create', { mode: 'url', elicitationId: id, url: 'https://x', message: 'm' }));
    }
    await router.registry.for('mine', ownerOf(a));
    await router.registry.for('mine', ownerOf(b));
    expect(server.requests('resources/subscribe')).toHaveLength(1);

    router.release(a);

    // b still holds the URI: the server is not told to unsubscribe yet; updates reach b only.
    server.notify('notifications/resources/updated', { uri: 'file:///a' });
    server.notify('notifications/tasks/status', { taskId: 'server-task-1', status: 'completed' });
    server.notify('notifications/elicitation/complete', { elicitationId: 'e1' });
    server.notify('notifications/elicitation/complete', { elicitationId: 'e2' });
    await server.request('ping');
    expect(server.requests('resources/unsubscribe')).toEqual([]);
    expect(a.sent).toEqual([]);
    expect(b.got('notifications/resources/updated')).toEqual([{ uri: 'files://a' }]);
    expect(b.got('notifications/elicitation/complete')).toEqual([{ elicitationId: 'e2' }]);
    expect(router.state.tasks.lookup(task, a)).toBeUndefined();
    // a's own connection closed; b's did not.
    const [mineA, mineB] = isolated.map((i) => i.connection);
    expect(mineA!.state).toBe('closed');
    expect(mineB!.state).toBe('ready');

    router.release(b);
    const unsubscribe = await server.waitFor('resources/unsubscribe');
    expect(unsubscribe.params).toEqual({ uri: 'file:///a' });
    expect(router.sessionCount).toBe(0);
  });
});

describe('log levels', () => {
  it('tells each server with logging the most verbose level any session wants, once per change', async () => {
    fakeServers.define('loud', { tools });
    fakeServers.define('mute', { tools, capabilities: { tools: {} } });
    const { router } = await start([
      { name: 'loud', command: 'loud' },
      { name: 'mute', command: 'mute' },
    ]);
    const [a, b] = [new RecordingSession(), new RecordingSession()];
    router.attach(a);
    router.attach(b);
    a.logLevel = 'error';
    await router.logLevelChanged();
    b.logLevel = 'debug';
    await router.logLevelChanged();
    await router.logLevelChanged();
    router.release(b);
    await router.logLevelChanged();
    const levels = fakeServers
      .latest('loud')
      .requests('logging/setLevel')
      .map((r) => r.params?.level);
    expect(levels).toEqual(['error', 'debug', 'error']);
    expect(fakeServers.latest('mute').requests('logging/setLevel')).toEqual([]);
  });

  it('a server that reconnects gets its subscriptions and the log level back', async () => {
    vi.useFakeTimers();
    fakeServers.define('files', { resources: [{ uri: 'file:///a', name: 'a' }] });
    const { router } = await start([{ name: 'files', command: 'files' }]);
    const a = new RecordingSession();
    router.attach(a);
    a.logLevel = 'info';
    await router.logLevelChanged();
    await router.state.subscriptions.subscribe(router.connection('files')!, 'file:///a', a, 'files://a');
    fakeServers.latest('files').drop();
    await vi.advanceTimersByTimeAsync(1000);
    const again = await fakeServers.nth('files', 2);
    const [subscribe, level] = await Promise.all([again.waitFor('resources/subscribe'), again.waitFor('logging/setLevel')]);
    expect(subscribe.params).toEqual({ uri: 'file:///a' });
    expect(level.params).toEqual({ level: 'info' });
  });
});

describe('notifications from servers', () => {
  it('a log line of a call goes to the client that made it (on its channel), filtered by its level', async () => {
    fakeServers.define('busy', { tools });
    const { router } = await start([{ name: 'busy', command: 'busy' }]);
    const [a, b] = [new RecordingSession(), new RecordingSession()];
    router.attach(a);
    router.attach(b);
    a.logLevel = 'warning';
    const onChannel: any[] = [];
    await callWhile(router.connection('busy')!, { session: a, client: a, related: (m) => onChannel.push(m) }, (call) => {
      call.server.notify('notifications/message', { level: 'info', logger: 'db', data: 'too quiet for a' });
      call.server.notify('notifications/message', { level: 'error', logger: 'db', data: 'for a' });
    });
    expect(onChannel.map((m) => m.params)).toEqual([{ level: 'error', logger: 'busy/db', data: 'for a' }]);
    expect(a.sent).toEqual([]);
    expect(b.sent).toEqual([]);
  });

  it('a log line of no call goes to the sessions that see the server, at the level each asked for', async () => {
    fakeServers.define('bg', { tools });
    const { router } = await start([{ name: 'bg', command: 'bg' }]);
    const sees = new RecordingSession();
    const picky = new RecordingSession();
    const blind = new RecordingSession((server) => server !== 'bg');
    for (const s of [sees, picky, blind]) router.attach(s);
    picky.logLevel = 'error';
    const server = fakeServers.latest('bg');
    server.notify('notifications/message', { level: 'info', data: 'background' });
    await server.request('ping');
    expect(sees.got('notifications/message')).toEqual([{ level: 'info', logger: 'bg', data: 'background' }]);
    expect(picky.sent).toEqual([]);
    expect(blind.sent).toEqual([]);
  });

  it('resources/updated reaches the subscribers only, with the URI as each knows it; task status reaches its owner only', async () => {
    fakeServers.define('files', { resources: [{ uri: 'file:///a', name: 'a' }] });
    const { router } = await start([{ name: 'files', command: 'files' }]);
    const files = router.connection('files')!;
    const [subscriber, other] = [new RecordingSession(), new RecordingSession()];
    router.attach(subscriber);
    router.attach(other);
    await router.state.subscriptions.subscribe(files, 'file:///a', subscriber, 'files+file:///a');
    const exposed = router.state.tasks.expose(files, 't-9', subscriber);
    const server = fakeServers.latest('files');
    server.notify('notifications/resources/updated', { uri: 'file:///a' });
    server.notify('notifications/resources/updated', { uri: 'file:///unsubscribed' });
    server.notify('notifications/tasks/status', { taskId: 't-9', status: 'working' });
    server.notify('notifications/tasks/status', { taskId: 'never-exposed', status: 'working' });
    await server.request('ping');
    expect(subscriber.sent.map((n) => [n.method, n.params])).toEqual([
      ['notifications/resources/updated', { uri: 'files+file:///a' }],
      ['notifications/tasks/status', { taskId: exposed, status: 'working' }],
    ]);
    expect(other.sent).toEqual([]);
  });

  it('a sampling request reaches its client without the resources that client may not see', async () => {
    fakeServers.define('asker', { tools });
    const { router } = await start([{ name: 'asker', command: 'asker' }]);
    const a = new RecordingSession();
    (a as { view: RecordingSession['view'] }).view = { ...a.view, allowsUri: (uri) => !uri.startsWith('file:///secret/') };
    router.attach(a);
    const toolResult = (uri: string) => ({
      type: 'tool_result',
      toolUseId: 't',
      content: [
        { type: 'text', text: 'see' },
        { type: 'resource', resource: { uri, text: 'body' } },
      ],
    });
    const messages = [
      { role: 'user', content: { type: 'text', text: 'hi' } },
      { role: 'user', content: [toolResult('file:///secret/keys.txt')] },
      { role: 'user', content: [toolResult('file:///public/readme.txt')] },
    ];
    await callWhile(router.connection('asker')!, { session: a, client: a }, async (call) => void (await call.server.request('sampling/createMessage', { messages, maxTokens: 9 })));
    const sent = a.asked[0]!.params!;
    expect(JSON.stringify(sent)).not.toContain('secret');
    expect(sent.messages[1].content[0].content).toEqual([{ type: 'text', text: 'see' }]);
    expect(sent.messages[2]).toEqual(messages[2]);
    expect(sent.maxTokens).toBe(9);
  });

  it('a server request during a call goes to that call’s client; with several clients in flight, to none', async () => {
    fakeServers.define('asker', { tools });
    const { router } = await start([{ name: 'asker', command: 'asker' }]);
    const files = router.connection('asker')!;
    const [a, b] = [new RecordingSession(), new RecordingSession()];
    router.attach(a);
    router.attach(b);
    let answer: any;
    await callWhile(files, { session: a, client: a }, async (call) => (answer = await call.server.request('sampling/createMessage', { messages: [] })));
    expect(answer.result).toEqual({ answeredBy: a.id });
    expect(b.asked).toEqual([]);

    // Two sessions' calls in flight on one shared stdio connection: whose request is it? Nobody's.
    const server = fakeServers.latest('asker');
    const release = server.hold('tools/call');
    server.script.handlers = { 'tools/call': () => ({ content: [] }) };
    const calls = [files.request('tools/call', { name: 'work' }, { owner: { session: a, client: a } }), files.request('tools/call', { name: 'work' }, { owner: { session: b, client: b } })];
    await server.waitFor((m) => m.method === 'tools/call' && server.requests('tools/call').length === 3);
    const orphan = await server.request('sampling/createMessage', { messages: [] });
    expect(orphan).toMatchObject({ error: { message: expect.stringContaining('isolation: per-session') } });
    release();
    await Promise.all(calls);
    expect(a.asked).toHaveLength(1);
    expect(b.asked).toEqual([]);
  });
});
