// Search mode through the gateway, with the official SDK client over both faces: auto switches
// at the token budget and back (with list_changed), search_tools respects profiles, pins and
// MCP Apps visibility, call_tool behaves as tools/call does, and gateway tool names never
// collide with a server's. The server directory: in search_tools' description (or behind
// list_servers past its budget), per profile; `server` restricts a search, results name their
// server, a search that finds nothing answers the directory; for clients of both eras (the
// 2026-07-28 one's calls take the stateless path), and from the shell (`switchboard search`).

import { mkdtempSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, connectHttpClient, connectStdioClient, fixtureServer, runCli, startGateway, stdioGatewayParams, stdioStderr, yamlServers } from '../helpers/index.js';
import { connectStatelessHttp, connectStatelessStdio } from '../helpers/stateless-client.js';
import { statelessServerCommand } from '../helpers/stateless-fixture.js';

type Face = 'http' | 'stdio';

/** The client is an MCP Apps host: app-only tools are listed only to clients that render apps. */
const APP_HOST = { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } as any };

/** A client of a gateway on `yaml`, over one face; stdio serves `stdioClient`'s profile. */
async function connect(face: Face, yaml: string, token?: string): Promise<{ client: Client; stderr: (re: RegExp) => Promise<string> }> {
  if (face === 'http') {
    const gw = await startGateway(yaml);
    const client = await connectHttpClient(gw.url, token ? { ...APP_HOST, headers: { Authorization: `Bearer ${token}` } } : APP_HOST);
    return { client, stderr: (re) => gw.waitForStderr(re) };
  }
  const client = await connectStdioClient(stdioGatewayParams(yaml), APP_HOST);
  return { client, stderr: (re) => stdioStderr(client).waitForLine(re) };
}

const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name).sort();
const text = (r: any) => r.content?.[0]?.text as string;

afterAll(cleanup);

