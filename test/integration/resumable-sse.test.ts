// Resumable SSE through the state store, with the official SDK v1 client as the peer: a POST
// stream cut right after its priming event is resumed with GET + Last-Event-ID (on the same
// replica, or on another one) and delivers every progress notification and the response exactly
// once; a stream whose serving replica died gets one error; a Last-Event-ID of another session
// replays nothing of it; an answer too large to keep (state.maxEventBytes) is replayed as one
// ANSWER_NOT_KEPT error, while a small one is replayed intact.
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServer, yamlServers } from '../helpers/index.js';
import { startReplicas, type Replicas } from '../helpers/replicas.js';
import { cutting } from '../helpers/cut-stream.js';

let cluster: Replicas | undefined;
const clients: Client[] = [];
const v2clients: V2Client[] = [];
afterEach(async () => {
  await Promise.allSettled([...clients.splice(0), ...v2clients.splice(0)].map((c) => c.close()));
  await cluster?.close();
  cluster = undefined;
});

const CONFIG = yamlServers([fixtureServer('i', 'interactive')]);

async function connect(fetchFn: typeof fetch, url: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: fetchFn,
    reconnectionOptions: { initialReconnectionDelay: 10, maxReconnectionDelay: 50, reconnectionDelayGrowFactor: 1, maxRetries: 3 },
  });
  const client = new Client({ name: 'resume-test', version: '1.0.0' }, { capabilities: {} });
  client.onerror = () => {};
  clients.push(client);
  await client.connect(transport);
  return client;
}

async function progressCall(client: Client, steps: number): Promise<{ text: string; progress: number[] }> {
  const progress: number[] = [];
  const result = await client.callTool({ name: 'i__progress', arguments: { steps, text: 'all done' } }, undefined, {
    onprogress: (p) => progress.push(p.progress),
    timeout: 20_000,
  });
  return { text: (result.content as Array<{ text: string }>)[0]!.text, progress };
}

