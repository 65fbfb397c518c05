// The gateway as a user runs it: the built CLI as a child process, fixture servers behind it,
// the official SDK client in front, over stdio and over Streamable HTTP. One shared suite runs
// against both inbound faces.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, connectHttpClient, descendantPids, connectStdioClient, fixtureServer, startGateway, stdioGatewayParams, yamlServers } from '../helpers/index.js';

afterAll(cleanup);

const config = yamlServers(
  [
    fixtureServer('alpha', 'paginated', ['--name', 'alpha', '--tools', '23', '--prompts', '4', '--resources', '6', '--templates', '1', '--page', '4']),
    // Same URI scheme and tool names as alpha: every name and URI collides.
    fixtureServer('beta', 'paginated', ['--name', 'beta', '--tools', '5', '--prompts', '2', '--resources', '3', '--templates', '1', '--instructions', 'Beta knows things.']),
    fixtureServer('guarded', 'echo', ['--tools', '4'], { tools: { allow: ['*'], deny: ['tool_1', 'add'] } }),
  ],
  { catalog: { pageSize: 10 } },
);

async function listAll(client: Client, method: 'listTools' | 'listPrompts' | 'listResources' | 'listResourceTemplates', key: string) {
  const items: any[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page: any = await (client as any)[method](cursor ? { cursor } : {});
    items.push(...page[key]);
    cursor = page.nextCursor;
    pages++;
  } while (cursor);
  return { items, pages };
}

const faces = {
  stdio: async () => connectStdioClient(stdioGatewayParams(config)),
  http: async () => {
    const gw = await startGateway(config);
    return connectHttpClient(gw.url);
  },
};