describe.each<Face>(['http', 'stdio'])('search mode over %s', (face) => {
  it('auto lists every tool within the token budget, switches to search beyond it and back, with list_changed', async () => {
    const yaml = yamlServers([fixtureServer('cat', 'catalog', ['--tools', '3'])], { catalog: { mode: 'auto', tokenBudget: 1500 } });
    const { client } = await connect(face, yaml);
    expect(await names(client)).toContain('cat__count_0');
    let changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, async () => resolve()));
    await client.callTool({ name: 'cat__grow', arguments: { by: 40 } });
    await changed;
    // Search mode: the two gateway tools, and the tool an app needs (it is not for the model).
    expect(await names(client)).toEqual(['call_tool', 'cat__app_refresh', 'search_tools']);
    changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, async () => resolve()));
    await client.callTool({ name: 'cat__shrink', arguments: { by: 40 } });
    await changed;
    expect(await names(client)).toContain('cat__count_2');
    await client.close();
  });

  it('search_tools offers only what the profile sees, never an app-only tool, with full definitions', async () => {
    const yaml = yamlServers([fixtureServer('cat', 'catalog'), fixtureServer('other', 'catalog', ['--tools', '1'])], {
      clients: [{ name: 'small', token: 'small-token', tools: { deny: ['other__*'] }, catalog: { mode: 'search' } }],
      stdio: { client: 'small' },
    });
    const { client } = await connect(face, yaml, 'small-token');
    expect(await names(client)).toEqual(['call_tool', 'cat__app_refresh', 'search_tools']);
    const r: any = await client.callTool({ name: 'search_tools', arguments: { query: 'will it rain in Paris this week', limit: 10 } });
    const found = r.structuredContent.tools.map((t: any) => t.name);
    expect(found[0]).toBe('cat__weather_forecast');
    expect(found).not.toContain('other__weather_forecast');
    expect(found).not.toContain('cat__app_refresh');
    expect(r.structuredContent.tools[0].inputSchema.properties.city).toBeDefined();
    expect(text(r)).toMatch(/cat__weather_forecast/);
    // What search_tools found is callable through call_tool, and directly.
    expect(text(await client.callTool({ name: 'call_tool', arguments: { name: 'cat__weather_forecast', arguments: { city: 'Paris' } } }))).toBe('sunny in Paris');
    expect(text(await client.callTool({ name: 'cat__weather_forecast', arguments: { city: 'Lyon' } }))).toBe('sunny in Lyon');
    // A denied tool stays unknown, by either path.
    const direct = await client.callTool({ name: 'other__weather_forecast', arguments: {} }).catch((e) => e);
    const viaCall = await client.callTool({ name: 'call_tool', arguments: { name: 'other__weather_forecast' } }).catch((e) => e);
    expect(viaCall.code).toBe(direct.code);
    expect(viaCall.message).toBe(direct.message);
    await client.close();
  });

  it('search_tools never offers a tool pinning holds back', async () => {
    // The lock pins cat's weather_forecast to another definition: it is held back (a rug pull).
    const dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-lock-'));
    const lockFile = path.join(dir, 'held.lock');
    const pinned = { weather_forecast: `sha256:${'0'.repeat(64)}` };
    writeFileSync(lockFile, JSON.stringify({ version: 1, generated: new Date().toISOString(), servers: { cat: { tools: pinned } } }));
    const yaml = yamlServers([fixtureServer('cat', 'catalog'), fixtureServer('other', 'catalog', ['--tools', '1'])], {
      catalog: { mode: 'search' },
      pinning: { lockFile },
    });
    const { client } = await connect(face, yaml);
    const r: any = await client.callTool({ name: 'search_tools', arguments: { query: 'weather forecast', limit: 20 } });
    const found: string[] = r.structuredContent.tools.map((t: any) => t.name);
    expect(found).toContain('other__weather_forecast');
    expect(found).not.toContain('cat__weather_forecast');
    await client.close();
  });

  it('call_tool is tools/call: the same errors, progress with the client’s token, cancellation reaching the server', async () => {
    const yaml = yamlServers([fixtureServer('cat', 'catalog')], { catalog: { mode: 'search' } });
    const { client, stderr } = await connect(face, yaml);
    const direct = await client.callTool({ name: 'nope', arguments: {} }).catch((e) => e);
    const viaCall = await client.callTool({ name: 'call_tool', arguments: { name: 'nope' } }).catch((e) => e);
    expect(viaCall.code).toBe(-32602);
    expect([viaCall.code, viaCall.message]).toEqual([direct.code, direct.message]);
    const progress: number[] = [];
    const done = await client.callTool({ name: 'call_tool', arguments: { name: 'cat__slow', arguments: { ms: 300 } } }, undefined, { onprogress: (p) => progress.push(p.progress) });
    expect(text(done)).toBe('slow done');
    expect(progress.length).toBeGreaterThan(1);
    const ac = new AbortController();
    const cancelled = client
      .callTool({ name: 'call_tool', arguments: { name: 'cat__slow', arguments: { ms: 60_000 } } }, undefined, { signal: ac.signal, onprogress: () => ac.abort() })
      .catch((e) => e);
    await cancelled;
    await stderr(/cancelled id=/);
    // A bad argument to the gateway tool itself is a tool error, as the spec asks of input validation.
    const bad: any = await client.callTool({ name: 'search_tools', arguments: { query: '' } });
    expect(bad.isError).toBe(true);
    await client.close();
  });

  it('a server tool named like a gateway tool is renamed; the gateway tool keeps its name', async () => {
    const yaml = yamlServers([fixtureServer('cat', 'catalog', ['--name-clash', 'search_tools'], { prefix: '' })], { catalog: { mode: 'full' } });
    const { client } = await connect(face, yaml);
    const listed = await names(client);
    const renamed = listed.find((n) => n.startsWith('search_tools-'));
    expect(renamed).toBeDefined();
    expect(listed).not.toContain('search_tools');
    expect(text(await client.callTool({ name: renamed!, arguments: {} }))).toBe('the server’s own tool');
    const r: any = await client.callTool({ name: 'search_tools', arguments: { query: 'weather' } });
    expect(r.structuredContent.tools[0].name).toBe('weather_forecast');
    await client.close();
  });
});

/** Three servers: one the operator describes, one that describes itself, one known by its tools. */
const DIRECTORY_SERVERS = [
  fixtureServer('cat', 'catalog', [], { description: 'Sheep counting and the weather' }),
  fixtureServer('sky', 'catalog', ['--tools', '1', '--description', 'A server for weather forecasts of every city in the world.']),
  fixtureServer('farm', 'catalog', ['--tools', '2']),
];
const found = (r: any) => r.structuredContent.tools.map((t: any) => `${t.server}:${t.name}`);
const search = (client: Client, args: Record<string, unknown>) => client.callTool({ name: 'search_tools', arguments: args }) as Promise<any>;

