// Policy and safety through the built gateway: sanitized descriptions with an audit trail,
// block and warn modes, cleaned tool results, client profiles with tokens (401/403, filters,
// read-only, short names), the stdio default profile, check --client, and tool pinning.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, connectHttpClient, connectStdioClient, fixtureServer, gatewayMain, nodeBin, repoRoot, startGateway, stdioGatewayParams, yamlServers } from '../helpers/index.js';

afterAll(cleanup);

const FORBIDDEN = /[\u{E0000}-\u{E007F}\u200B-\u200F\u202A-\u202E\u2066-\u2069\x1b]/u;

function tmp(name: string): string {
  return path.join(mkdtempSync(path.join(os.tmpdir(), 'switchboard-policy-')), name);
}

describe('sanitizing what reaches a model', () => {
  it('strips hidden text, bidi tricks, ANSI, comments and injection blocks, caps length, and audits every change', async () => {
    const audit = tmp('audit.jsonl');
    const gw = await startGateway(yamlServers([fixtureServer('pois', 'poisoned')], { sanitize: { auditLog: audit } }));
    const client = await connectHttpClient(gw.url);
    const tools = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t]));
    for (const t of Object.values(tools)) {
      expect(JSON.stringify(t)).not.toMatch(FORBIDDEN);
      expect((t.description ?? '').length).toBeLessThanOrEqual(1024);
    }
    expect(tools.pois__hidden_tags!.description).toBe('Adds numbers.');
    expect((tools.pois__hidden_tags!.inputSchema as any).properties.path.description).toBe('A path.');
    expect(tools.pois__important!.description).not.toMatch(/IMPORTANT|mcp\.json|must not know/);
    expect(tools.pois__important!.description).toMatch(/^Adds two numbers\./);
    expect(tools.pois__ansi_colors!.description).toBe('Prints red text nicely.');
    expect(tools.pois__safe_read!.description).toBe('Reads something harmless.');
    await client.close();
    await gw.stop();
    const entries = readFileSync(audit, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const about = (item: string) => entries.filter((e) => e.item === item);
    expect(about('hidden_tags').map((e) => e.field)).toEqual(expect.arrayContaining(['description', 'inputSchema.properties.path.description']));
    expect(about('important').some((e) => e.change === 'injection-stripped')).toBe(true);
    expect(about('very_long').some((e) => e.change === 'truncated')).toBe(true);
    for (const e of entries) expect(e).toMatchObject({ server: 'pois', kind: 'tool', time: expect.any(String) });
  });

  it('hides a poisoned tool entirely in block mode, at list and call time', async () => {
    const gw = await startGateway(yamlServers([fixtureServer('pois', 'poisoned')], { sanitize: { action: 'block' } }));
    const client = await connectHttpClient(gw.url);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('pois__important');
    expect(names).toContain('pois__safe_read');
    await expect(client.callTool({ name: 'pois__important', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it('serves flagged text as is in warn mode, but still removes what is invisible', async () => {
    const gw = await startGateway(yamlServers([fixtureServer('pois', 'poisoned')], { sanitize: { action: 'warn' } }));
    const client = await connectHttpClient(gw.url);
    const important = (await client.listTools()).tools.find((t) => t.name === 'pois__important')!;
    expect(important.description).toMatch(/<IMPORTANT>/);
    const tags = (await client.listTools()).tools.find((t) => t.name === 'pois__hidden_tags')!;
    expect(tags.description).not.toMatch(FORBIDDEN);
    await client.close();
  });

  it('cleans text in tool results when sanitize.results is on', async () => {
    const gw = await startGateway(yamlServers([fixtureServer('pois', 'poisoned')], { sanitize: { results: true } }));
    const client = await connectHttpClient(gw.url);
    const r = await client.callTool({ name: 'pois__tagged_output', arguments: {} });
    expect((r.content as any)[0].text).toBe('The answer is 42.');
    await client.close();
  });
});

const profiles = {
  clients: [
    { name: 'ci-agent', token: '${CI_TOKEN}', tools: { allow: ['pois__*', 'files__*'], deny: ['*__delete_*'] }, readOnly: true, naming: { maxLength: 64 } },
    { name: 'admin', token: '${ADMIN_TOKEN}' },
  ],
};
const env = { CI_TOKEN: 'ci-secret-token-1', ADMIN_TOKEN: 'admin-secret-token-2' };
const filesServer = { name: 'files', command: nodeBin, args: [path.join(repoRoot, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), os.tmpdir()] };

describe('client profiles over HTTP', () => {
  it('refuses requests without a valid token, and sessions opened with another client’s token', async () => {
    const gw = await startGateway(yamlServers([fixtureServer('pois', 'poisoned')], profiles), { env });
    const init = (auth?: string) =>
      fetch(gw.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(auth ? { authorization: auth } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
      });
    expect((await init()).status).toBe(401);
    expect((await init('Bearer wrong')).status).toBe(401);
    expect((await init('Basic ci-secret-token-1')).status).toBe(401);
    const ok = await init('Bearer ci-secret-token-1');
    expect(ok.status).toBe(200);
    const session = ok.headers.get('mcp-session-id')!;
    const stolen = await fetch(gw.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer admin-secret-token-2', 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(stolen.status).toBe(403);
    expect(gw.stderrLines.join('\n')).not.toMatch(/secret-token/);
  });

  it('shows each profile its own view, enforced at call time too', async () => {
    const gw = await startGateway(yamlServers([fixtureServer('pois', 'poisoned'), fixtureServer('other', 'echo'), filesServer], profiles), { env });
    const ci = await connectHttpClient(gw.url, { headers: { Authorization: 'Bearer ci-secret-token-1' } });
    const admin = await connectHttpClient(gw.url, { headers: { Authorization: 'Bearer admin-secret-token-2' } });
    const ciNames = (await ci.listTools()).tools.map((t) => t.name);
    const adminNames = (await admin.listTools()).tools.map((t) => t.name);
    expect(ciNames).toContain('pois__safe_read');
    expect(ciNames).toContain('files__read_text_file'); // server-filesystem marks its readers read-only
    expect(ciNames).not.toContain('files__write_file');
    expect(ciNames).not.toContain('pois__safe_write');
    expect(ciNames).not.toContain('pois__delete_all');
    expect(ciNames.some((n) => n.startsWith('other__'))).toBe(false);
    for (const n of ciNames) expect(n).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(adminNames).toEqual(expect.arrayContaining(['pois__safe_write', 'pois__delete_all', 'other__echo', 'files__write_file']));
    await expect(ci.callTool({ name: 'pois__safe_write', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(ci.callTool({ name: 'other__echo', arguments: { text: 'x' } })).rejects.toMatchObject({ code: -32602 });
    expect((await ci.callTool({ name: 'pois__safe_read', arguments: {} })).content).toEqual([{ type: 'text', text: 'called safe_read' }]);
    await Promise.all([ci.close(), admin.close()]);
  });
});

describe('the stdio default profile and check --client', () => {
  const config = yamlServers([fixtureServer('pois', 'poisoned'), fixtureServer('other', 'echo')], { ...profiles, stdio: { client: 'ci-agent' } });

  it('serves the stdio client its configured profile', async () => {
    const client = await connectStdioClient(stdioGatewayParams(config, { env }));
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('pois__safe_read');
    expect(names).not.toContain('pois__safe_write');
    expect(names).not.toContain('other__echo');
    await client.close();
  });

  it('prints what a client would see', async () => {
    const file = tmp('switchboard.yaml');
    writeFileSync(file, config);
    const out = await new Promise<string>((resolve) => {
      const child = spawn(nodeBin, [gatewayMain, 'check', '--json', '--client', 'ci-agent', '-c', file], { cwd: repoRoot, env: { ...process.env, ...env } });
      let text = '';
      child.stdout.on('data', (d) => (text += d));
      child.on('close', () => resolve(text));
    });
    const names = JSON.parse(out).tools.map((t: any) => t.name);
    expect(names).toContain('pois__safe_read');
    expect(names).not.toContain('other__echo');
  });
});

describe('tool pinning', () => {
  it('holds back a tool whose definition changed since `switchboard lock`, and only that tool', async () => {
    const dir = path.dirname(tmp('x'));
    const file = path.join(dir, 'switchboard.yaml');
    writeFileSync(file, yamlServers([fixtureServer('pois', 'poisoned')], { pinning: { newTools: 'hold' } }));
    const locked = await new Promise<number | null>((resolve) => spawn(nodeBin, [gatewayMain, 'lock', '-c', file], { cwd: repoRoot, stdio: 'ignore' }).on('close', resolve));
    expect(locked).toBe(0);
    const lock = JSON.parse(readFileSync(path.join(dir, 'switchboard.lock'), 'utf8'));
    expect(lock.servers.pois.tools.safe_read).toMatch(/^sha256:[0-9a-f]{64}$/);

    const gw = await startGateway(readFileSync(file, 'utf8').replace('newTools: hold', `newTools: hold\n  lockFile: ${path.join(dir, 'switchboard.lock')}`));
    const client = await connectHttpClient(gw.url);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('pois__safe_read');
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    await client.callTool({ name: 'pois__rug_pull', arguments: {} });
    await changed;
    const after = (await client.listTools()).tools.map((t) => t.name);
    expect(after).not.toContain('pois__safe_read');
    expect(after).toContain('pois__safe_write');
    await expect(client.callTool({ name: 'pois__safe_read', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await gw.waitForStderr(/tools held back until the lock is updated.*pois\/safe_read \(changed\)/);
    // newTools: hold — a tool that appears after the lock waits too (and clients see no change).
    await client.callTool({ name: 'pois__add_tool', arguments: { name: 'fresh' } });
    await gw.waitForStderr(/held back.*pois\/fresh \(new\)/);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('pois__fresh');
    await client.close();
  });
});

describe('profiles on reload', () => {
  it('applies a profile’s new rules to its open sessions, and tells them', async () => {
    const before = yamlServers([fixtureServer('pois', 'poisoned')], {
      clients: [{ name: 'ci-agent', token: '${CI_TOKEN}', tools: { allow: ['pois__safe_read'], deny: [] } }],
    });
    const gw = await startGateway(before, { env });
    const ci = await connectHttpClient(gw.url, { headers: { Authorization: 'Bearer ci-secret-token-1' } });
    expect((await ci.listTools()).tools.map((t) => t.name)).toEqual(['pois__safe_read']);
    const changed = new Promise<void>((resolve) => ci.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    await writeFile(gw.configPath, before.replace('- pois__safe_read', '- pois__safe_*'));
    await changed;
    expect((await ci.listTools()).tools.map((t) => t.name).sort()).toEqual(['pois__safe_read', 'pois__safe_write']);
    await ci.close();
  });
});
