// Stateful (2025-era) sessions across two replicas sharing a state store, behind a round-robin
// fetch with no affinity: initialized on one, served on the other; the log level, a cursor and the
// end of a session hold on both; an unknown session is 404 everywhere; with the store down, new
// sessions get 503 with Retry-After while held ones carry on.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServer, yamlServers } from '../helpers/index.js';
import { startReplicas, type Replicas } from '../helpers/replicas.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import type { StateStore, StoreHealth } from '../../src/state/store.js';

/** A replica's view of a shared MemoryStore that can be cut off: while down, every call rejects. */
function cuttable(store: MemoryStore): StateStore & { cut(down: boolean): void } {
  let health: StoreHealth = 'up';
  const listeners = new Set<(h: StoreHealth) => void>();
  return new Proxy(store, {
    get(target, key) {
      if (key === 'health') return health;
      if (key === 'cut')
        return (down: boolean) => {
          health = down ? 'down' : 'up';
          for (const l of listeners) l(health);
        };
      if (key === 'onHealth') return (l: (h: StoreHealth) => void) => (listeners.add(l), () => listeners.delete(l));
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function' || key === 'liveReplicas' || key === 'close') return typeof value === 'function' ? value.bind(target) : value;
      return (...args: unknown[]) => (health === 'down' ? Promise.reject(new Error('store unreachable')) : value.apply(target, args));
    },
  }) as StateStore & { cut(down: boolean): void };
}

let cluster: Replicas | undefined;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await cluster?.close();
  cluster = undefined;
});

async function connect(fetchFn: typeof fetch, url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: fetchFn });
  const client = new Client({ name: 'replica-test', version: '1.0.0' }, { capabilities: {} });
  clients.push(client);
  await client.connect(transport);
  return { client, transport };
}

const post = (fetchFn: typeof fetch, url: string, sessionId: string, body: object, extra: Record<string, string> = {}) =>
  fetchFn(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18', ...extra },
    body: JSON.stringify({ jsonrpc: '2.0', ...body }),
  });

describe('two replicas sharing a state store, round robin without affinity', () => {
  it('serve one session on both: lists, calls, log level, cursors, and its end', async () => {
    cluster = await startReplicas(yamlServers([fixtureServer('echo', 'echo', ['--tools', '5'])], { catalog: { pageSize: 2 } }));
    const [a, b] = cluster.replicas;
    const { client, transport } = await connect(cluster.fetch, cluster.url);
    const id = transport.sessionId!;
    // initialize went to A, notifications/initialized to B (adopted there): both hold it now.
    expect(a!.app.sessionCount + b!.app.sessionCount).toBeGreaterThanOrEqual(1);
    const calls = await Promise.all(Array.from({ length: 6 }, (_, i) => client.callTool({ name: 'echo__echo', arguments: { text: `call ${i}` } })));
    expect(calls.map((r) => (r.content as Array<{ text: string }>)[0]!.text)).toEqual(Array.from({ length: 6 }, (_, i) => `call ${i}`));
    expect(a!.app.sessionCount).toBe(1);
    expect(b!.app.sessionCount).toBe(1);

    // Paging: a cursor one replica issued is good at the other (round robin alternates them).
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(names.length).toBeGreaterThan(2);
    expect(new Set(names).size).toBe(names.length);

    // logging/setLevel on one replica holds on the other.
    await client.setLoggingLevel('warning');
    const sessions = cluster.replicas.map((r) => [...r.app.router.allSessions()].find((s) => s.id === id)!);
    await expect.poll(() => sessions.map((s) => s.logLevel)).toEqual(['warning', 'warning']);

    // DELETE on one ends it on both: the next request anywhere is 404.
    await transport.terminateSession();
    expect(a!.app.sessionCount + b!.app.sessionCount).toBe(0);
    for (let i = 0; i < 2; i++) expect((await post(cluster.to(i), cluster.url, id, { id: 9, method: 'ping' })).status).toBe(404);
  });

  it('another client’s session is 403 on a replica that does not hold it, and is not opened there', async () => {
    const tokens = { alice: 'alice-token-0123456789abcdef', bob: 'bob-token-0123456789abcdef' };
    cluster = await startReplicas(
      yamlServers([fixtureServer('echo', 'echo')], {
        clients: [
          { name: 'alice', token: tokens.alice },
          { name: 'bob', token: tokens.bob },
        ],
      }),
    );
    const transport = new StreamableHTTPClientTransport(new URL(cluster.url), { fetch: cluster.to(0), requestInit: { headers: { authorization: `Bearer ${tokens.alice}` } } });
    const client = new Client({ name: 'alice', version: '1.0.0' });
    clients.push(client);
    await client.connect(transport);
    const asBob = await cluster.to(1)(cluster.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.bob}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': transport.sessionId!,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(asBob.status).toBe(403);
    expect(cluster.replicas[1]!.app.sessionCount).toBe(0);
    // Alice's own request there is served (adopted).
    const asAlice = await post(cluster.to(1), cluster.url, transport.sessionId!, { id: 2, method: 'ping' }, { authorization: `Bearer ${tokens.alice}` });
    expect(asAlice.status).toBe(200);
    expect(cluster.replicas[1]!.app.sessionCount).toBe(1);
  });

  it('answer 404 for a session no replica knows', async () => {
    cluster = await startReplicas(yamlServers([fixtureServer('echo', 'echo')]));
    const res = await post(cluster.to(1), cluster.url, 'no-such-session', { id: 1, method: 'ping' });
    expect(res.status).toBe(404);
    expect(cluster.replicas[1]!.app.sessionCount).toBe(0);
  });
});