describe.each<Face>(['http', 'stdio'])('the server directory over %s', (face) => {
  it('is in search_tools’ description; server restricts a search; results name their server; nothing found answers the directory', async () => {
    const { client } = await connect(face, yamlServers(DIRECTORY_SERVERS, { catalog: { mode: 'search' } }));
    const listed = (await client.listTools()).tools;
    expect(listed.map((t) => t.name).sort()).toEqual(['call_tool', 'cat__app_refresh', 'farm__app_refresh', 'search_tools', 'sky__app_refresh']);
    const description = listed.find((t) => t.name === 'search_tools')!.description!;
    expect(description).toContain('Query with a few words naming the capability you need');
    expect(description).toContain(
      'Servers (give a name as `server` to search only its tools):\n- cat (7 tools): Sheep counting and the weather\n- sky (5 tools): Weather forecasts of every city in the world\n- farm (6 tools): Tools for ',
    );

    const one = await search(client, { query: 'weather forecast', server: 'sky' });
    expect(found(one)).toEqual(['sky:sky__weather_forecast']);
    expect(text(one)).toContain('1. [sky] sky__weather_forecast: Gets the weather forecast');
    expect(one.structuredContent.tools[0].inputSchema.properties.city).toBeDefined();
    const several = await search(client, { query: 'weather forecast', server: ['cat', 'farm'], limit: 10 });
    expect(found(several)).toContain('cat:cat__weather_forecast');
    expect(found(several)).toContain('farm:farm__weather_forecast');
    expect(found(several).every((f: string) => !f.startsWith('sky:'))).toBe(true);
    const every = await search(client, { query: 'weather forecast', limit: 10 });
    expect(
      found(every)
        .filter((f: string) => f.endsWith('__weather_forecast'))
        .sort(),
    ).toEqual(['cat:cat__weather_forecast', 'farm:farm__weather_forecast', 'sky:sky__weather_forecast']);

    const unknown = await search(client, { query: 'weather', server: ['sky', 'sea'] });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toBe('Unknown server: "sea". The servers are: cat, sky, farm.');

    const none = await search(client, { query: 'xylophone quasar' });
    expect(none.isError).toBeUndefined();
    expect(text(none)).toMatch(/^No tool matches "xylophone quasar"\. The servers are:\n- cat \(7 tools\): Sheep counting and the weather\n/);
    expect(text(none)).toContain('Search again with other words, or name a server');
    expect(none.structuredContent).toEqual({ tools: [], servers: expect.arrayContaining([{ name: 'sky', tools: 5, purpose: 'Weather forecasts of every city in the world' }]) });
    await client.close();
  });

  it('shows a profile only its servers, and a server it cannot see is unknown to it', async () => {
    const yaml = yamlServers(DIRECTORY_SERVERS, {
      clients: [{ name: 'small', token: 'small-token', tools: { deny: ['sky__*', 'farm__count_*'] }, catalog: { mode: 'search' } }],
      stdio: { client: 'small' },
    });
    const { client } = await connect(face, yaml, 'small-token');
    const description = (await client.listTools()).tools.find((t) => t.name === 'search_tools')!.description!;
    expect(description).toContain('- cat (7 tools): ');
    expect(description).toContain('- farm (4 tools): ');
    expect(description).not.toContain('sky');
    const r = await search(client, { query: 'weather', server: 'sky' });
    expect(r.isError).toBe(true);
    expect(text(r)).toBe('Unknown server: "sky". The servers are: cat, farm.');
    await client.close();
  });

  it('past directoryBudget, list_servers lists the servers instead', async () => {
    const { client } = await connect(face, yamlServers(DIRECTORY_SERVERS, { catalog: { mode: 'search', directoryBudget: 20 } }));
    const listed = (await client.listTools()).tools;
    expect(listed.map((t) => t.name)).toEqual(['search_tools', 'call_tool', 'list_servers', 'cat__app_refresh', 'sky__app_refresh', 'farm__app_refresh']);
    const description = listed[0]!.description!;
    expect(description).toContain('list_servers tells which servers there are and what each is for.');
    expect(description).not.toContain('- cat');
    const servers: any = await client.callTool({ name: 'list_servers', arguments: {} });
    expect(text(servers)).toMatch(/^Servers \(give names as `server` to search_tools to search only their tools\):\n- cat \(7 tools\): Sheep counting and the weather\n- sky \(5 tools\): /);
    expect(servers.structuredContent.servers.map((s: any) => s.name)).toEqual(['cat', 'sky', 'farm']);
    // Through call_tool, as a model that only calls call_tool would.
    const via: any = await client.callTool({ name: 'call_tool', arguments: { name: 'list_servers' } });
    expect(via.structuredContent).toEqual(servers.structuredContent);
    await client.close();
  });
});

