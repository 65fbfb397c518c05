#!/usr/bin/env node
// The CLI entry: parses the command line, finds and loads the config (exit 2 when invalid), and
// runs the command. process.exit lives here and in cli/serve.ts. Human output (progress, notes)
// goes to stderr through one Terminal, which the log shares; stdout carries the protocol (stdio)
// or the command's report.

import { USAGE, UsageError, parseCli, type CliOptions } from './cli/args.js';
import { serve } from './cli/serve.js';
import { Terminal } from './cli/terminal.js';
import { defaultConfigPath, loadConfigFile } from './config/load.js';
import { ConfigError, type ClientProfile, type ConfigProblem, type GatewayConfig } from './config/types.js';
import { describeError } from './errors.js';
import type { App } from './app/app.js';
import { createLogger, type Logger } from './log.js';
import { GATEWAY_VERSION } from './protocol/mcp.js';

// Each command's own modules (the app, the catalog report, the status client) are imported when
// it runs: start-up compiles only what the command in hand needs (bench/NOTES.md, start-up).

/** -c, else $SWITCHBOARD_CONFIG, else the config this installation ships (whatever the cwd). */
function configPath(options: CliOptions): string {
  return options.config ?? defaultConfigPath(import.meta.url);
}

/**
 * The config, or exit 2 with its problems. `faces.httpFace: false` (every command but `serve`
 * over HTTP, `status` and `login`): what only the HTTP face reads may be unset (a warning).
 */