describe.each(Object.keys(faces) as (keyof typeof faces)[])('gateway over %s', (face) => {
  let client: Client;
  beforeAll(async () => {
    client = await faces[face]();
  });
  afterAll(async () => {
    await client?.close();
  });

  it('advertises what the merged servers offer and merges their instructions', () => {
    const caps = client.getServerCapabilities()!;
    expect(caps.tools).toBeDefined();
    expect(caps.prompts).toBeDefined();
    expect(caps.resources).toBeDefined();
    expect(caps.completions).toBeDefined();
    expect(client.getServerVersion()?.name).toBe('switchboard');
    expect(client.getInstructions()).toContain('Beta knows things.');
  });

  it('lists every tool of every server, namespaced, over several pages of our own', async () => {
    const { items, pages } = await listAll(client, 'listTools', 'tools');
    const names = items.map((t) => t.name);
    // 23 + 5 paginated tools, echo's echo + tool_0..3 (add and tool_1 denied).
    expect(names.length).toBe(23 + 5 + 4);
    expect(pages).toBe(Math.ceil(names.length / 10));
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('alpha__t_0');
    expect(names).toContain('beta__t_0');
    expect(names).toContain('guarded__echo');
    for (const n of names) expect(n).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
  });

  it('routes a call to the server that owns the tool, with its original name', async () => {
    const a = await client.callTool({ name: 'alpha__t_3', arguments: { x: 1 } });
    const b = await client.callTool({ name: 'beta__t_3', arguments: { x: 2 } });
    expect((a.content as any)[0].text).toBe('alpha:t_3:{"x":1}');
    expect((b.content as any)[0].text).toBe('beta:t_3:{"x":2}');
  });

  it('hides a denied tool at list time and at call time, exactly like an unknown one', async () => {
    const { items } = await listAll(client, 'listTools', 'tools');
    expect(items.map((t) => t.name)).not.toContain('guarded__add');
    const denied = await client.callTool({ name: 'guarded__add', arguments: { a: 1, b: 2 } }).catch((e) => e);
    const unknown = await client.callTool({ name: 'guarded__nope', arguments: {} }).catch((e) => e);
    expect(denied.code).toBe(-32602);
    expect(unknown.code).toBe(-32602);
    expect(denied.message.replace('guarded__add', 'X')).toBe(unknown.message.replace('guarded__nope', 'X'));
  });

  it('rejects a tampered cursor with -32602', async () => {
    const first = await client.listTools();
    const cursor = first.nextCursor!;
    const tampered = cursor.slice(0, -2) + (cursor.endsWith('AA') ? 'BB' : 'AA');
    await expect(client.listTools({ cursor: tampered })).rejects.toMatchObject({ code: -32602 });
    await expect(client.listPrompts({ cursor })).rejects.toMatchObject({ code: -32602 });
  });

  it('lists and gets prompts through their exposed names', async () => {
    const { items } = await listAll(client, 'listPrompts', 'prompts');
    expect(items.map((p) => p.name).sort()).toEqual(['alpha__p_0', 'alpha__p_1', 'alpha__p_2', 'alpha__p_3', 'beta__p_0', 'beta__p_1']);
    const got = await client.getPrompt({ name: 'beta__p_1', arguments: { topic: 'cats' } });
    expect(JSON.stringify(got.messages)).toContain('beta:p_1 about cats');
  });

  it('keeps colliding resource URIs apart, and every listed resource is readable', async () => {
    const { items } = await listAll(client, 'listResources', 'resources');
    expect(items.length).toBe(6 + 3);
    const uris = items.map((r) => r.uri);
    expect(new Set(uris).size).toBe(uris.length);
    for (const uri of uris) expect(() => new URL(uri)).not.toThrow();
    expect(uris).toContain('fixture://item/0');
    expect(uris).toContain('beta+fixture://item/0');
    for (const r of items) {
      const read = await client.readResource({ uri: r.uri });
      const text = (read.contents[0] as any).text as string;
      const owner = r.uri.startsWith('beta+') ? 'beta' : 'alpha';
      expect(text.startsWith(`${owner} item`)).toBe(true);
    }
  });

  it('reads template-expanded URIs from the right server, and says not found otherwise', async () => {
    const { items } = await listAll(client, 'listResourceTemplates', 'resourceTemplates');
    expect(items.map((t) => t.uriTemplate)).toEqual(['fixture://tpl/{id}', 'beta+fixture://tpl/{id}']);
    const a = await client.readResource({ uri: 'fixture://tpl/abc' });
    const b = await client.readResource({ uri: 'beta+fixture://tpl/xyz' });
    expect((a.contents[0] as any).text).toContain('alpha template');
    expect((b.contents[0] as any).text).toContain('beta template');
    await expect(client.readResource({ uri: 'nothing://here' })).rejects.toMatchObject({ code: -32002 });
  });

  it('completes prompt arguments on the owning server', async () => {
    const r = await client.complete({ ref: { type: 'ref/prompt', name: 'beta__p_0' }, argument: { name: 'topic', value: 'al' } });
    expect(r.completion.values.length).toBeGreaterThan(0);
    for (const v of r.completion.values) expect(v.startsWith('al')).toBe(true);
  });

  it('answers ping and refuses unknown methods with -32601', async () => {
    await expect(client.ping()).resolves.toBeDefined();
    await expect(client.request({ method: 'no/such' } as any, {} as any)).rejects.toMatchObject({ code: -32601 });
  });

  it('serves many concurrent calls, each answered by the right server', async () => {
    const calls = Array.from({ length: 40 }, (_, i) => {
      const server = i % 2 ? 'alpha' : 'beta';
      return client.callTool({ name: `${server}__t_${i % 5}`, arguments: { i } }).then((r) => [(r.content as any)[0].text, `${server}:t_${i % 5}:{"i":${i}}`]);
    });
    for (const [got, want] of await Promise.all(calls)) expect(got).toBe(want);
  });
});

describe('many clients at once over HTTP', () => {
  it('gives each of 20 concurrent sessions its own answers from one shared server connection', async () => {
    const gw = await startGateway(yamlServers([fixtureServer('echo', 'echo')]));
    const clients = await Promise.all(Array.from({ length: 20 }, () => connectHttpClient(gw.url)));
    const answers = await Promise.all(
      clients.flatMap((c, i) => [0, 1, 2].map((j) => c.callTool({ name: 'echo__echo', arguments: { text: `client ${i} call ${j}` } }).then((r) => (r.content as any)[0].text))),
    );
    expect(answers).toEqual(clients.flatMap((_, i) => [0, 1, 2].map((j) => `client ${i} call ${j}`)));
    await Promise.all(clients.map((c) => c.close()));
    // Still exactly one server process behind the gateway: the connection is shared.
    expect(descendantPids(gw.pid)).toHaveLength(1);
  });
});