describe('messages across replicas', () => {
  const CONFIG = yamlServers([fixtureServer('i', 'interactive')]);
  /** Calls go to A; everything else (notifications, answers, the GET stream) to B. */
  const split =
    (c: Replicas): typeof fetch =>
    (input, init) =>
      (typeof init?.body === 'string' && init.body.includes('"tools/call"') ? c.to(0) : c.to(1))(input, init);

  it('an elicitation raised on A is answered through B', async () => {
    cluster = await startReplicas(CONFIG);
    const transport = new StreamableHTTPClientTransport(new URL(cluster.url), { fetch: split(cluster) });
    const client = new Client({ name: 'replica-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    clients.push(client);
    const asked: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { answer: 'from B' } };
    });
    await client.connect(transport);
    const result = await client.callTool({ name: 'i__ask_elicitation', arguments: { mode: 'form' } });
    expect(asked).toHaveLength(1);
    expect((result.content as Array<{ text: string }>)[0]!.text).toContain('from B');
  });

  it('a resource update from A’s upstream subscription reaches the GET stream held on B', async () => {
    cluster = await startReplicas(CONFIG);
    // Every POST to A (each replica runs its own server process: the one subscribed is bumped), the GET stream on B.
    const c = cluster;
    const transport = new StreamableHTTPClientTransport(new URL(cluster.url), { fetch: (input, init) => c.to(init?.method === 'POST' ? 0 : 1)(input, init) });
    const client = new Client({ name: 'replica-test', version: '1.0.0' }, { capabilities: {} });
    clients.push(client);
    const updated = new Promise<string>((resolve) => client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => resolve(n.params.uri)));
    await client.connect(transport);
    const uri = (await client.listResources()).resources.find((r) => r.uri.includes('counter'))!.uri;
    await client.subscribeResource({ uri });
    await client.callTool({ name: 'i__bump', arguments: {} });
    expect(await updated).toBe(uri);
  });
});

describe('limits across replicas', () => {
  it('limits.perPrincipal.sessions counts the principal’s sessions on every replica', async () => {
    cluster = await startReplicas(yamlServers([fixtureServer('i', 'interactive')], { limits: { perPrincipal: { sessions: 1 } } }));
    const { client } = await connect(cluster.to(0), cluster.url);
    // Busy on A: a call in flight, so it is not the idle session that could make room.
    const waiting = client.callTool({ name: 'i__wait_cancel', arguments: {} }).catch(() => undefined);
    await expect.poll(() => [...cluster!.replicas[0]!.app.router.allSessions()].some((s) => (s as { inFlightCount?: number }).inFlightCount === 1)).toBe(true);
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const refused = await cluster.to(1)(cluster.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(init) });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/across the replicas/);
    void waiting;
  });
});

