// The package as a newcomer gets it: `npm pack`, `npm install -g` of the tarball into a temp
// prefix, then every client snippet of docs/clients.md and of the README's "Connect your client"
// section (each once) run as written from a folder outside the repo, with only the installed `switchboard` and node on the PATH, the
// handshake driven by the official SDK v1 client. Needs a built dist/ (npm test builds) and the
// npm registry (for the optional reference servers; nothing else).

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LineCollector, cleanup, exited, repoRoot, spawnTracked, terminate, trackDir } from '../helpers/index.js';
import { clientsPageSnippets, merged, readmeSnippets, sameSnippet, shellWords, type HttpSnippet, type StdioSnippet } from './install-readme.js';

afterAll(cleanup);

const TOKEN = 'install-test-token-0123456789';
const DOCUMENTED_URL = 'http://127.0.0.1:8808/mcp';
const readme = readmeSnippets(TOKEN);
const page = clientsPageSnippets(TOKEN);
/** Both pages' snippets, each run once: the README's are the most common of the page's. */
const section = merged(page, readme);
const stdio = section.snippets.filter((s): s is StdioSnippet => s.kind === 'stdio');
const http = section.snippets.filter((s): s is HttpSnippet => s.kind === 'http');

const work = trackDir(mkdtempSync(path.join(os.tmpdir(), 'switchboard-install-')));
const prefix = path.join(work, 'global');
const elsewhere = mkdtempSync(path.join(work, 'cwd-'));
const bin = path.join(prefix, 'bin', 'switchboard');
const packageDir = path.join(prefix, 'lib', 'node_modules', 'mcp-switchboard');
/** A desktop app's PATH, plus what `npm install -g` put on it (and node, which the bin's #! needs). */
const PATH = [path.join(prefix, 'bin'), path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter);

/** npm as run by hand: none of the npm_* variables `npm test` sets, but the registry and cache it uses. */
function npm(args: string[], cwd: string): Promise<string> {
  const keep = new Set(['npm_config_registry', 'npm_config_cache', 'npm_config_userconfig']);
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_') || keep.has(k.toLowerCase())));
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`npm ${args.join(' ')} exited ${code}:\n${err}`))));
  });
}

/** The placeholders of the snippets, as a user fills them in. */
function fillIn(word: string, config: string): string {
  const filled = { '/path/to/switchboard.yaml': config, '/absolute/path/to/node': process.execPath, '/absolute/path/to/switchboard': bin }[word];
  if (filled === undefined && /^\/(absolute\/)?path\/to\//.test(word)) throw new Error(`unknown placeholder ${word} in a snippet`);
  return filled ?? word;
}

/**
 * A config beside the shipped demo one (its servers start through ./run-package.mjs): the demo's
 * servers, the memory server's env reading each of `vars` (as a user's `${VAR}` would), and `extra`.
 */
function writeConfig(name: string, vars: string[], extra: Record<string, unknown> = {}): string {
  const demo = parse(readFileSync(path.join(packageDir, 'config', 'switchboard.yaml'), 'utf8'));
  const memory = demo.servers.find((s: { name: string }) => s.name === 'memory');
  if (vars.length > 0) memory.env = Object.fromEntries(vars.map((v) => [v, `\${${v}}`]));
  const file = path.join(packageDir, 'config', name);
  writeFileSync(file, stringify({ ...demo, ...extra }));
  return file;
}

/**
 * npx as a user runs it from a shell: their environment (proxy and CA settings reach the
 * registry), none of the npm_* variables `npm test` sets but its cache and registry, the installed
 * switchboard and node on the PATH (`nodeDir` first for another Node), none of Switchboard's own
 * variables, and the yes to "install the Inspector?".
 */
function npxEnv(extra: Record<string, string> = {}, nodeDir?: string): Record<string, string> {
  const keep = new Set(['npm_config_registry', 'npm_config_cache', 'npm_config_userconfig']);
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[1] !== undefined && (!e[0].toLowerCase().startsWith('npm_') || keep.has(e[0].toLowerCase())) && !e[0].startsWith('SWITCHBOARD_'),
    ),
  );
  return { ...env, PATH: nodeDir ? [nodeDir, PATH].join(path.delimiter) : PATH, npm_config_yes: 'true', npm_config_update_notifier: 'false', ...extra };
}