describe('the server directory on reload', () => {
  it('takes a new description without restarting the server, and tells the client its tool list changed', async () => {
    const gw = await startGateway(yamlServers(DIRECTORY_SERVERS, { catalog: { mode: 'search' } }));
    const client = await connectHttpClient(gw.url);
    const directory = async () => (await client.listTools()).tools.find((t) => t.name === 'search_tools')!.description!;
    expect(await directory()).toContain('- cat (7 tools): Sheep counting and the weather\n');
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, async () => resolve()));
    const renamed = DIRECTORY_SERVERS.map((s) => (s.name === 'cat' ? { ...s, description: 'Counts sheep, and says if it will rain' } : s));
    await writeFile(gw.configPath, yamlServers(renamed, { catalog: { mode: 'search' } }));
    await gw.waitForStderr(/config reloaded \(file changed\): no server changed/);
    await changed;
    expect(await directory()).toContain('- cat (7 tools): Counts sheep, and says if it will rain\n');
    await client.close();
  });
});

describe.each<Face>(['http', 'stdio'])('the server directory for a 2026-07-28 client over %s', (face) => {
  it('reads a 2026-07-28 server’s serverInfo, and serves search_tools and list_servers on the stateless path', async () => {
    const yaml = yamlServers(
      // Only 2026-07-28: what it says of itself comes from its server/discover result.
      [{ name: 'modern', ...statelessServerCommand({ modernOnly: true, description: 'Echo and arithmetic for tests.' }) }, fixtureServer('sky', 'catalog', ['--tools', '1'])],
      { catalog: { mode: 'search', directoryBudget: 20 } },
    );
    let client: Awaited<ReturnType<typeof connectStatelessHttp>>['client'];
    if (face === 'http') client = (await connectStatelessHttp((await startGateway(yaml)).url)).client;
    else client = (await connectStatelessStdio(stdioGatewayParams(yaml))).client;
    const names = (await client.listTools()).tools.map((t: any) => t.name);
    expect(names.slice(0, 3)).toEqual(['search_tools', 'call_tool', 'list_servers']);
    const servers: any = await client.callTool({ name: 'list_servers', arguments: {} });
    expect(servers.structuredContent.servers[0]).toEqual({ name: 'modern', tools: expect.any(Number), purpose: 'Echo and arithmetic for tests' });
    const r: any = await client.callTool({ name: 'search_tools', arguments: { query: 'weather forecast', server: ['sky'] } });
    expect(found(r)).toEqual(['sky:sky__weather_forecast']);
    const bad: any = await client.callTool({ name: 'search_tools', arguments: { query: 'weather', server: 'nowhere' } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toBe('Unknown server: "nowhere". The servers are: modern, sky.');
    await client.close();
  });
});

describe('switchboard search', () => {
  const yaml = yamlServers(DIRECTORY_SERVERS);

  it('names each result’s server, and restricts to the servers given with --server', async () => {
    const all = await runCli(['search', 'weather forecast', '--limit', '10'], yaml);
    expect(all.code).toBe(0);
    for (const s of ['cat', 'sky', 'farm']) expect(all.stdout).toMatch(new RegExp(`${s}__weather_forecast +${s} +Gets the weather`));
    const some = await runCli(['search', 'weather forecast', '--server', 'sky', '--server', 'farm', '--json'], yaml);
    expect(some.code).toBe(0);
    const report = JSON.parse(some.stdout);
    expect(report.servers).toEqual(['sky', 'farm']);
    expect(new Set(report.results.map((r: any) => r.server))).toEqual(new Set(['sky', 'farm']));
  });

  it('prints the directory when nothing matches, and exits 2 for a server with no tools', async () => {
    const none = await runCli(['search', 'xylophone quasar'], yaml);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('No tool matches "xylophone quasar".\nServers:\n- cat (7 tools): Sheep counting and the weather\n');
    const unknown = await runCli(['search', 'weather', '--server', 'sea'], yaml);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no server "sea" with tools in this view (servers: cat, sky, farm)');
  });
});
