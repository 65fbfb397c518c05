// Real MCP servers from npm and real HTTP servers behind the gateway, as a user would set it up.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, connectHttpClient, connectStdioClient, fixtureServer, httpServer, nodeBin, repoRoot, startGateway, startHttpFixture, stdioGatewayParams, yamlServers } from '../helpers/index.js';

afterAll(cleanup);

const pkg = (name: string) => path.join(repoRoot, 'node_modules', '@modelcontextprotocol', name, 'dist', 'index.js');

describe('reference servers from npm behind the gateway', () => {
  let client: Client;
  let folder: string;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'switchboard-fs-'));
    writeFileSync(path.join(folder, 'hello.txt'), 'hello from the filesystem server');
    const config = yamlServers([
      { name: 'everything', command: nodeBin, args: [pkg('server-everything'), 'stdio'] },
      { name: 'memory', command: nodeBin, args: [pkg('server-memory')], env: { MEMORY_FILE_PATH: path.join(folder, 'memory.jsonl') } },
      { name: 'files', command: nodeBin, args: [pkg('server-filesystem'), folder] },
    ]);
    client = await connectStdioClient(stdioGatewayParams(config));
  });

  afterAll(async () => {
    await client?.close();
  });

  it('lists the tools of all three, namespaced', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['everything__echo', 'memory__create_entities', 'memory__read_graph', 'files__read_text_file']));
  });

  it('calls each of them', async () => {
    const echo = await client.callTool({ name: 'everything__echo', arguments: { message: 'hi' } });
    expect((echo.content as any)[0].text).toContain('hi');

    await client.callTool({ name: 'memory__create_entities', arguments: { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote programs'] }] } });
    const graph = await client.callTool({ name: 'memory__read_graph', arguments: {} });
    expect(JSON.stringify(graph.content)).toContain('Ada');

    const file = await client.callTool({ name: 'files__read_text_file', arguments: { path: path.join(folder, 'hello.txt') } });
    expect((file.content as any)[0].text).toBe('hello from the filesystem server');
  });

  it('passes a tool error result through untouched', async () => {
    const r = await client.callTool({ name: 'files__read_text_file', arguments: { path: '/etc/shadow-not-allowed' } });
    expect(r.isError).toBe(true);
  });

  it('reads resources and gets prompts of server-everything', async () => {
    const { resources } = await client.listResources();
    const doc = resources.find((r) => r.uri.startsWith('demo://'))!;
    const read = await client.readResource({ uri: doc.uri });
    expect(read.contents[0]!.uri).toBe(doc.uri);
    const dynamic = await client.readResource({ uri: 'demo://resource/dynamic/text/7' });
    expect((dynamic.contents[0] as any).text).toContain('Resource 7');
    const prompt = await client.getPrompt({ name: 'everything__args-prompt', arguments: { city: 'Lisbon' } });
    expect(JSON.stringify(prompt.messages)).toContain('Lisbon');
  });
});

describe('HTTP servers behind the gateway', () => {
  let client: Client;

  beforeAll(async () => {
    const streamable = await startHttpFixture({ name: 'streamy' });
    const legacy = await startHttpFixture({ name: 'oldie', legacy: true });
    const gw = await startGateway(
      yamlServers([
        httpServer('streamy', streamable.url, { headers: { Authorization: 'Bearer ${TEST_TOKEN}' } }),
        httpServer('oldie', legacy.url),
        httpServer('nobody', 'http://127.0.0.1:9/mcp', { timeout: '2s' }),
      ]),
      { env: { TEST_TOKEN: 'sekret-value' } },
    );
    client = await connectHttpClient(gw.url);
    const log = gw.stderrLines.join('\n');
    expect(log).toMatch(/streamy: connected \(streamable-http/);
    expect(log).toMatch(/oldie: connected \(sse/);
    expect(log).toMatch(/nobody: down, reconnecting .*ECONNREFUSED/);
    // Secrets from the config never reach the log.
    expect(log).not.toContain('sekret-value');
  });

  afterAll(async () => {
    await client?.close();
  });

  it('routes calls to Streamable HTTP and legacy SSE servers alike', async () => {
    const a = await client.callTool({ name: 'streamy__whoami', arguments: {} });
    const b = await client.callTool({ name: 'oldie__whoami', arguments: {} });
    expect((a.content as any)[0].text).toContain('streamy');
    expect((b.content as any)[0].text).toContain('oldie');
  });

  it('exposes both servers resources although they share a URI', async () => {
    const uris = (await client.listResources()).resources.map((r) => r.uri);
    expect(uris).toEqual(['http://fixture/readme', 'oldie+http://fixture/readme']);
    const r = await client.readResource({ uri: 'oldie+http://fixture/readme' });
    // The answer names the resource as the client knows it.
    expect(r.contents[0]!.uri).toBe('oldie+http://fixture/readme');
  });
});

describe('naming mode on-conflict', () => {
  it('prefixes only the names that collide', async () => {
    const config = yamlServers([fixtureServer('one', 'echo', ['--tools', '1']), fixtureServer('two', 'paginated', ['--tools', '2', '--tool-prefix', 'tool_'])], {
      naming: { mode: 'on-conflict' },
    });
    const client = await connectStdioClient(stdioGatewayParams(config));
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(['add', 'echo', 'one__tool_0', 'two__tool_0', 'tool_1'].sort());
    const r = await client.callTool({ name: 'two__tool_0', arguments: {} });
    expect((r.content as any)[0].text).toMatch(/^paginated:tool_0/);
    await client.close();
  });
});
