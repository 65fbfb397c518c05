// Search mode through the gateway, with the official SDK client over both faces: auto switches
// at the token budget and back (with list_changed), search_tools respects profiles, pins and
// MCP Apps visibility, call_tool behaves as tools/call does, and gateway tool names never
// collide with a server's.

import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, connectHttpClient, connectStdioClient, fixtureServer, startGateway, stdioGatewayParams, stdioStderr, yamlServers } from '../helpers/index.js';

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
    const cancelled = client.callTool({ name: 'call_tool', arguments: { name: 'cat__slow', arguments: { ms: 60_000 } } }, undefined, { signal: ac.signal, onprogress: () => ac.abort() }).catch((e) => e);
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
