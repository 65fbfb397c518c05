// Issue 31, the newcomer's first hour, as the user meets it, on the built CLI: a stdio start
// without the HTTP face's token; check's warnings about rules that match nothing; a stdio client
// that leaves at once; servers asking for roots before any client; one token figure in check, the
// dashboard, /metrics and the README; a port in use, said before any server starts.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  LineCollector,
  cleanup,
  connectStdioClient,
  exited,
  fixtureServer,
  gatewayMain,
  nodeBin,
  repoRoot,
  runCli,
  spawnTracked,
  startGateway,
  stdioGatewayParams,
  stdioStderr,
  trackDir,
  yamlServers,
} from '../helpers/index.js';
// @ts-expect-error: a plain script of the repo, without types
import { checkFigures, readmeFigures } from '../../scripts/readme-tokens.mjs';

afterAll(cleanup);
// What a client that passes none of the shell's environment gives: no token.
delete process.env.SWITCHBOARD_TOKEN;

const FILESYSTEM = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
const withToken = (servers: Parameters<typeof yamlServers>[0], extra: Record<string, unknown> = {}) =>
  yamlServers(servers, { clients: [{ name: 'me', token: '${SWITCHBOARD_TOKEN}', operator: true }], ...extra });

/** The gateway's own log lines (pino JSON), by message. */
const messages = (lines: readonly string[]) =>
  lines.flatMap((l) => {
    try {
      const j = JSON.parse(l) as { msg?: string; time?: number; server?: string };
      return j.msg === undefined ? [] : [{ msg: j.msg, time: j.time ?? 0, server: j.server }];
    } catch {
      return [];
    }
  });

/** `serve --stdio` as a process of our own (stdin ours to close), stderr collected. */
function serveStdio(configYaml: string, extraArgs: string[] = []) {
  const params = stdioGatewayParams(configYaml);
  const child = spawnTracked(nodeBin, [...params.args!, ...extraArgs], { cwd: repoRoot, env: params.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  return { child, stderr: new LineCollector(child.stderr), stdout: new LineCollector(child.stdout), exit: exited(child) };
}

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'leaver', version: '1' } } });

describe('a stdio start without what only the HTTP face reads (item 2)', () => {
  const config = withToken([fixtureServer('echo', 'echo')]);

  it('serves the client over stdio, and says what HTTP would need', async () => {
    const params = stdioGatewayParams(config);
    delete (params.env as Record<string, string>).SWITCHBOARD_TOKEN;
    const client = await connectStdioClient(params);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['echo__echo', 'echo__add']);
    expect(stdioStderr(client).text).toMatch(/clients\[0\]\.token: environment variable SWITCHBOARD_TOKEN is not set: only the HTTP face reads this/);
    await client.close();
  });

  it('still refuses to serve HTTP without it', async () => {
    const run = await runCli(['serve', '--http', '127.0.0.1:0'], config);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/clients\[0\]\.token: environment variable SWITCHBOARD_TOKEN is not set/);
  });

  it('check tells about it as a warning, exit 0', async () => {
    const run = await runCli(['check'], config);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\nWarnings \(1\)\n {2}clients\[0\]\.token: environment variable SWITCHBOARD_TOKEN is not set/);
  });
});

describe('check warns about every filter rule that matches nothing (item 3)', () => {
  const rules = (extraServers: Parameters<typeof yamlServers>[0] = []) =>
    yamlServers([fixtureServer('echo', 'echo', [], { tools: { allow: ['ecko', 'add'], deny: ['drop_*'] }, prompts: { deny: ['x'] } }), ...extraServers], {
      clients: [{ name: 'me', token: 'me-token-0123456789', tools: { allow: ['github__*', 'echo__ad'] }, resources: ['file:///nowhere/*'] }],
    });

  it('with a did-you-mean, exit 0, problems none', async () => {
    const run = await runCli(['check'], rules());
    expect(run.code).toBe(0);
    const warnings = run.stdout.slice(run.stdout.indexOf('\nWarnings'), run.stdout.indexOf('\nProblems'));
    expect(warnings.trim().split('\n')).toEqual([
      'Warnings (6)',
      '  server echo: tools.allow "ecko" matches none of its tools; did you mean echo?',
      '  server echo: tools.deny "drop_*" matches none of its tools',
      '  server echo: prompts.deny "x" matches none of its prompts',
      '  client me: tools.allow "github__*" matches no exposed tool',
      '  client me: tools.allow "echo__ad" matches no exposed tool; did you mean echo__add?',
      '  client me: resources.allow "file:///nowhere/*" matches no exposed resource or template',
    ]);
    expect(run.stdout).toMatch(/\nProblems\n {2}none/);
    const json = JSON.parse((await runCli(['check', '--json'], rules())).stdout);
    expect(json.warnings[0]).toEqual({ where: 'server echo', warning: 'tools.allow "ecko" matches none of its tools; did you mean echo?' });
  });

  it('problems stay problems (exit 1), warnings beside them', async () => {
    const run = await runCli(['check'], rules([{ name: 'gone', command: path.join(os.tmpdir(), 'no-such-server-31') }]));
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/did you mean echo\?/);
    expect(run.stdout).toMatch(/client me: tools\.allow "github__\*" matches no exposed tool \(while gone is down\)/);
    expect(run.stdout).toMatch(/\nProblems\n {2}gone: /);
  });
});