describe('a replica draining', () => {
  it('answers /healthz 503 at once, finishes its calls, then hands its streams back: they resume on the other replica', async () => {
    cluster = await startReplicas(yamlServers([fixtureServer('i', 'interactive')]));
    const c = cluster;
    const [a, b] = c.replicas;
    // The GET stream on A until A drains; calls on B.
    let getTo = 0;
    const transport = new StreamableHTTPClientTransport(new URL(c.url), {
      fetch: (input, init) => c.to(init?.method === 'POST' ? 1 : getTo)(input, init),
      reconnectionOptions: { initialReconnectionDelay: 10, maxReconnectionDelay: 50, reconnectionDelayGrowFactor: 1, maxRetries: 5 },
    });
    const client = new Client({ name: 'replica-test', version: '1.0.0' }, { capabilities: {} });
    client.onerror = () => {};
    clients.push(client);
    const changes: string[] = [];
    let heard: () => void = () => {};
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changes.push('tools');
      heard();
    });
    await client.connect(transport);
    const health = (i: number) => fetch(new URL('/healthz', c.replicas[i]!.url));
    expect((await health(0)).status).toBe(200);
    // A holds the session once the GET stream reached it (every POST went to B).
    await expect.poll(() => a!.app.sessionCount).toBe(1);

    getTo = 1;
    const drained = a!.app.drain(5_000);
    const probe = await health(0).catch(() => undefined);
    // Either the probe hears "draining" or A no longer takes connections: both take it out of rotation.
    if (probe !== undefined) {
      expect(probe.status).toBe(503);
      expect(await probe.json()).toEqual({ status: 'draining', store: { kind: 'memory', health: 'up' } });
    }
    expect(await drained).toBe(true);
    // The client reconnects its GET stream to B: a push raised on B reaches it there.
    await expect.poll(() => b!.app.sessionCount).toBe(1);
    const pushed = new Promise<void>((resolve) => (heard = resolve));
    await client.callTool({ name: 'i__add_tool', arguments: { name: 'late' } });
    await pushed;
    expect(changes).toEqual(['tools']);
  });

  it('isolation: per-session: each replica that serves the session runs its own instance (docs/scale-out.md)', async () => {
    cluster = await startReplicas(yamlServers([fixtureServer('own', 'interactive', [], { isolation: 'per-session' })]));
    const { client: viaA } = await connect(cluster.to(0), cluster.url);
    // The same session, on replica A then twice on B: B's instance starts empty, A's keeps its count.
    const onA = await viaA.callTool({ name: 'own__bump', arguments: {} });
    const session = (viaA.transport as StreamableHTTPClientTransport).sessionId!;
    const callOnB = async () => {
      const res = await post(cluster!.to(1), cluster!.url, session, { id: 7, method: 'tools/call', params: { name: 'own__bump', arguments: {} } });
      const body = await res.text();
      return JSON.parse(
        body.startsWith('{')
          ? body
          : body
              .split('\n')
              .find((l) => l.startsWith('data: {'))!
              .slice(6),
      ).result.content[0].text;
    };
    expect((onA.content as Array<{ text: string }>)[0]!.text).toBe('1');
    expect(await callOnB()).toBe('1');
    expect(await callOnB()).toBe('2');
    expect(((await viaA.callTool({ name: 'own__bump', arguments: {} })).content as Array<{ text: string }>)[0]!.text).toBe('2');
  });
});

describe('the state store down', () => {
  it('refuses new sessions with 503 and Retry-After, never 404, while held sessions carry on; recovers by itself', async () => {
    const cut: ReturnType<typeof cuttable>[] = [];
    cluster = await startReplicas(yamlServers([fixtureServer('echo', 'echo')]), 2, (i, first) => {
      const s = cuttable(i === 0 ? first : new MemoryStore({ shareWith: first }));
      cut.push(s);
      return s;
    });
    // Held on A only: every request goes there.
    const { client, transport } = await connect(cluster.to(0), cluster.url);
    for (const s of cut) s.cut(true);
    const echoed = await client.callTool({ name: 'echo__echo', arguments: { text: 'still here' } });
    expect((echoed.content as Array<{ text: string }>)[0]!.text).toBe('still here');
    await client.setLoggingLevel('error');

    const init = { id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const refused = await cluster.to(0)(cluster.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', ...init }),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    // B cannot tell whether the session exists: 503, so the client retries instead of starting over.
    const elsewhere = await post(cluster.to(1), cluster.url, transport.sessionId!, { id: 2, method: 'ping' });
    expect(elsewhere.status).toBe(503);
    expect(elsewhere.headers.get('retry-after')).toBe('1');

    const metrics = async () => (await fetch(new URL('/metrics', cluster!.replicas[0]!.url))).text();
    expect(await metrics()).toMatch(/^switchboard_state_store_up\{kind="memory"\} 0$/m);

    for (const s of cut) s.cut(false);
    expect(await metrics()).toMatch(/^switchboard_state_store_up\{kind="memory"\} 1$/m);
    const { client: again } = await connect(cluster.to(1), cluster.url);
    expect((await again.listTools()).tools.map((t) => t.name)).toContain('echo__echo');
  });
});
