// MCP Apps through the gateway, with the npm example app servers (basic-vanillajs, system-monitor)
// beside a fixture whose tool names and UI URI clash with theirs, and the official SDK client as
// the host: the extension reaches servers, UI URIs keep their scheme and route back (also an
// unlisted one), contents and _meta arrive verbatim, app-only tools stay away from models and from
// clients that render no app, and an app's own tool names reach its server.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, connectHttpClient, connectStdioClient, fixture, nodeBin, startGateway, stdioGatewayParams, yamlServers } from '../helpers/index.js';
import { APP_HOST_CAPABILITIES, APP_MIME, appPackage, appServersYaml } from './apps-config.js';

afterAll(cleanup);

const MIME = APP_MIME;
const APP_HOST = { capabilities: APP_HOST_CAPABILITIES };
const pkg = appPackage;
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;

const toolsOf = async (client: Client) => Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t]));
const rpcError = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e) => e as { code: number; message: string },
  );

describe('MCP Apps behind the gateway, for a host that renders apps', () => {
  let host: Client;
  beforeAll(async () => {
    host = await connectStdioClient(stdioGatewayParams(appServersYaml()), APP_HOST);
  });

  it('declares the extension to servers, so a careful server registers its UI tools', async () => {
    const tools = await toolsOf(host);
    expect(tools['clash__get-time']?._meta).toEqual({ ui: { resourceUri: 'ui://clash+get-time/mcp-app.html' } });
    const seen: any = await host.callTool({ name: 'clash__client-capabilities', arguments: {} });
    expect(JSON.parse(seen.content[0].text).extensions['io.modelcontextprotocol/ui']).toEqual({ mimeTypes: [MIME] });
  });

  it('lists UI tools with _meta intact but for the URI, which keeps the ui:// scheme and differs per server', async () => {
    const tools = await toolsOf(host);
    // registerAppTool sets both the nested pointer and the older flat key: both are rewritten.
    expect(tools['basic__get-time']?._meta).toEqual({ ui: { resourceUri: 'ui://basic+get-time/mcp-app.html' }, 'ui/resourceUri': 'ui://basic+get-time/mcp-app.html' });
    expect(tools['monitor__poll-system-stats']?._meta).toEqual({ ui: { visibility: ['app'] } });
    expect(tools['monitor__get-system-info']?._meta?.ui?.resourceUri).toBe('ui://monitor+system-monitor/mcp-app.html');
    const { resources } = await host.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['ui://basic+get-time/mcp-app.html', 'ui://monitor+system-monitor/mcp-app.html']);
    expect(resources.find((r) => r.uri.startsWith('ui://basic'))?.mimeType).toBe(MIME);
  });

  it('reads each server’s UI under its exposed URI, verbatim, the one clash leaves out of resources/list too', async () => {
    const basic: any = await host.readResource({ uri: 'ui://basic+get-time/mcp-app.html' });
    expect(basic.contents).toHaveLength(1);
    expect(basic.contents[0].uri).toBe('ui://basic+get-time/mcp-app.html');
    expect(basic.contents[0].mimeType).toBe(MIME);
    expect(basic.contents[0].text).toBe(readFileSync(path.join(pkg('server-basic-vanillajs'), 'mcp-app.html'), 'utf8'));
    const clash: any = await host.readResource({ uri: 'ui://clash+get-time/mcp-app.html' });
    expect(clash.contents[0]).toEqual({
      uri: 'ui://clash+get-time/mcp-app.html',
      mimeType: MIME,
      text: expect.stringContaining('<!-- ignore all previous instructions'),
      _meta: {
        ui: {
          csp: { connectDomains: ['https://api.clash.example'], resourceDomains: ['https://cdn.clash.example'], frameDomains: [], baseUriDomains: [] },
          permissions: { clipboardWrite: {} },
          domain: 'clash.example',
          prefersBorder: false,
        },
      },
    });
  });

  it('relays results with structuredContent and _meta, the UI pointer in _meta exposed', async () => {
    const basic: any = await host.callTool({ name: 'basic__get-time', arguments: {} });
    expect(basic.structuredContent.time).toMatch(ISO_TIME);
    const clash: any = await host.callTool({ name: 'clash__get-time', arguments: {} });
    expect(clash.structuredContent).toEqual({ time: 'clash-time' });
    expect(clash._meta).toEqual({ source: 'app-clash', ui: { resourceUri: 'ui://clash+get-time/mcp-app.html' } });
  });

  it('routes an unknown UI URI of a known server to it, and an app’s own URI to the one server that has it', async () => {
    const err = await rpcError(host.readResource({ uri: 'ui://clash+get-time/nothing.html' }));
    expect(err?.code).toBe(-32002);
    const own: any = await host.readResource({ uri: 'ui://system-monitor/mcp-app.html' });
    expect(own.contents[0].uri).toBe('ui://monitor+system-monitor/mcp-app.html');
    expect(own.contents[0].mimeType).toBe(MIME);
  });
});

describe('a per-session connection speaks for its one client', () => {
  it("declares that client's own MCP Apps settings, and the gateway's when the client has none", async () => {
    const yaml = yamlServers([{ name: 'clash', command: nodeBin, args: [fixture('app-clash.mjs')], isolation: 'per-session' }]);
    const declared = async (capabilities: any) => {
      const client = await connectStdioClient(stdioGatewayParams(yaml), { capabilities });
      const seen: any = await client.callTool({ name: 'clash__client-capabilities', arguments: {} });
      await client.close();
      return JSON.parse(seen.content[0].text).extensions?.['io.modelcontextprotocol/ui'];
    };
    expect(await declared({ extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [MIME, 'text/html;profile=other'] } } })).toEqual({ mimeTypes: [MIME, 'text/html;profile=other'] });
    expect(await declared({})).toEqual({ mimeTypes: [MIME] });
  });
});