describe('a stdio client that leaves at once (item 4)', () => {
  it('closing its input before sending anything ends the gateway before a server has started', async () => {
    const { child, stderr, exit } = serveStdio(yamlServers([fixtureServer('slow', 'lingering', ['--init-delay', '30000'])]));
    child.stdin!.end();
    expect((await exit).code).toBe(0);
    await stderr.ended();
    const said = messages(stderr.lines).map((m) => m.msg);
    expect(said).toContain('shutting down (stdin closed before anything was sent)');
    // It never waited for the server (30 s) nor for limits.startupWait (5 s): nothing was served.
    expect(said.filter((m) => /serving one client|still connecting|initialize answered/.test(m))).toEqual([]);
  });

  it('a server that asks after its input closed is ended at once, not after the 2 s grace', async () => {
    const { child, stderr, stdout, exit } = serveStdio(yamlServers([fixtureServer('lingering', 'lingering', ['--ask-after-input-ends'])]));
    child.stdin!.write(`${INITIALIZE}\n`);
    await stdout.waitForLine(/"id":1/, 15_000, 'gateway stdout');
    child.stdin!.end();
    expect((await exit).code).toBe(0);
    await stderr.ended();
    const said = messages(stderr.lines);
    const at = (re: RegExp) => said.find((m) => re.test(m.msg));
    expect(at(/^asked roots\/list after its input ended$/)?.server).toBe('lingering');
    expect(at(/^asked roots\/list after its input was closed: ending it now/)).toBeDefined();
    expect(at(/^got SIGTERM$/)).toBeDefined();
    expect(at(/ignored SIGTERM|second signal/)).toBeUndefined();
    // Compared to the grace it no longer waits for (outbound stdio close: 2000 ms).
    expect(at(/^stopped$/)!.time - at(/^shutting down \(stdin closed\)$/)!.time).toBeLessThan(2000);
  });
});

describe('servers that ask for roots before any client is connected (item 5)', () => {
  const folder = (name: string) => trackDir(mkdtempSync(path.join(os.tmpdir(), `switchboard-roots-${name}-`)));
  const filesystem = (dir: string) => ({ name: 'files', command: nodeBin, args: [FILESYSTEM, dir] });
  const allowed = async (config: string) => {
    const client = await connectStdioClient(stdioGatewayParams(config));
    const r = await client.callTool({ name: 'files__list_allowed_directories', arguments: {} });
    const stderr = stdioStderr(client).text;
    await client.close();
    return { text: JSON.stringify(r.content), stderr };
  };

  it('the real filesystem server keeps the folder it was given when no roots are configured', async () => {
    const dir = folder('args');
    const { text, stderr } = await allowed(yamlServers([filesystem(dir)]));
    expect(text).toContain(dir);
    expect(stderr).not.toMatch(/Failed to request initial roots/);
    expect(stderr).toMatch(/No valid root directories provided by client/); // it was answered: an empty list
  });

  it('serves the configured roots', async () => {
    const [given, root] = [folder('args'), folder('root')];
    const { text, stderr } = await allowed(yamlServers([filesystem(given)], { roots: [root] }));
    expect(text).toContain(root);
    expect(text).not.toContain(given);
    expect(stderr).toMatch(/Updated allowed directories from MCP roots: 1 valid directories/);
    expect(stderr).not.toMatch(/Failed to request/);
  });

  it('the demo config: its filesystem server serves the package docs/ folder, and the start prints no failure', async () => {
    const { SWITCHBOARD_CONFIG: _chosen, ...env } = process.env as Record<string, string>;
    const client = await connectStdioClient({ command: nodeBin, args: [gatewayMain, 'serve', '--stdio'], cwd: os.tmpdir(), env });
    const r = await client.callTool({ name: 'files__list_allowed_directories', arguments: {} });
    expect(JSON.stringify(r.content)).toContain(path.join(repoRoot, 'docs'));
    expect(stdioStderr(client).text).not.toMatch(/Failed to request/);
    await client.close();
  });
});

