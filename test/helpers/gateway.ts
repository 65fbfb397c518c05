// Starting the built gateway CLI (dist/main.js) for integration tests.
//
//   const gw = await startGateway(yamlServers([fixtureServer('echo', 'echo')]));
//   const client = await connectHttpClient(gw.url);
//   ...
//   await gw.stop();            // or let cleanup() do it
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import { gatewayMain, nodeBin, repoRoot } from './paths.js';
import { LineCollector, exited, spawnTracked, terminate, trackDir, type ExitInfo } from './processes.js';

export interface GatewayOptions {
  /** Extra CLI arguments after `serve -c FILE ...`. */
  args?: string[];
  /** Extra environment variables (merged over process.env). */
  env?: Record<string, string>;
  /** 'http' (default): `--http 127.0.0.1:0`, waits for the URL. 'stdio': `--stdio`, no waiting. */
  mode?: 'http' | 'stdio';
  /** How long to wait for "listening on http://..." (default 15000 ms). */
  startTimeoutMs?: number;
}

export interface GatewayProcess {
  proc: ChildProcess;
  pid: number;
  /** The temp dir holding the config (removed by cleanup()). */
  dir: string;
  configPath: string;
  /** stderr, one entry per line, as it arrives. */
  stderrLines: string[];
  /** Resolves with the first stderr line matching (past or future); rejects on exit / timeout. */
  waitForStderr(re: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves when the process exits. */
  exited: Promise<ExitInfo>;
  /** SIGTERM, SIGKILL after 5 s; resolves with how it exited. */
  stop(): Promise<ExitInfo>;
}

export interface HttpGateway extends GatewayProcess {
  /** The MCP endpoint the gateway logged, e.g. http://127.0.0.1:41234/mcp */
  url: string;
}

/** Matches the URL in a "listening on http://..." log line (plain text or inside pino JSON). */
const LISTENING_RE = /listening on (https?:\/\/[^\s"'\\,]+)/;

export function startGateway(configYaml: string, options?: GatewayOptions & { mode?: 'http' }): Promise<HttpGateway>;
export function startGateway(configYaml: string, options: GatewayOptions & { mode: 'stdio' }): Promise<GatewayProcess>;
export async function startGateway(configYaml: string, options: GatewayOptions = {}): Promise<HttpGateway | GatewayProcess> {
  const { args = [], env = {}, mode = 'http', startTimeoutMs = 15_000 } = options;
  assertBuilt();
  const dir = trackDir(await mkdtemp(path.join(os.tmpdir(), 'switchboard-test-')));
  const configPath = path.join(dir, 'switchboard.yaml');
  await writeFile(configPath, configYaml);

  const cliArgs = [gatewayMain, 'serve', '-c', configPath];
  if (mode === 'stdio') cliArgs.push('--stdio');
  else if (!args.includes('--http')) cliArgs.push('--http', '127.0.0.1:0');
  cliArgs.push(...args);

  // detached: the gateway leads its own process group, so cleanup() can kill its children too.
  const proc = spawnTracked(nodeBin, cliArgs, {
    cwd: repoRoot,
    // "listening on" is an info line: make sure a developer's SWITCHBOARD_LOG_LEVEL=warn cannot hide it.
    env: { ...process.env, SWITCHBOARD_LOG_LEVEL: 'info', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const stderr = new LineCollector(proc.stderr);
  const exitedPromise = exited(proc);
  if (mode === 'http') proc.stdout?.resume(); // nothing expected there; never let it fill up

  const handle: GatewayProcess = {
    proc,
    pid: proc.pid ?? -1,
    dir,
    configPath,
    stderrLines: stderr.lines,
    waitForStderr: (re, timeoutMs = 10_000) => stderr.waitForLine(re, timeoutMs, 'gateway stderr'),
    exited: exitedPromise,
    stop: () => terminate(proc, 5000),
  };
  if (mode === 'stdio') return handle;

  const url = await new Promise<string>((resolve, reject) => {
    let settled = false;
    const finish = (err: Error | undefined, value?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stderr.off('line', onLine);
      if (err) reject(err);
      else resolve(value!);
    };
    const onLine = (line: string) => {
      const m = LISTENING_RE.exec(line);
      if (m) finish(undefined, m[1]);
    };
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      finish(new Error(`gateway did not log "listening on http://" within ${startTimeoutMs} ms.\nstderr:\n${stderr.text}`));
    }, startTimeoutMs);
    stderr.on('line', onLine);
    proc.once('error', (err) => finish(new Error(`could not spawn the gateway: ${err.message}`)));
    exitedPromise.then(async ({ code, signal }) => {
      await stderr.ended(1000); // its last lines may arrive just after 'exit'
      finish(new Error(`gateway exited (code ${code}, signal ${signal}) before listening.\nstderr:\n${stderr.text}`));
    });
    for (const line of stderr.lines) onLine(line);
  });
  return { ...handle, url };
}

/**
 * Parameters for the SDK's StdioClientTransport to run the gateway in stdio mode:
 *   const client = await connectStdioClient(stdioGatewayParams(yaml));
 * The config goes to a fresh temp dir (removed by cleanup()).
 */
export function stdioGatewayParams(configYaml: string, options: { args?: string[]; env?: Record<string, string> } = {}): StdioServerParameters & { cwd: string; stderr: 'pipe' } {
  assertBuilt();
  const dir = trackDir(mkdtempSync(path.join(os.tmpdir(), 'switchboard-test-')));
  const file = path.join(dir, 'switchboard.yaml');
  writeFileSync(file, configYaml);
  return {
    command: nodeBin,
    args: [gatewayMain, 'serve', '--stdio', '-c', file, ...(options.args ?? [])],
    cwd: repoRoot,
    stderr: 'pipe',
    // The SDK passes only a minimal default environment unless env is given.
    env: { ...(process.env as Record<string, string>), ...options.env },
  };
}

function assertBuilt(): void {
  if (!existsSync(gatewayMain)) {
    throw new Error(`${gatewayMain} does not exist: run \`npm run build\` before the integration tests`);
  }
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI once to its end: `args`, then `-c FILE` when `configText` is given (written
 * to a temp `fileName`), in `cwd`, with `env` over this process's environment less
 * SWITCHBOARD_CONFIG (so the command reads the config it is given, or none).
 */
export function runCli(args: string[], configText?: string, env: Record<string, string> = {}, cwd = repoRoot, fileName = 'switchboard.yaml'): Promise<CliRun> {
  const extra: string[] = [];
  if (configText !== undefined) {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'switchboard-cli-')), fileName);
    writeFileSync(file, configText);
    extra.push('-c', file);
  }
  const { SWITCHBOARD_CONFIG: _chosen, ...inherited } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(nodeBin, [gatewayMain, ...args, ...extra], { cwd, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
