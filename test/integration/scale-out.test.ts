// Issue 32, tested for real: Debian's redis-server, three gateway replicas sharing it
// (state.redis, one listen.stateKey), and deploy/nginx.conf as shipped (round robin, no affinity)
// in front. SDK v1 and v2 clients of the 2025 era list, call, get progress, subscribe and are
// told of updates, answer an elicitation on another replica than the one that asked; then the
// replica holding a call's stream is killed with SIGKILL mid-call (the session lives on, the
// stream resumes elsewhere with no event lost or doubled, the call fails once, and the replica
// started again serves the session), a replica drained with SIGTERM finishes its call before it
// exits, and Redis is stopped and restarted (held sessions keep working, a new session gets 503 +
// Retry-After meanwhile, and it all recovers by itself).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type HttpGateway, cleanup, descendantPids, fixtureServer, startGateway, trackClosable, trackPid, waitFor, yamlServers } from '../helpers/index.js';
import { NGINX, type Nginx, startNginx } from '../helpers/nginx.js';
import { connectStatelessHttp } from '../helpers/stateless-client.js';
import { type RedisServer as TestRedis, startRedis } from '../helpers/redis-server.js';

afterAll(cleanup);

const STATE_KEY = 'one state key for the three replicas, 32+ characters';
const texts = (r: unknown) => ((r as { content: Array<{ text: string }> }).content ?? []).map((c) => c.text).join('');

let redis: TestRedis;
let replicas: HttpGateway[];
let nginx: Nginx;
let mcp: string;
let config: string;

/** A replica gone (killed, drained) started again on its port, as a pod comes back behind its Service. */
async function restartReplica(gone: HttpGateway): Promise<void> {
  const fresh = await startGateway(config, { args: ['--http', `127.0.0.1:${new URL(gone.url).port}`] });
  replicas[replicas.indexOf(gone)] = fresh;
}

/**
 * Every SSE event id a client read, on every stream (GET, POST, resumed), and the GETs it sent with
 * Last-Event-ID: an event replayed twice shows up as an id seen twice, whatever the SDK makes of it.
 */
function recordingFetch() {
  const ids: string[] = [];
  const resumedFrom: string[] = [];
  const record = async (body: ReadableStream<Uint8Array>) => {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) if (line.startsWith('id:')) ids.push(line.slice(3).trim());
      }
    } catch {
      // the stream broke (a replica killed): what was read is recorded
    }
  };
  const fetchFn: typeof fetch = async (input, init) => {
    const resumeFrom = new Headers(init?.headers).get('last-event-id');
    if (init?.method === 'GET' && resumeFrom !== null) resumedFrom.push(resumeFrom);
    const res = await fetch(input, init);
    if (!res.body || !res.headers.get('content-type')?.startsWith('text/event-stream')) return res;
    const [mine, theirs] = res.body.tee();
    void record(mine);
    return new Response(theirs, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  const duplicates = () => ids.filter((id, i) => ids.indexOf(id) !== i);
  return { fetchFn, ids, resumedFrom, duplicates };
}

/** A v1 client through nginx; `updates` records the resource updates that reached it, `errors` what its transport reported. */
async function v1Client() {
  const updates: string[] = [];
  const errors: string[] = [];
  const wire = recordingFetch();
  const client = trackClosable(new Client({ name: 'scale-out-v1', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } }));
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Ada' } }));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => void updates.push(n.params.uri));
  // Reconnect at once: the test waits for the resumption, not for a back-off.
  const transport = new StreamableHTTPClientTransport(new URL(mcp), {
    fetch: wire.fetchFn,
    reconnectionOptions: { initialReconnectionDelay: 50, maxReconnectionDelay: 500, reconnectionDelayGrowFactor: 2, maxRetries: 10 },
  });
  client.onerror = (e) => void errors.push(e.message);
  await client.connect(transport);
  return { client, updates, errors, wire };
}

/** Which of `among` logs a line matching `re` from now on (lines already there do not count). */
function nextToLog(among: HttpGateway[], re: RegExp, what: string): Promise<HttpGateway> {
  const from = among.map((r) => r.stderrLines.length);
  let found: HttpGateway | undefined;
  return waitFor(
    () => {
      found = among.find((r, i) => r.stderrLines.slice(from[i]).some((line) => re.test(line)));
      return found !== undefined;
    },
    { timeout: 20_000, message: what },
  ).then(() => found!);
}

const isAlive = (r: HttpGateway) => r.proc.exitCode === null && r.proc.signalCode === null;