describe('one token figure everywhere (item 6)', () => {
  it('check, the dashboard, /metrics and the README say the same for the demo config', async () => {
    const figures = checkFigures() as { full: number; search: number };
    expect(readmeFigures()).toEqual(figures); // else: node scripts/readme-tokens.mjs
    const { SWITCHBOARD_CONFIG: _chosen, ...env } = process.env as Record<string, string>;
    const demo = readFileSync(path.join(repoRoot, 'config', 'switchboard.yaml'), 'utf8')
      .replaceAll('run-package.mjs', path.join(repoRoot, 'config', 'run-package.mjs'))
      .replaceAll('"../docs"', JSON.stringify(path.join(repoRoot, 'docs')));
    const gw = await startGateway(demo, { env });
    const base = new URL(gw.url).origin;
    // server-everything adds tools once it knows its client (list_changed after start): the
    // catalog settles a moment after listening, as check waits for it to (cli/connect.ts).
    type Tokens = { full: number; search: number; exact: boolean };
    const shown = async () => ((await (await fetch(`${base}/dashboard/catalog.json`)).json()) as { views: { tokens: Tokens }[] }).views[0]!.tokens;
    let tokens = await shown();
    for (let i = 0; i < 50 && tokens.full !== figures.full; i++) tokens = await new Promise((r) => setTimeout(r, 200)).then(shown);
    // code: code mode's figure, 0 where no profile is in code mode (check prints it only there).
    expect({ full: tokens.full, search: tokens.search, exact: tokens.exact }).toEqual({ ...figures, exact: true });
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toContain(`switchboard_catalog_tokens{profile="(none)",mode="full"} ${figures.full}\n`);
    expect(metrics).toContain(`switchboard_catalog_tokens{profile="(none)",mode="search"} ${figures.search}\n`);
    await gw.stop();
  }, 60_000);
});

describe('the port is bound before any server starts (item 7)', () => {
  const listening = (port = 0) =>
    new Promise<Server>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve(server));
    });

  it('a port in use: said at once with what to do, exit 1, no server process started', async () => {
    const held = await listening();
    const port = (held.address() as { port: number }).port;
    const marker = path.join(trackDir(mkdtempSync(path.join(os.tmpdir(), 'switchboard-marker-'))), 'started');
    const config = yamlServers([{ name: 'marker', command: nodeBin, args: ['-e', "require('fs').writeFileSync(process.argv[1], 'x'); setInterval(() => {}, 1000)", marker] }]);
    const run = await runCli(['serve', '--http', `127.0.0.1:${port}`], config);
    held.close();
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use`));
    expect(run.stderr).toContain('--http 127.0.0.1:0');
    expect(run.stderr).not.toMatch(/starting 1 server/);
    expect(existsSync(marker)).toBe(false);
  });

  it('a client that connects while the servers start is served once they are up, not refused', async () => {
    const probe = await listening();
    const port = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    const params = stdioGatewayParams(yamlServers([fixtureServer('slow', 'lingering', ['--init-delay', '1500'])]));
    const file = params.args![params.args!.indexOf('-c') + 1]!;
    const gw = spawnTracked(nodeBin, [gatewayMain, 'serve', '-c', file, '--http', `127.0.0.1:${port}`], { cwd: repoRoot, env: process.env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    const stderr = new LineCollector(gw.stderr);
    // Logged once the port is bound, before the servers are spawned.
    await stderr.waitForLine(/starting 1 server/, 10_000, 'gateway stderr');
    expect(stderr.text).not.toMatch(/listening on/);
    const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: INITIALIZE,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeTruthy();
    // It was answered after the server had started and the gateway listened.
    expect(stderr.text).toMatch(/initialize answered[\s\S]*listening on/);
    gw.kill('SIGTERM');
    await exited(gw);
  });
});

// The README's Inspector lines run for real: test/integration/install.test.ts.