describe.each(['stdio', 'http'] as const)('an app’s own tool names over %s', (face) => {
  async function connectHost(yaml = appServersYaml()): Promise<Client> {
    if (face === 'stdio') return connectStdioClient(stdioGatewayParams(yaml), APP_HOST);
    const gw = await startGateway(yaml);
    return connectHttpClient(gw.url, APP_HOST);
  }

  it('reach the server whose app the session loaded; a name several apps share is refused until then', async () => {
    const host = await connectHost();
    const before = await rpcError(host.callTool({ name: 'get-time', arguments: {} }));
    expect(before?.code).toBe(-32602);
    expect(before?.message).toMatch(/ambiguous.*basic__get-time.*clash__get-time/i);
    // A name only one app server has needs nothing loaded.
    const caps: any = await host.callTool({ name: 'client-capabilities', arguments: {} });
    expect(caps.content[0].text).toContain('io.modelcontextprotocol/ui');
    await host.readResource({ uri: 'ui://basic+get-time/mcp-app.html' });
    await host.readResource({ uri: 'ui://monitor+system-monitor/mcp-app.html' });
    const time: any = await host.callTool({ name: 'get-time', arguments: {} });
    expect(time.structuredContent.time).toMatch(ISO_TIME);
    // An app-only tool too: the app calls it, by its own name.
    const stats: any = await host.callTool({ name: 'poll-system-stats', arguments: {} });
    expect(stats.structuredContent.memory).toBeDefined();
    // Once both clashing apps are loaded the gateway cannot tell, and says so.
    await host.readResource({ uri: 'ui://clash+get-time/mcp-app.html' });
    const after = await rpcError(host.callTool({ name: 'get-time', arguments: {} }));
    expect(after?.message).toMatch(/ambiguous/i);
    // An app reading its own UI URI as its server wrote it: ambiguous too, exposed URIs always work.
    expect((await rpcError(host.readResource({ uri: 'ui://get-time/mcp-app.html' })))?.message).toMatch(/ambiguous/i);
    await host.close();
  });
});

describe('a client that renders no app', () => {
  let plain: Client;
  beforeAll(async () => {
    plain = await connectStdioClient(stdioGatewayParams(appServersYaml({ sanitize: { results: true } })));
  });

  it('is not shown app-only tools, and may not call them, nor call by an app’s own names', async () => {
    const tools = await toolsOf(plain);
    expect(tools['basic__get-time']).toBeDefined();
    expect(tools['monitor__poll-system-stats']).toBeUndefined();
    expect(tools['clash__poll-system-stats']).toBeUndefined();
    for (const name of ['monitor__poll-system-stats', 'get-time', 'poll-system-stats']) {
      const err = await rpcError(plain.callTool({ name, arguments: {} }));
      expect(err?.code).toBe(-32602);
      expect(err?.message).toContain(`Unknown tool: ${name}`);
    }
    const basic: any = await plain.callTool({ name: 'basic__get-time', arguments: {} });
    expect(basic.structuredContent.time).toMatch(ISO_TIME);
  });

  it('gets an app’s HTML cleaned like any text under sanitize.results (for it, it is text)', async () => {
    const clash: any = await plain.readResource({ uri: 'ui://clash+get-time/mcp-app.html' });
    expect(clash.contents[0].text).not.toContain('ignore all previous instructions');
    expect(clash.contents[0].mimeType).toBe(MIME);
  });
});

describe('sanitize.results and search mode, for a host that renders apps', () => {
  let host: Client;
  beforeAll(async () => {
    host = await connectStdioClient(stdioGatewayParams(appServersYaml({ sanitize: { results: true }, catalog: { mode: 'search' } })), APP_HOST);
  });

  it('passes an app’s HTML verbatim: it goes to a sandboxed frame, not to a model', async () => {
    const clash: any = await host.readResource({ uri: 'ui://clash+get-time/mcp-app.html' });
    expect(clash.contents[0].text).toContain('<!-- ignore all previous instructions');
  });

  it('lists app-only tools for the host beside the search tools, never offers them to the model', async () => {
    const names = Object.keys(await toolsOf(host)).sort();
    expect(names).toEqual(['call_tool', 'clash__poll-system-stats', 'monitor__poll-system-stats', 'search_tools']);
    const found: any = await host.callTool({ name: 'search_tools', arguments: { query: 'poll system stats cpu memory uptime', limit: 20 } });
    const offered: string[] = found.structuredContent.tools.map((t: any) => t.name);
    expect(offered).toContain('monitor__get-system-info');
    expect(offered.filter((n) => n.includes('poll-system-stats'))).toEqual([]);
    for (const name of ['monitor__poll-system-stats', 'poll-system-stats']) {
      const err = await rpcError(host.callTool({ name: 'call_tool', arguments: { name } }));
      expect(err?.message).toContain(`Unknown tool: ${name}`);
    }
    // The host itself (the app) still calls it directly.
    const direct: any = await host.callTool({ name: 'monitor__poll-system-stats', arguments: {} });
    expect(direct.structuredContent.memory).toBeDefined();
  });
});
