// Everything a server does besides answering, through the gateway, over stdio and HTTP:
// list_changed, progress, cancellation, logging, subscriptions, sampling, elicitation, tasks.
// The fixture (test/fixtures/servers/interactive.mjs) does each on demand, deterministically.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, connectHttpClient, connectStdioClient, fixtureServer, startGateway, stdioGatewayParams, stdioStderr, yamlServers, type ConnectOptions } from '../helpers/index.js';

afterAll(cleanup);

const config = yamlServers([fixtureServer('int', 'interactive')]);
const anyResult = z.object({}).passthrough();

/** Resolves with the next message of a kind the client receives. */
function next<T>(client: Client, schema: any): Promise<T> {
  return new Promise((resolve) => client.setNotificationHandler(schema, (n: any) => resolve(n)));
}

interface Face {
  connect(options?: ConnectOptions): Promise<Client>;
  /** Waits for a line the gateway logged (servers' stderr lands there). */
  stderr(re: RegExp): Promise<string>;
}

async function stdioFace(): Promise<Face> {
  let client: Client | undefined;
  return {
    async connect(options) {
      client = await connectStdioClient(stdioGatewayParams(config), options);
      return client;
    },
    stderr: (re) => stdioStderr(client!).waitForLine(re),
  };
}

async function httpFace(): Promise<Face> {
  const gw = await startGateway(config);
  return { connect: (options) => connectHttpClient(gw.url, options), stderr: (re) => gw.waitForStderr(re) };
}

const faces = { stdio: stdioFace, http: httpFace };

describe.each(Object.keys(faces) as (keyof typeof faces)[])('protocol through the gateway over %s', (name) => {
  let face: Face;
  let client: Client;
  let sampled: string[];
  beforeAll(async () => {
    face = await faces[name]();
    sampled = [];
    client = await face.connect({
      capabilities: { sampling: {}, elicitation: { form: {}, url: {} } },
      setup: (c) => {
        c.setRequestHandler(CreateMessageRequestSchema, async (req) => {
          sampled.push((req.params.messages[0]!.content as any).text);
          return { role: 'assistant', model: 'test', content: { type: 'text', text: 'pong' } };
        });
        c.setRequestHandler(ElicitRequestSchema, async (req) => ((req.params as any).mode === 'url' ? { action: 'accept' } : { action: 'accept', content: { name: 'Ada' } }));
      },
    });
  });
  afterAll(async () => {
    await client?.close();
  });

  it('refetches after a server list_changed and tells the client, for tools only', async () => {
    let promptsChanged = 0;
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => void promptsChanged++);
    const changed = next(client, ToolListChangedNotificationSchema);
    await client.callTool({ name: 'int__add_tool', arguments: { name: 'fresh' } });
    await changed;
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('int__fresh');
    expect((await client.callTool({ name: 'int__fresh', arguments: {} })).content).toEqual([{ type: 'text', text: 'called fresh' }]);
    const removed = next(client, ToolListChangedNotificationSchema);
    await client.callTool({ name: 'int__remove_tool', arguments: { name: 'fresh' } });
    await removed;
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('int__fresh');
    expect(promptsChanged).toBe(0);
  });

  it('relays progress with the client’s own token', async () => {
    const seen: any[] = [];
    const r = await client.callTool({ name: 'int__progress', arguments: { steps: 3 } }, undefined, { onprogress: (p) => void seen.push(p) });
    expect((r.content as any)[0].text).toBe('did 3 steps');
    expect(seen).toEqual([1, 2, 3].map((i) => ({ progress: i, total: 3, message: `step ${i}` })));
  });

  it('sends a client’s cancellation on to the server, under the server’s own request id', async () => {
    const ac = new AbortController();
    const call = client.callTool({ name: 'int__wait_cancel', arguments: {} }, undefined, { signal: ac.signal }).catch((e) => e);
    const waiting = await face.stderr(/waiting id=/);
    ac.abort();
    await call;
    const cancelled = await face.stderr(/cancelled id=/);
    expect(cancelled.match(/cancelled id=(\S+?)["\s]/)?.[1]).toBe(waiting.match(/waiting id=(\S+?)["\s]/)?.[1]);
  });

  it('passes logging/setLevel on and relays log messages with the server’s name, filtered by level', async () => {
    await client.setLoggingLevel('warning');
    await face.stderr(/level=warning/);
    const messages: any[] = [];
    const gotError = new Promise<void>((resolve) =>
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
        messages.push(n.params);
        if (n.params.level === 'error') resolve();
      }),
    );
    await client.callTool({ name: 'int__log', arguments: { level: 'info', message: 'too chatty' } });
    await client.callTool({ name: 'int__log', arguments: { level: 'error', message: 'it broke' } });
    await gotError;
    expect(messages).toEqual([{ level: 'error', logger: 'int/tool', data: 'it broke' }]);
  });

  it('routes resources/subscribe and delivers updates to the subscriber', async () => {
    await client.subscribeResource({ uri: 'mem://counter' });
    await face.stderr(/subscribed mem:\/\/counter/);
    const updated = next<any>(client, ResourceUpdatedNotificationSchema);
    await client.callTool({ name: 'int__bump', arguments: {} });
    expect((await updated).params.uri).toBe('mem://counter');
    await client.unsubscribeResource({ uri: 'mem://counter' });
    await face.stderr(/unsubscribed mem:\/\/counter/);
  });

  it('relays a server’s sampling request to the client that caused it', async () => {
    const r = await client.callTool({ name: 'int__ask_sampling', arguments: { prompt: 'ping?' } });
    expect((r.content as any)[0].text).toBe('sampled: pong');
    expect(sampled).toContain('ping?');
  });

  it('relays form and URL elicitations, and the URL elicitation’s completion', async () => {
    const form = await client.callTool({ name: 'int__ask_elicitation', arguments: { mode: 'form' } });
    expect((form.content as any)[0].text).toBe('elicited: {"action":"accept","content":{"name":"Ada"}}');
    const completed = new Promise<any>(
      (resolve) =>
        (client.fallbackNotificationHandler = async (n) => {
          if (n.method === 'notifications/elicitation/complete') resolve(n.params);
        }),
    );
    const url = await client.callTool({ name: 'int__ask_elicitation', arguments: { mode: 'url' } });
    expect((url.content as any)[0].text).toBe('elicited: {"action":"accept"}');
    expect(await completed).toEqual({ elicitationId: 'el-1' });
  });

  it('passes task-augmented calls and tasks/* through with task ids of its own', async () => {
    const created: any = await client.request({ method: 'tools/call', params: { name: 'int__slow_task', arguments: { ms: 30 }, task: { ttl: 60000 } } }, anyResult);
    const id = created.task.taskId;
    expect(id).toMatch(/^task-/);
    const result: any = await client.request({ method: 'tasks/result', params: { taskId: id } }, anyResult);
    expect(result.content[0].text).toMatch(/^task t\d+ done$/);
    expect(result._meta['io.modelcontextprotocol/related-task'].taskId).toBe(id);
    const got: any = await client.request({ method: 'tasks/get', params: { taskId: id } }, anyResult);
    expect(got).toMatchObject({ taskId: id, status: 'completed' });
    const list: any = await client.request({ method: 'tasks/list', params: {} }, anyResult);
    expect(list.tasks.map((t: any) => t.taskId)).toContain(id);
    await expect(client.request({ method: 'tasks/get', params: { taskId: 't1' } }, anyResult)).rejects.toMatchObject({ code: -32602 });
  });
});