/** The value of switchboard_state_store_up on one replica, asked directly (not through nginx). */
async function storeUp(replica: HttpGateway): Promise<number | undefined> {
  const text = await (await fetch(new URL('/metrics', replica.url))).text();
  const m = /^switchboard_state_store_up(?:\{[^}]*\})? (\d)/m.exec(text);
  return m ? Number(m[1]) : undefined;
}

const initialize = (id: number) =>
  fetch(mcp, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
  });

// Without nginx it is skipped, as the stateless round-robin test is; without redis-server it fails, saying so.
describe.skipIf(NGINX === undefined)('three replicas on Redis behind nginx round robin (skipped: no nginx; .ci/run installs it)', () => {
  beforeAll(async () => {
    redis = await startRedis();
    config = yamlServers([fixtureServer('live', 'interactive', ['--name', 'live'])], { listen: { stateKey: STATE_KEY }, state: { redis: redis.url } });
    replicas = await Promise.all([0, 1, 2].map(() => startGateway(config)));
    nginx = await startNginx(
      'deploy/nginx.conf',
      replicas.map((r) => Number(new URL(r.url).port)),
    );
    mcp = `${nginx.base}/mcp`;
  }, 60_000);

  // Every test starts with three replicas: one a test before it killed or drained (or failed to
  // bring back) is started again on its port.
  beforeEach(async () => {
    for (const gone of replicas.filter((r) => !isAlive(r))) await restartReplica(gone);
  }, 30_000);

  it('serve one SDK v1 session from every replica: lists, calls with progress, updates, elicitation', async () => {
    const { client, updates, wire } = await v1Client();
    // Three lists in a row: round robin sends one to each replica, two of which never saw initialize.
    for (let i = 0; i < 3; i++) expect((await client.listTools()).tools.map((t) => t.name)).toContain('live__progress');
    const progress: number[] = [];
    const done = await client.callTool({ name: 'live__progress', arguments: { steps: 3 } }, undefined, { onprogress: (p) => void progress.push(p.progress) });
    expect(texts(done)).toBe('did 3 steps');
    expect(progress).toEqual([1, 2, 3]);

    // The subscription is taken upstream by the replica that took resources/subscribe; three bumps
    // in a row reach every replica's server once, so one of them is on that replica's, and its
    // update must reach the client's GET stream, wherever that stream is.
    await client.subscribeResource({ uri: 'mem://counter' });
    for (let i = 0; i < 3; i++) await client.callTool({ name: 'live__bump', arguments: {} });
    await waitFor(() => updates.length >= 1, { timeout: 10_000, message: 'resources/updated reached the client' });
    expect(new Set(updates)).toEqual(new Set(['mem://counter']));

    // The server asks on the replica serving the call; the client's answer is the next request,
    // which round robin sends to another replica.
    const elicited = await client.callTool({ name: 'live__ask_elicitation', arguments: { mode: 'form' } }, undefined, { timeout: 15_000 });
    expect(texts(elicited)).toBe(`elicited: ${JSON.stringify({ action: 'accept', content: { name: 'Ada' } })}`);

    const served = nginx.accessLog();
    expect(new Set(served.map((line) => line.split(' ').at(-1)))).toEqual(new Set(replicas.map((r) => `127.0.0.1:${new URL(r.url).port}`)));
    expect(served.filter((line) => / (404|5\d\d) /.test(line))).toEqual([]);
    expect(wire.duplicates()).toEqual([]);
  });

  it('serve one SDK v2 session (2025 handshake) from every replica: lists, calls with progress, elicitation', async () => {
    const { client, asked } = await connectStatelessHttp(mcp, { mode: 'legacy', capabilities: { elicitation: {} } });
    expect(client.getNegotiatedProtocolVersion()).toMatch(/^2025-/);
    for (let i = 0; i < 3; i++) expect((await client.listTools()).tools.map((t) => t.name)).toContain('live__progress');
    const progress: number[] = [];
    const done = await client.callTool({ name: 'live__progress', arguments: { steps: 4 } }, { onprogress: (p) => void progress.push(p.progress) });
    expect(texts(done)).toBe('did 4 steps');
    expect(progress).toEqual([1, 2, 3, 4]);
    const elicited = await client.callTool({ name: 'live__ask_elicitation', arguments: { mode: 'form' } }, { timeout: 15_000 });
    expect(texts(elicited)).toMatch(/^elicited: \{"action":"accept"/);
    expect(asked.map((a) => a.method)).toEqual(['elicitation/create']);
  });

  it('lose only the call in flight when the replica holding its stream is killed: reported once, no event lost or doubled', async () => {
    const { client, errors, wire } = await v1Client();
    for (let i = 0; i < 3; i++) await client.listTools(); // every replica has served the session
    const progress: number[] = [];
    const outcome = client.callTool({ name: 'live__progress', arguments: { steps: 3, hold: true } }, undefined, { onprogress: (p) => void progress.push(p.progress), timeout: 20_000 }).then(
      (r) => ({ answered: texts(r) }),
      (e: { code?: number; message: string }) => ({ code: e.code, message: e.message }),
    );
    // The replica whose server logs "waiting" holds the call and its stream.
    const victim = await nextToLog(replicas, /waiting id=/, 'the call reached a server');
    await waitFor(() => progress.length === 3, { timeout: 10_000, message: 'the three progress notifications before the kill' });
    for (const pid of descendantPids(victim.pid)) trackPid(pid);
    process.kill(victim.pid, 'SIGKILL');
    await victim.exited;

    const result = await outcome;
    // The gateway's error for a call whose replica stopped (-32603), not the SDK's timeout (-32001).
    expect(result).toMatchObject({ code: -32603 });
    // Replayed events would show up as progress again, a second answer as an unknown id.
    expect(progress).toEqual([1, 2, 3]);
    expect(errors.filter((e) => /unknown message ID/i.test(e))).toEqual([]);
    // It came by resumption: a GET with the Last-Event-ID of the call's stream, which no event repeated.
    expect(wire.resumedFrom.length).toBeGreaterThan(0);
    expect(wire.duplicates()).toEqual([]);
    // The session is not lost: the other replicas serve it.
    for (let i = 0; i < 3; i++) expect((await client.listTools()).tools.map((t) => t.name)).toContain('live__progress');
    const again = await client.callTool({ name: 'live__progress', arguments: { steps: 2 } });
    expect(texts(again)).toBe('did 2 steps');
    // Back on its port, empty, it takes the session up from Redis like any other replica.
    await restartReplica(victim);
    for (let i = 0; i < 3; i++) expect((await client.listTools()).tools.map((t) => t.name)).toContain('live__progress');
  }, 60_000);

  it('let a draining replica (SIGTERM) finish its call, then serve the session elsewhere', async () => {
    const { client, errors, wire } = await v1Client();
    for (let i = 0; i < 3; i++) await client.listTools();
    const progress: number[] = [];
    const call = client.callTool({ name: 'live__progress', arguments: { steps: 2, hold: 1500 } }, undefined, { onprogress: (p) => void progress.push(p.progress), timeout: 20_000 });
    const draining = await nextToLog(replicas, /waiting id=/, 'the call reached a server');
    draining.proc.kill('SIGTERM');
    // Answered where it runs, within limits.shutdownGrace, once; the replica then exits cleanly.
    expect(texts(await call)).toBe('did 2 steps');
    expect(progress).toEqual([1, 2]);
    expect(await draining.exited).toEqual({ code: 0, signal: null });
    // Requests after it reach the replicas left (nginx skips the one that no longer listens).
    for (let i = 0; i < 3; i++) expect((await client.listTools()).tools.map((t) => t.name)).toContain('live__progress');
    expect(wire.duplicates()).toEqual([]);
    expect(errors.filter((e) => /unknown message ID/i.test(e))).toEqual([]);
  }, 60_000);

  it('keep held sessions working while Redis is down, refuse new ones with 503 + Retry-After, and recover by themselves', async () => {
    const alive = [...replicas]; // all three, by beforeEach
    const { client } = await v1Client();
    for (let i = 0; i < 3; i++) await client.listTools(); // held by every live replica

    await redis.stop();
    try {
      await waitFor(async () => (await Promise.all(alive.map(storeUp))).every((up) => up === 0), { timeout: 20_000, message: 'every replica reports the store down' });
      for (let i = 0; i < 3; i++) expect((await client.listTools()).tools.map((t) => t.name)).toContain('live__progress');
      expect(texts(await client.callTool({ name: 'live__progress', arguments: { steps: 1 } }))).toBe('did 1 steps');
      const refused = await initialize(1);
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      await refused.body?.cancel();
    } finally {
      // Whatever failed above, the tests after this one get their Redis back.
      await redis.restart();
    }
    await waitFor(async () => (await Promise.all(alive.map(storeUp))).every((up) => up === 1), { timeout: 20_000, message: 'every replica reports the store up again' });
    const fresh = await v1Client();
    for (let i = 0; i < 3; i++) expect((await fresh.client.listTools()).tools.map((t) => t.name)).toContain('live__progress');
    expect(texts(await client.callTool({ name: 'live__progress', arguments: { steps: 1 } }))).toBe('did 1 steps');
  }, 60_000);
});
