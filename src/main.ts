#!/usr/bin/env node
// The CLI entry: parses the command line, loads the config (exit 2 when invalid), runs `serve`
// (cli/serve.ts, which owns the signals) or `check`. process.exit lives here and in cli/serve.ts.

import { USAGE, UsageError, parseCli, type CliOptions } from './cli/args.js';
import { catalogReport, isDown, renderReport } from './cli/report.js';
import { fetchStatus, renderStatus, statusUrl } from './cli/status.js';
import { serve } from './cli/serve.js';
import { renderLockOutcome, writeLockFile } from './cli/lock.js';
import { DEFAULT_CONFIG_PATH, loadConfigFile } from './config/load.js';
import { ConfigError, type ClientProfile, type GatewayConfig } from './config/types.js';
import { renderSearch, searchReport } from './cli/search.js';
import { describeError } from './errors.js';
import { App } from './app/app.js';
import { createLogger } from './log.js';
import { GATEWAY_VERSION } from './protocol/mcp.js';

async function loadOrExit(options: CliOptions): Promise<GatewayConfig> {
  try {
    return await loadConfigFile(options.config ?? DEFAULT_CONFIG_PATH);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(err.message + '\n');
      process.exit(2);
    }
    throw err;
  }
}

async function check(options: CliOptions): Promise<void> {
  const config = await loadOrExit(options);
  const logger = createLogger({ level: options.logLevel ?? 'warn', format: options.logFormat });
  const app = new App(config, logger, { reconnect: false });
  const profile = profileOrExit(config, options.client);
  await app.start();
  // Exact o200k figures for the report; with no tool there is nothing to count.
  if (app.catalog.lists.tools.entries.length > 0) await app.exactTokens();
  const report = catalogReport(app, profile);
  await app.close();
  process.stdout.write(options.json ? JSON.stringify(report, null, 2) + '\n' : renderReport(report));
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

async function search(options: CliOptions): Promise<void> {
  const config = await loadOrExit(options);
  const profile = profileOrExit(config, options.client);
  const logger = createLogger({ level: options.logLevel ?? 'warn', format: options.logFormat });
  const app = new App(config, logger, { reconnect: false });
  await app.start();
  const report = await searchReport(app, options.query!, options.limit ?? 5, profile);
  await app.close();
  process.stdout.write(options.json ? JSON.stringify(report, null, 2) + '\n' : renderSearch(report));
  process.exit(0);
}

async function lock(options: CliOptions): Promise<void> {
  const config = await loadOrExit(options);
  const logger = createLogger({ level: options.logLevel ?? 'warn', format: options.logFormat });
  const app = new App(config, logger, { reconnect: false });
  await app.start();
  const outcome = await writeLockFile(app);
  await app.close();
  process.stdout.write(renderLockOutcome(outcome));
  process.exit(outcome.failed.length > 0 ? 1 : 0);
}

async function status(options: CliOptions): Promise<void> {
  const config = await loadOrExit(options);
  const url = statusUrl(config, options.http);
  try {
    const s = await fetchStatus(url, process.env.SWITCHBOARD_TOKEN);
    process.stdout.write(options.json ? JSON.stringify(s, null, 2) + '\n' : renderStatus(s));
    process.exit(s.servers.some(isDown) ? 1 : 0);
  } catch (err) {
    process.stderr.write(`switchboard: no gateway answered at ${url}: ${describeError(err)}\n`);
    process.exit(3);
  }
}

/** login and logout: exit 2 when the config names no such HTTP server. */
async function loginOrLogout(options: CliOptions): Promise<void> {
  const config = await loadOrExit(options);
  // Loaded here only: the OAuth libraries cost start-up time every other command would pay.
  const { LoginUsageError, loginTarget, runLogin, runLogout } = await import('./cli/login.js');
  let target;
  try {
    target = loginTarget(config, options.server!);
  } catch (err) {
    if (!(err instanceof LoginUsageError)) throw err;
    process.stderr.write(`switchboard: ${err.message}\n`);
    process.exit(2);
  }
  const io = { out: (t: string) => void process.stdout.write(t), err: (t: string) => void process.stderr.write(t) };
  process.exit(await (options.command === 'login' ? runLogin(target, io) : runLogout(target, io)));
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
      process.stdout.write(USAGE + '\n');
      return;
    case 'version':
      process.stdout.write(GATEWAY_VERSION + '\n');
      return;
    case 'serve': {
      const config = await loadOrExit(options);
      const logger = createLogger({ level: options.logLevel, format: options.logFormat });
      return serve(options, options.config ?? DEFAULT_CONFIG_PATH, config, logger);
    }
    case 'check':
      return check(options);
    case 'lock':
      return lock(options);
    case 'status':
      return status(options);
    case 'search':
      return search(options);
    case 'login':
    case 'logout':
      return loginOrLogout(options);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`switchboard: ${describeError(err)}\n`);
  process.exit(1);
});