describe('server requests across several HTTP sessions', () => {
  let url: string;
  let stderr: (re: RegExp) => Promise<string>;
  beforeAll(async () => {
    const gw = await startGateway(yamlServers([fixtureServer('int', 'interactive'), fixtureServer('own', 'interactive', ['--ask-roots-on-start'], { isolation: 'per-session' })]));
    url = gw.url;
    stderr = (re) => gw.waitForStderr(re);
  });

  it('gives a client without the capability a proper error, not another client’s prompt', async () => {
    const plain = await connectHttpClient(url);
    // The fixture lets the error of its sampling request fail the call: a JSON-RPC error.
    const err = await plain.callTool({ name: 'int__ask_sampling', arguments: {} }).catch((e) => e);
    expect(err.code).toBe(-32601);
    expect(err.message).toMatch(/did not declare the sampling capability/);
    await plain.close();
  });

  it('refuses to guess when two sessions are using a shared stdio server at once', async () => {
    const a = await connectHttpClient(url, { capabilities: { sampling: {} } });
    const b = await connectHttpClient(url, { capabilities: { sampling: {} } });
    let asked = 0;
    for (const c of [a, b]) c.setRequestHandler(CreateMessageRequestSchema, async () => (asked++, { role: 'assistant', model: 'm', content: { type: 'text', text: 'x' } }));
    const ac = new AbortController();
    const hold = a.callTool({ name: 'int__wait_cancel', arguments: {} }, undefined, { signal: ac.signal }).catch(() => undefined);
    await stderr(/waiting id=/);
    const r = await b.callTool({ name: 'int__ask_sampling', arguments: {} }).catch((e) => e);
    expect(r.message).toMatch(/cannot tell which client/);
    expect(asked).toBe(0);
    ac.abort();
    await hold;
    // The server has let go of the call only once it saw the cancellation.
    await stderr(/cancelled id=/);
    await Promise.all([a.close(), b.close()]);
  });

  it('gives each session its own connection under isolation: per-session, with that client’s roots', async () => {
    const roots = (uri: string) => ({
      capabilities: { roots: { listChanged: true } },
      setup: (c: Client) => c.setRequestHandler(z.object({ method: z.literal('roots/list') }).passthrough() as any, async () => ({ roots: [{ uri, name: 'r' }] })),
    });
    const a = await connectHttpClient(url, roots('file:///tmp/a'));
    const b = await connectHttpClient(url, roots('file:///tmp/b'));
    const ra = await a.callTool({ name: 'own__ask_roots', arguments: {} });
    const rb = await b.callTool({ name: 'own__ask_roots', arguments: {} });
    expect((ra.content as any)[0].text).toBe('[{"uri":"file:///tmp/a","name":"r"}]');
    expect((rb.content as any)[0].text).toBe('[{"uri":"file:///tmp/b","name":"r"}]');
    // (pino escapes the quotes of the logged line)
    await stderr(/roots=\[\\?"file:\/\/\/tmp\/a\\?"\]/);
    await stderr(/roots=\[\\?"file:\/\/\/tmp\/b\\?"\]/);
    await a.sendRootsListChanged();
    await stderr(/roots-changed/);
    await Promise.all([a.close(), b.close()]);
  });

  it('declares roots on a shared connection, and routes roots/list during a call to the client that made it', async () => {
    await stderr(/roots-declared=true/);
    const withRoots = await connectHttpClient(url, {
      capabilities: { roots: {} },
      setup: (c: Client) => c.setRequestHandler(z.object({ method: z.literal('roots/list') }).passthrough() as any, async () => ({ roots: [{ uri: 'file:///tmp/mine', name: 'm' }] })),
    });
    const r = await withRoots.callTool({ name: 'int__ask_roots', arguments: {} });
    expect((r.content as any)[0].text).toBe('[{"uri":"file:///tmp/mine","name":"m"}]');
    // A client without the capability gets the error an MCP client would give, not someone else's roots.
    const plain = await connectHttpClient(url);
    const err = await plain.callTool({ name: 'int__ask_roots', arguments: {} }).catch((e) => e);
    expect(err.message).toMatch(/did not declare the roots capability/);
    await Promise.all([withRoots.close(), plain.close()]);
  });

  it('subscribes a URI once on the server however many sessions hold it, and updates only them', async () => {
    const a = await connectHttpClient(url);
    const b = await connectHttpClient(url);
    const c = await connectHttpClient(url);
    let cUpdates = 0;
    c.setNotificationHandler(ResourceUpdatedNotificationSchema, () => void cUpdates++);
    await a.subscribeResource({ uri: 'mem://counter' });
    await b.subscribeResource({ uri: 'mem://counter' });
    const ua = next<any>(a, ResourceUpdatedNotificationSchema);
    const ub = next<any>(b, ResourceUpdatedNotificationSchema);
    await c.callTool({ name: 'int__bump', arguments: {} });
    await Promise.all([ua, ub]);
    await a.unsubscribeResource({ uri: 'mem://counter' });
    await b.unsubscribeResource({ uri: 'mem://counter' });
    await stderr(/unsubscribed mem:\/\/counter/);
    expect(cUpdates).toBe(0);
    await Promise.all([a.close(), b.close(), c.close()]);
  });
});

describe('a server that asks for roots as it starts, before any client is connected', () => {
  it('is answered with no roots (not an error it would print as a failure), and the gateway does not warn', async () => {
    const gw = await startGateway(yamlServers([fixtureServer('int', 'interactive', ['--ask-roots-on-start'])]));
    // The fixture logs the roots its roots/list got; the gateway relays its stderr.
    await gw.waitForStderr(/roots=\[\]/);
    expect(gw.stderrLines.filter((l) => /"level":(40|50)/.test(l))).toEqual([]);
    await gw.stop();
  });

  it('is answered with the configured roots', async () => {
    const gw = await startGateway(yamlServers([fixtureServer('int', 'interactive', ['--ask-roots-on-start'])], { roots: ['file:///srv/shared'] }));
    await gw.waitForStderr(/roots=\[\\?"file:\/\/\/srv\/shared\\?"\]/);
    await gw.stop();
  });
});
