#!/usr/bin/env node
// The CLI: `serve` and `check`. Signals and the only process.exit live here.

import { USAGE, UsageError, parseCli, type CliOptions } from './cli/args.js';
import { catalogReport, describeServer, renderReport } from './cli/report.js';
import { DEFAULT_CONFIG_PATH, loadConfigFile } from './config/load.js';
import { ConfigError, type GatewayConfig } from './config/types.js';
import { describeError } from './errors.js';
import { Gateway } from './gateway.js';
import { startHttpEndpoint } from './inbound/http-endpoint.js';
import { startStdioEndpoint } from './inbound/stdio-endpoint.js';
import { createLogger, type Logger } from './log.js';
import { GATEWAY_VERSION } from './mcp/protocol.js';

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

async function serve(options: CliOptions): Promise<void> {
  const config = await loadOrExit(options);
  const logger = createLogger({ level: options.logLevel, format: options.logFormat });
  const gateway = new Gateway(config, logger);

  let stopping = false;
  const closers: (() => Promise<void> | void)[] = [];
  const shutdown = async (why: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`shutting down (${why})`);
    for (const close of closers) await Promise.resolve(close()).catch((err) => logger.warn({ err: describeError(err) }, 'close failed'));
    await gateway.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  logger.info(`starting ${config.servers.length} server${config.servers.length === 1 ? '' : 's'}`);
  await gateway.start();
  for (const s of gateway.summary()) {
    if (s.state === 'ready') logger.info(describeServer(s));
    else if (s.state === 'failed') logger.error(describeServer(s));
    else logger.info(describeServer(s));
  }
  const lists = gateway.catalog.lists;
  logger.info(`catalog: ${lists.tools.entries.length} tools, ${lists.prompts.entries.length} prompts, ${lists.resources.entries.length} resources, ${lists.resourceTemplates.entries.length} templates`);

  if (options.stdio) {
    const endpoint = startStdioEndpoint(gateway, { maxMessageBytes: config.limits.maxMessageBytes, onEnd: () => void shutdown('stdin closed') });
    closers.push(() => endpoint.close());
    logger.info('serving one client on stdio');
  }
  if (!options.stdio || options.http) {
    const listen = { ...config.listen, ...options.http };
    const endpoint = await startHttpEndpoint(gateway, { ...listen, maxMessageBytes: config.limits.maxMessageBytes, logger: logger.child({ inbound: 'http' }) });
    closers.push(() => endpoint.close());
    logger.info(`listening on ${endpoint.url}`);
  }
}

async function check(options: CliOptions): Promise<void> {
  const config = await loadOrExit(options);
  const logger = createLogger({ level: options.logLevel ?? 'warn', format: options.logFormat });
  const gateway = new Gateway(config, logger);
  await gateway.start();
  const report = catalogReport(gateway);
  await gateway.close();
  process.stdout.write(options.json ? JSON.stringify(report, null, 2) + '\n' : renderReport(report));
  process.exit(report.problems.length > 0 ? 1 : 0);
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
    case 'serve':
      return serve(options);
    case 'check':
      return check(options);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`switchboard: ${describeError(err)}\n`);
  process.exit(1);
});