/** Runs a line of the README or docs/clients.md as written (placeholders filled in); resolves with its exit code and output. */
async function runLine(line: string, config: string, env: Record<string, string>, url?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const words = shellWords(line, { SWITCHBOARD_TOKEN: TOKEN }).map((w) => (url && w === DOCUMENTED_URL ? url : fillIn(w, config)));
  const child = spawnTracked(words[0]!, words.slice(1), { cwd: elsewhere, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const { code } = await exited(child);
  return { code, stdout, stderr };
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** What a user checks first: the catalog is there and a call goes through. */
async function usable(client: Client, who: string): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['everything__echo', 'memory__read_graph', 'files__list_directory']));
  const result = await client.callTool({ name: 'everything__echo', arguments: { message: `hello from ${who}` } });
  expect(JSON.stringify(result.content)).toContain(`hello from ${who}`);
}

beforeAll(async () => {
  const packed = JSON.parse(await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], repoRoot));
  const files: string[] = packed[0].files.map((f: { path: string }) => f.path);
  expect(files).toEqual(expect.arrayContaining(['dist/main.js', 'config/switchboard.yaml', 'config/run-package.mjs']));
  expect(files.filter((f) => /^(src|test)\//.test(f))).toEqual([]);
  await npm(['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', path.join(work, packed[0].filename)], elsewhere);
}, 180_000);

describe('the packed package, installed with npm install -g', () => {
  it('puts a switchboard command on the PATH that checks the shipped demo config from any folder', async () => {
    const child = spawnTracked('switchboard', ['check', '--json'], { cwd: elsewhere, env: { PATH, HOME: elsewhere } });
    let stdout = '';
    child.stdout!.on('data', (d) => (stdout += d));
    expect((await exited(child)).code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.servers.map((s: { name: string; state: string }) => `${s.name}:${s.state}`)).toEqual(['everything:ready', 'memory:ready', 'files:ready']);
  }, 60_000);
});

const clients = (snippets: (StdioSnippet | HttpSnippet)[], kind: 'stdio' | 'http') => new Set(snippets.filter((s) => s.kind === kind).map((s) => s.client));

describe('docs/clients.md has every client, the README the most common', () => {
  it('docs/clients.md: each client over stdio, each but Claude Desktop over HTTP', () => {
    expect(clients(page.snippets, 'stdio')).toEqual(new Set(['Claude Desktop', 'Claude Code', 'Cursor', 'VS Code', 'MCP Inspector']));
    expect(clients(page.snippets, 'http')).toEqual(new Set(['Claude Code', 'Cursor', 'VS Code', 'MCP Inspector']));
  });

  it('README: Claude Desktop, Claude Code and the Inspector over stdio, Claude Code over HTTP', () => {
    expect(clients(readme.snippets, 'stdio')).toEqual(new Set(['Claude Desktop', 'Claude Code', 'MCP Inspector']));
    expect(clients(readme.snippets, 'http')).toEqual(new Set(['Claude Code']));
    expect(readme.inspector.map((l) => l.kind)).toEqual(['stdio']);
  });

  it("every snippet of the README's is on docs/clients.md as well, and the HTTP set-up is the same", () => {
    for (const s of readme.snippets)
      expect(
        page.snippets.some((t) => sameSnippet(s, t)),
        `${s.client} (${s.kind}) from the README`,
      ).toBe(true);
    for (const l of readme.inspector) expect(page.inspector.map((m) => m.line)).toContain(l.line);
    expect(readme.clientsYaml).toBe(page.clientsYaml);
    expect(readme.serve).toEqual(page.serve);
    expect(readme.status).toEqual(page.status);
  });
});