async function loadOrExit(path: string, onNote: (message: string) => void, faces?: { httpFace: boolean; onWarning: (w: ConfigProblem) => void }): Promise<GatewayConfig> {
  try {
    return await loadConfigFile(path, undefined, onNote, faces);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

/** stderr as the commands use it, and the log on it (pretty lines go through the terminal). */
function output(options: CliOptions, defaultLevel?: string): { terminal: Terminal; logger: Logger } {
  const pretty = options.logFormat === 'pretty' || (options.logFormat === undefined && process.stderr.isTTY === true);
  const terminal = new Terminal(process.stderr, pretty && process.stderr.isTTY === true, !process.env.NO_COLOR);
  const logger = createLogger({ level: options.logLevel ?? defaultLevel, format: pretty ? 'pretty' : 'json', lines: (text) => terminal.line(text), color: terminal.color });
  return { terminal, logger };
}

/** A config warning as a line on stderr (commands whose report has no place for it). */
const warnLine = (w: ConfigProblem) => void process.stderr.write(`switchboard: warning: ${w.path ? `${w.path}: ` : ''}${w.message}\n`);

async function check(options: CliOptions): Promise<void> {
  const { terminal, logger } = output(options, 'warn');
  const warnings: ConfigProblem[] = [];
  const config = await loadOrExit(configPath(options), (note) => terminal.line(note), { httpFace: false, onWarning: (w) => warnings.push(w) });
  const profile = profileOrExit(config, options.client);
  const { renderCheck, runCheck } = await import('./cli/check.js');
  const report = await runCheck(config, logger, terminal, profile, warnings);
  process.stdout.write(renderCheck(report, options.json));
  process.exit(report.problems.length > 0 ? 1 : 0);
}

/** The client profile --client names, or exit 2 with the names there are. */
function profileOrExit(config: GatewayConfig, name: string | undefined): ClientProfile | undefined {
  if (name === undefined) return undefined;
  const profile = config.clients.find((c) => c.name === name);
  if (!profile) {
    process.stderr.write(`switchboard: no client named "${name}" in the config (clients: ${config.clients.map((c) => c.name).join(', ') || 'none'})\n`);
    process.exit(2);
  }
  return profile;
}

/** An app with every server started once and their lists settled, for a one-shot command. */
async function startedApp(config: GatewayConfig, logger: Logger): Promise<App> {
  const [{ App }, { listsSettled }] = await Promise.all([import('./app/app.js'), import('./cli/connect.js')]);
  const app = new App(config, logger, { reconnect: false });
  await app.start();
  await listsSettled(app, config.limits.startupWaitMs);
  return app;
}

async function search(options: CliOptions): Promise<void> {
  const { terminal, logger } = output(options, 'warn');
  const config = await loadOrExit(configPath(options), (note) => terminal.line(note), { httpFace: false, onWarning: warnLine });
  const profile = profileOrExit(config, options.client);
  const app = await startedApp(config, logger);
  const { renderSearch, searchReport, UnknownServers } = await import('./cli/search.js');
  const report = await searchReport(app, options.query!, options.limit ?? 5, profile, options.servers).catch(async (err: unknown) => {
    if (!(err instanceof UnknownServers)) throw err;
    await app.close();
    process.stderr.write(`switchboard: ${err.message}\n`);
    process.exit(2);
  });
  await app.close();
  process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : renderSearch(report));
  process.exit(0);
}

/** The script of `run`: its file, or stdin for `-`; exit 2 when it cannot be read. */
async function scriptText(file: string): Promise<string> {
  const { readFileSync } = await import('node:fs');
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (err) {
    process.stderr.write(`switchboard: cannot read the script ${file}: ${describeError(err)}\n`);
    process.exit(2);
  }
}

async function run(options: CliOptions): Promise<void> {
  const { terminal, logger } = output(options, 'warn');
  const loaded = await loadOrExit(configPath(options), (note) => terminal.line(note));
  const code = await scriptText(options.file!);
  const { inCodeMode, runFromShell } = await import('./cli/run.js');
  const config = inCodeMode(loaded, profileOrExit(loaded, options.client));
  const profile = profileOrExit(config, options.client);
  const app = await startedApp(config, logger);
  const outcome = await runFromShell(app, code, profile, (text) => terminal.line(text));
  await app.close();
  for (const line of outcome.logs) process.stderr.write(`${line}\n`);
  if (!outcome.ok) {
    process.stderr.write(`switchboard: ${outcome.message}\n`);
    process.exit(1);
  }
  if (outcome.truncated) process.stderr.write('switchboard: the result was cut to codeMode.maxOutputTokens; stdout holds its JSON text, cut\n');
  process.stdout.write(`${JSON.stringify(outcome.result, null, 2)}\n`);
  process.exit(0);
}

async function lock(options: CliOptions): Promise<void> {
  const { terminal, logger } = output(options, 'warn');
  const config = await loadOrExit(configPath(options), (note) => terminal.line(note), { httpFace: false, onWarning: warnLine });
  const app = await startedApp(config, logger);
  const { renderLockOutcome, writeLockFile } = await import('./cli/lock.js');
  const outcome = await writeLockFile(app);
  await app.close();
  process.stdout.write(renderLockOutcome(outcome));
  process.exit(outcome.failed.length > 0 ? 1 : 0);
}

/** Where to ask: the URL serve printed, --http, else the config's listen (any folder, no config needed). */
async function statusTarget(options: CliOptions): Promise<string> {
  const { statusUrlFor, statusUrlFromEndpoint } = await import('./cli/status.js');
  if (options.url !== undefined) {
    const url = statusUrlFromEndpoint(options.url);
    if (url === undefined) {
      process.stderr.write(`switchboard: "${options.url}" is not a URL (expected what serve printed, e.g. http://127.0.0.1:8808/mcp)\n`);
      process.exit(2);
    }
    return url;
  }
  if (options.http) return statusUrlFor(undefined, options.http);
  const chosen = options.config ?? process.env.SWITCHBOARD_CONFIG;
  if (chosen) return statusUrlFor(await loadOrExit(chosen, () => {}));
  // The shipped config's listen, or the default address if it cannot be read here.
  const config = await loadConfigFile(defaultConfigPath(import.meta.url)).catch(() => undefined);
  return statusUrlFor(config);
}

async function status(options: CliOptions): Promise<void> {
  const url = await statusTarget(options);
  const [{ fetchStatus, renderStatus }, { isDown }] = await Promise.all([import('./cli/status.js'), import('./cli/report.js')]);
  const outcome = await fetchStatus(url, process.env.SWITCHBOARD_TOKEN);
  switch (outcome.kind) {
    case 'ok':
      process.stdout.write(options.json ? `${JSON.stringify(outcome.status, null, 2)}\n` : renderStatus(outcome.status));
      return process.exit(outcome.status.servers.some(isDown) ? 1 : 0);
    case 'refused':
      process.stderr.write(`switchboard: the gateway at ${url} answered ${outcome.httpStatus}, ${outcome.message}\n`);
      return process.exit(4);
    case 'unreachable':
      process.stderr.write(`switchboard: no gateway answered at ${url}: ${outcome.message}\n`);
      return process.exit(3);
  }
}

/** What the CLI's commands print: their output on stdout, everything else on stderr. */
const io = { out: (t: string) => void process.stdout.write(t), err: (t: string) => void process.stderr.write(t) };

/**
 * registry search and add. The config is read as YAML text, not loaded: a file whose variables
 * are unset (as an added server's are until they are set) must still take another entry.
 */
async function registry(options: CliOptions): Promise<void> {
  const { readConfigText, registryAdd, registrySearch, registryUrl } = await import('./cli/registry.js');
  // add edits a file: never the demo config shipped inside the installed package by default.
  if (options.command === 'add' && options.config === undefined && !process.env.SWITCHBOARD_CONFIG?.trim()) {
    process.stderr.write('switchboard: add edits a config file: name it with -c FILE (or $SWITCHBOARD_CONFIG)\n');
    return process.exit(2);
  }
  const configFile = configPath(options);
  let url: string;
  try {
    url = registryUrl(options.registry, readConfigText(configFile));
  } catch (err) {
    process.stderr.write(`switchboard: ${configFile}: ${describeError(err)}\n`);
    return process.exit(2);
  }
  const code =
    options.command === 'add'
      ? await registryAdd(
          {
            spec: options.spec!,
            url,
            configFile,
            dryRun: options.dryRun ?? false,
            update: options.update ?? false,
            ...(options.localName !== undefined ? { name: options.localName } : {}),
          },
          io,
        )
      : await registrySearch({ text: options.query!, url, all: options.all ?? false, json: options.json, ...(options.cursor !== undefined ? { cursor: options.cursor } : {}) }, io);
  process.exit(code);
}

/** login and logout: exit 2 when the config names no such HTTP server. */
async function loginOrLogout(options: CliOptions): Promise<void> {
  const config = await loadOrExit(configPath(options), (note) => void process.stderr.write(`${note}\n`));
  // Loaded here only: the OAuth libraries cost start-up time every other command would pay.
  const { LoginUsageError, loginTarget, runLogin, runLogout } = await import('./cli/login.js');
  let target: ReturnType<typeof loginTarget>;
  try {
    target = loginTarget(config, options.server!);
  } catch (err) {
    if (!(err instanceof LoginUsageError)) throw err;
    process.stderr.write(`switchboard: ${err.message}\n`);
    process.exit(2);
  }
  process.exit(await (options.command === 'login' ? runLogin(target, io) : runLogout(target, io)));
}

/** `switchboard users`: list, revoke or rotate stored per-user credentials, or connect one. */
async function users(options: CliOptions): Promise<void> {
  const { logger } = output(options, 'warn');
  const config = await loadOrExit(configPath(options), (note) => void process.stderr.write(`${note}\n`), { httpFace: false, onWarning: warnLine });
  if (options.usersAction === 'connect') {
    // Loaded here only: the OAuth libraries cost start-up time every other command would pay.
    const { runUsersConnect } = await import('./cli/users-connect.js');
    return process.exit(await runUsersConnect(config, logger, { server: options.server!, ...(options.user !== undefined ? { user: options.user } : {}) }, { ...io, input: process.stdin }));
  }
  const { runUsers } = await import('./cli/users.js');
  process.exit(await runUsers(config, logger, { action: options.usersAction ?? 'list', user: options.user, server: options.server, json: options.json }, io));
}

async function main(argv: string[]): Promise<void> {
  let options: CliOptions;
  try {
    options = parseCli(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`switchboard: ${err.message}\n\n${USAGE}\n`);
      process.exit(2);
    }
    throw err;
  }
  switch (options.command) {
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      return;
    case 'version':
      process.stdout.write(`${GATEWAY_VERSION}\n`);
      return;
    case 'serve': {
      const { terminal, logger } = output(options);
      const path = configPath(options);
      // Only what the chosen face uses may fail the start: over stdio alone, an unset client token is a warning.
      const faces = { httpFace: !options.stdio || options.http !== undefined, onWarning: (w: ConfigProblem) => logger.warn(`${w.path}: ${w.message}`) };
      const config = await loadOrExit(path, (note) => logger.info(note), faces);
      return serve(options, path, config, logger, terminal, faces);
    }
    case 'check':
      return check(options);
    case 'lock':
      return lock(options);
    case 'status':
      return status(options);
    case 'search':
      return search(options);
    case 'run':
      return run(options);
    case 'login':
    case 'logout':
      return loginOrLogout(options);
    case 'users':
      return users(options);
    case 'registry-search':
    case 'add':
      return registry(options);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`switchboard: ${describeError(err)}\n`);
  process.exit(1);
});