describe('resumable SSE streams', () => {
  it('one process: a POST stream cut after its priming event resumes with the missed progress and the response, once', async () => {
    cluster = await startReplicas(CONFIG, 1);
    const cut = cutting(() => cluster!.to(0));
    const client = await connect(cut.fetch, cluster.url);
    const { text, progress } = await progressCall(client, 4);
    expect(cut.state.primed).not.toBe('');
    expect(cut.state.resumedWith).toEqual([cut.state.primed]);
    expect(text).toBe('all done');
    expect(progress).toEqual([1, 2, 3, 4]);
    // A stream nobody cuts ends with its response, on the stream itself.
    expect(await progressCall(client, 2)).toEqual({ text: 'all done', progress: [1, 2] });
    expect(cut.state.resumedWith).toHaveLength(1);
  });

  it('two replicas: the stream served on A is resumed on B', async () => {
    cluster = await startReplicas(CONFIG, 2);
    // POSTs to A, GETs (the GET stream, the resumption) to B.
    const cut = cutting((method) => cluster!.to(method === 'POST' ? 0 : 1));
    const client = await connect(cut.fetch, cluster.url);
    const { text, progress } = await progressCall(client, 4);
    expect(cut.state.resumedWith).toEqual([cut.state.primed]);
    expect(text).toBe('all done');
    expect(progress).toEqual([1, 2, 3, 4]);
    expect(cluster.replicas[1]!.app.sessionCount).toBe(1);
  });

  it('SDK v2 (stateful handshake): the stream served on A is resumed on B', async () => {
    cluster = await startReplicas(CONFIG, 2);
    const cut = cutting((method) => cluster!.to(method === 'POST' ? 0 : 1));
    const transport = new V2Transport(new URL(cluster.url), {
      fetch: cut.fetch,
      reconnectionOptions: { initialReconnectionDelay: 10, maxReconnectionDelay: 50, reconnectionDelayGrowFactor: 1, maxRetries: 3 },
    });
    const client = new V2Client({ name: 'resume-test-v2', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'legacy' } });
    client.onerror = () => {};
    v2clients.push(client);
    await client.connect(transport);
    const progress: number[] = [];
    const result = await client.callTool({ name: 'i__progress', arguments: { steps: 4, text: 'all done' } }, { onprogress: (p) => progress.push(p.progress), timeout: 20_000 });
    expect(cut.state.resumedWith).toEqual([cut.state.primed]);
    expect((result.content as Array<{ text: string }>)[0]!.text).toBe('all done');
    expect(progress).toEqual([1, 2, 3, 4]);
  });

  it('the replica serving a call dies: the resumed stream ends with one error for it', async () => {
    cluster = await startReplicas(CONFIG, 2);
    const [a] = cluster.replicas;
    let killed: Promise<void> | undefined;
    // A dies before the client comes back; the resumption goes to B.
    const kill = () => (killed ??= a!.store.close().then(() => a!.app.close()));
    const cut = cutting((method) => cluster!.to(method === 'POST' ? 0 : 1), kill);
    const client = await connect(cut.fetch, cluster.url);
    const call = client.callTool({ name: 'i__progress', arguments: { steps: 50 } }, undefined, { onprogress: () => {}, timeout: 20_000 });
    await expect(call).rejects.toThrow(/replica serving this request stopped/);
    expect(cut.state.resumedWith).toEqual([cut.state.primed]);
  });

  it('an answer over state.maxEventBytes goes out in full live; resumed, it is one ANSWER_NOT_KEPT error, and a small answer is replayed intact', async () => {
    cluster = await startReplicas(CONFIG, 2);
    const big = 'x'.repeat(100_000);
    // The resumption's body, read to its end (the stream ends with the response it replays).
    const resumed: Promise<string>[] = [];
    const capture =
      (inner: typeof fetch): typeof fetch =>
      async (input, init) => {
        const res = await inner(input, init);
        if (new Headers(init?.headers).get('last-event-id') !== null) resumed.push(res.clone().text());
        return res;
      };
    // The client comes back only once the answer was stored (a resumption open before it would get
    // it live, in full): it is replayed from the store.
    let answered!: () => void;
    const stored = new Promise<void>((resolve) => (answered = resolve));
    const cut = cutting(
      (method) => cluster!.to(method === 'POST' ? 0 : 1),
      () => stored,
    );
    const client = await connect(capture(cut.fetch), cluster.url);
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const stop = await cluster.replicas[1]!.store.subscribe(sessionId, (m) => {
      if (m.kind === 'event' && m.event.data.length > 100_000) answered();
    });
    const progress: number[] = [];
    const call = client.callTool({ name: 'i__progress', arguments: { steps: 3, text: big } }, undefined, { onprogress: (p) => progress.push(p.progress), timeout: 20_000 });
    await expect(call).rejects.toThrow(/the answer \(\d+ bytes\) was sent once on the original stream and was too large to keep/);
    expect(cut.state.resumedWith).toEqual([cut.state.primed]);
    expect(progress).toEqual([1, 2, 3]);
    const body = await resumed[0]!;
    expect(body.match(/ANSWER_NOT_KEPT/g)).toHaveLength(1);
    expect(body.includes(big)).toBe(false);
    stop();
    // Not cut, the same answer arrives whole: only what is kept for resumption is bounded.
    expect(await progressCall(client, 2).then(() => 'small ok')).toBe('small ok');
    const whole = await client.callTool({ name: 'i__progress', arguments: { steps: 1, text: big } }, undefined, { onprogress: () => {}, timeout: 20_000 });
    expect((whole.content as Array<{ text: string }>)[0]!.text === big).toBe(true);
    // Another client's small answer, cut and resumed, is replayed as it was.
    const small = cutting((method) => cluster!.to(method === 'POST' ? 1 : 0));
    const other = await connect(small.fetch, cluster.url);
    expect(await progressCall(other, 3)).toEqual({ text: 'all done', progress: [1, 2, 3] });
    expect(small.state.resumedWith).toEqual([small.state.primed]);
  });

  it('a client resuming after the response it already has gets a stream that ends, not one held open', async () => {
    cluster = await startReplicas(CONFIG, 2);
    const client = await connect(cluster.fetch, cluster.url);
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    const call = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'i__progress', arguments: { steps: 1, text: 'all done' }, _meta: { progressToken: 't' } } };
    const body = await (await cluster.to(0)(cluster.url, { method: 'POST', headers, body: JSON.stringify(call) })).text();
    const ids = [...body.matchAll(/^id: (.+)$/gm)].map((m) => m[1]!);
    expect(body).toContain('all done');
    // Resumed on the other replica after its last event (the response): nothing to replay, and it ends.
    const again = await cluster.to(1)(cluster.url, { headers: { ...headers, 'last-event-id': ids.at(-1)! } });
    expect(again.status).toBe(200);
    expect(await again.text()).not.toContain('all done');
  });

  it('Last-Event-ID of another session replays nothing of it', async () => {
    cluster = await startReplicas(CONFIG, 1);
    const cut = cutting(() => cluster!.to(0));
    const victim = await connect(cut.fetch, cluster.url);
    await progressCall(victim, 2);
    const stolen = cut.state.primed;
    const other = new StreamableHTTPClientTransport(new URL(cluster.url));
    const attacker = new Client({ name: 'attacker', version: '1.0.0' });
    clients.push(attacker);
    await attacker.connect(other);
    const text = await new Promise<string>((resolve, reject) => {
      const req = http.request(cluster!.url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': other.sessionId!, 'last-event-id': stolen } }, (res) => {
        let body = '';
        let poked = false;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
          // Once the stream is up, a push to every session: anything replayed was written before it.
          if (!poked && body.includes('stream open')) {
            poked = true;
            void victim.callTool({ name: 'i__add_tool', arguments: { name: 'fresh' } });
          }
          if (body.includes('list_changed')) req.destroy(), resolve(body);
        });
      });
      req.on('error', reject);
      req.end();
    });
    expect(text).not.toContain('all done');
    expect(text).not.toContain('progress');
  });
});