describe('README and docs/clients.md over stdio', () => {
  it('has a stdio snippet for each client', () => {
    expect(clients(stdio, 'stdio')).toEqual(new Set(['Claude Desktop', 'Claude Code', 'Cursor', 'VS Code', 'MCP Inspector']));
    // Claude Desktop passes none of the shell's environment: its entries show where ${VAR}s go.
    for (const s of stdio.filter((s) => s.client === 'Claude Desktop')) expect(Object.keys(s.env)).not.toEqual([]);
  });

  it.each(stdio.map((s, i) => [`${s.client} (${i + 1}, ${s.where.join(' and ')})`, s, i] as const))(
    '%s: the command starts and serves the catalog',
    async (label, snippet, i) => {
      // Only the entry's env and a desktop PATH, as Claude Desktop gives: nothing of the shell's.
      const config = writeConfig(`stdio-${snippet.client.replace(/\W+/g, '-')}-${i + 1}.yaml`, Object.keys(snippet.env));
      const transport = new StdioClientTransport({
        command: fillIn(snippet.command, config),
        args: snippet.args.map((a) => fillIn(a, config)),
        env: { ...snippet.env, PATH },
        cwd: elsewhere,
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (d) => (stderr += d));
      const client = new Client({ name: 'install-test', version: '1.0.0' });
      try {
        await client.connect(transport);
        await usable(client, label);
      } catch (err) {
        throw new Error(`${(err as Error).message}\nswitchboard's stderr:\n${stderr}`);
      } finally {
        await client.close();
      }
    },
    60_000,
  );
});

describe('README and docs/clients.md: the MCP Inspector lines, run with the Inspector itself', () => {
  const lines = section.inspector.filter((l) => l.kind === 'stdio');

  it('name a version that runs on Node 20 (engines), as npx would pick it there anyway', () => {
    expect(lines.length).toBe(2);
    for (const { line } of lines) expect(line).toMatch(/^npx @modelcontextprotocol\/inspector@0\.15\.0 /);
  });

  it('the command line (--cli) lists the catalog over stdio, on this Node', async () => {
    const line = lines.find((l) => / --cli /.test(l.line))!.line;
    const config = writeConfig('inspector-cli.yaml', []);
    const run = await runLine(line, config, npxEnv());
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).tools.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(['everything__echo', 'memory__read_graph', 'files__list_directory']));
  }, 180_000);

  it('the UI starts switchboard through its proxy, as its page does', async () => {
    const line = lines.find((l) => !/ --cli /.test(l.line))!.line;
    const config = writeConfig('inspector-ui.yaml', []);
    const words = shellWords(line, {}).map((w) => fillIn(w, config));
    const [client, server] = [await freePort(), await freePort()];
    const ui = spawnTracked(words[0]!, words.slice(1), {
      cwd: elsewhere,
      env: npxEnv({ CLIENT_PORT: String(client), SERVER_PORT: String(server), MCP_AUTO_OPEN_ENABLED: 'false' }),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = new LineCollector(ui.stdout);
    try {
      const token = /Session token: ([0-9a-f]+)/.exec(await out.waitForLine(/Session token: /, 150_000, 'inspector stdout'))![1]!;
      const auth = { 'X-MCP-Proxy-Auth': `Bearer ${token}` };
      // What the page reads first: the command the line gave, then it opens /stdio with it.
      const defaults = (await (await fetch(`http://127.0.0.1:${server}/config`, { headers: auth })).json()) as {
        defaultCommand: string;
        defaultArgs: string;
        defaultEnvironment: Record<string, string>;
      };
      expect(defaults.defaultCommand).toBe('switchboard');
      const query = new URLSearchParams({ transportType: 'stdio', command: defaults.defaultCommand, args: defaults.defaultArgs, env: JSON.stringify(defaults.defaultEnvironment) });
      const sdk = new Client({ name: 'inspector-page', version: '1.0.0' });
      await sdk.connect(new SSEClientTransport(new URL(`http://127.0.0.1:${server}/stdio?${query}`), { requestInit: { headers: auth } }));
      await usable(sdk, 'the Inspector UI');
      await sdk.close();
    } finally {
      await terminate(ui);
    }
  }, 180_000);
});

describe('README and docs/clients.md over HTTP', () => {
  let gateway: ChildProcess;
  let url = '';

  beforeAll(async () => {
    expect(section.serve).toHaveLength(1);
    const config = writeConfig('http.yaml', [], { listen: { host: '127.0.0.1', port: 0, path: '/mcp' }, ...parse(section.clientsYaml) });
    const [command, ...args] = shellWords(section.serve[0]!, {}).map((w) => fillIn(w, config));
    gateway = spawnTracked(command!, args, { cwd: elsewhere, env: { PATH, HOME: elsewhere, SWITCHBOARD_TOKEN: TOKEN }, detached: true });
    url = await new Promise<string>((resolve, reject) => {
      let stderr = '';
      gateway.stderr!.on('data', (d) => {
        stderr += d;
        const m = /listening on (http:\/\/[^\s"]+)/.exec(stderr);
        if (m) resolve(m[1]!);
      });
      gateway.once('exit', (code) => reject(new Error(`switchboard serve exited ${code}:\n${stderr}`)));
    });
  }, 60_000);

  afterAll(async () => {
    if (gateway) await terminate(gateway);
  });

  it('has an HTTP snippet for each client but Claude Desktop, all at the documented URL with the bearer header', () => {
    expect(clients(http, 'http')).toEqual(new Set(['Claude Code', 'Cursor', 'VS Code', 'MCP Inspector']));
    for (const s of http) {
      expect(s.url).toBe(DOCUMENTED_URL);
      expect(s.headers).toEqual({ Authorization: `Bearer ${TOKEN}` });
    }
  });

  it.each(http.map((s) => [`${s.client} (${s.where.join(' and ')})`, s] as const))('%s: connects with its header and serves the catalog', async (client, snippet) => {
    const sdk = new Client({ name: 'install-test', version: '1.0.0' });
    try {
      await sdk.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: snippet.headers } }));
      await usable(sdk, client);
    } finally {
      await sdk.close();
    }
  });

  it('MCP Inspector: the command line with --header, on Node 22.19 or later (Inspector 2.x)', async (ctx) => {
    // Node 22 from the registry, as the design guide runs the conformance suite.
    const found = await runLine('npx -p node@22 node -p process.execPath', '', npxEnv()).catch(() => undefined);
    const node22 = found?.code === 0 ? found.stdout.trim() : undefined;
    if (!node22) {
      console.warn(`install.test.ts: no Node 22 from npx -p node@22 (${found?.stderr.trim() ?? 'not run'}): the Inspector 2.x line is not run`);
      ctx.skip();
    }
    const line = section.inspector.find((l) => l.kind === 'http')!.line;
    const run = await runLine(line, '', npxEnv({}, path.dirname(node22!)), url);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).tools.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(['everything__echo', 'memory__read_graph']));
  }, 180_000);

  it('refuses the same client without the header', async () => {
    const sdk = new Client({ name: 'install-test', version: '1.0.0' });
    await expect(sdk.connect(new StreamableHTTPClientTransport(new URL(url)))).rejects.toThrow(/401|nauthori/);
  });

  it('answers switchboard status at the URL serve printed, with the token from the environment', async () => {
    expect(section.status).toHaveLength(1);
    const words = shellWords(section.status[0]!, {}).map((w) => (w === DOCUMENTED_URL ? url : w));
    const child = spawnTracked(words[0]!, words.slice(1), { cwd: elsewhere, env: { PATH, HOME: elsewhere, SWITCHBOARD_TOKEN: TOKEN } });
    let stdout = '';
    child.stdout!.on('data', (d) => (stdout += d));
    expect((await exited(child)).code).toBe(0);
    for (const name of ['everything', 'memory', 'files']) expect(stdout).toContain(name);
  });
});
