// `switchboard serve`: start every server, serve the catalog over HTTP and/or stdio, reload the
// config when the file changes (or on SIGHUP), and shut down gracefully on SIGINT/SIGTERM or
// when stdin closes in stdio mode: stop accepting, let calls in flight finish (up to a grace
// period), close sessions, end every server process.

import { loadConfigFile } from '../config/load.js';
import { ConfigError, type GatewayConfig } from '../config/types.js';
import { watchConfigFile } from '../config/watch.js';
import { describeError } from '../errors.js';
import { Gateway } from '../gateway.js';
import { bearerAuthenticator } from '../inbound/http-auth.js';
import { startHttpEndpoint, type HttpEndpoint } from '../inbound/http-endpoint.js';
import { startStdioEndpoint } from '../inbound/stdio-endpoint.js';
import type { Logger } from '../log.js';
import type { CliOptions } from './args.js';
import { describeServer, isDown } from './report.js';

export async function serve(options: CliOptions, configPath: string, config: GatewayConfig, logger: Logger): Promise<void> {
  const gateway = new Gateway(config, logger);
  let http: HttpEndpoint | undefined;
  let stdio: { stop(): void; close(): void } | undefined;
  let watcher: { close(): void } | undefined;
  let auth = bearerAuthenticator(config.clients);

  let stopping = false;
  const shutdown = async (why: string) => {
    if (stopping) {
      logger.warn('second signal: exiting now');
      process.exit(1); // the exit hook still kills every server process group
    }
    stopping = true;
    logger.info(`shutting down (${why})`);
    watcher?.close();
    http?.stopAccepting();
    stdio?.stop();
    // Calls in flight finish, and their answers are written out, within the grace period.
    const SHUTDOWN_GRACE_MS = gateway.config.limits.shutdownGraceMs;
    let graceTimer: NodeJS.Timeout | undefined;
    const grace = new Promise<false>((resolve) => (graceTimer = setTimeout(() => resolve(false), SHUTDOWN_GRACE_MS)));
    const finished = Promise.all([gateway.drain(SHUTDOWN_GRACE_MS), http?.drain()]).then(() => true);
    if (!(await Promise.race([finished, grace]))) logger.warn(`calls still in flight after ${SHUTDOWN_GRACE_MS / 1000}s; ending them`);
    clearTimeout(graceTimer);
    await Promise.allSettled([http?.close(), stdio?.close()]);
    await gateway.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  // SIGHUP's default action ends the process: the handler is in place before anything starts,
  // and a reload asked for during start-up runs once it is done.
  let started = false;
  let reloadAsked: string | undefined;
  const reload = async (why: string) => {
    if (stopping) return;
    if (!started) {
      reloadAsked = why;
      return;
    }
    let next: GatewayConfig;
    try {
      next = await loadConfigFile(configPath);
    } catch (err) {
      const message = err instanceof ConfigError ? err.message : describeError(err);
      logger.error(`config not reloaded (${why}); the running config stays:\n${message}`);
      return;
    }
    if (JSON.stringify(next.listen) !== JSON.stringify(gateway.config.listen)) logger.warn('listen changed: that takes a restart; everything else is applied now');
    auth = bearerAuthenticator(next.clients);
    const { added, removed, restarted } = await gateway.reload(next);
    const parts = [added.length && `started ${added.join(', ')}`, removed.length && `stopped ${removed.join(', ')}`, restarted.length && `restarted ${restarted.join(', ')}`].filter(Boolean);
    logger.info(`config reloaded (${why}): ${parts.length ? parts.join('; ') : 'no server changed'}`);
  };
  process.on('SIGHUP', () => void reload('SIGHUP'));

  logger.info(`starting ${config.servers.length} server${config.servers.length === 1 ? '' : 's'}`);
  await gateway.start(config.limits.startupWaitMs);
  for (const s of gateway.summary()) {
    if (isDown(s)) logger.error(describeServer(s));
    else logger.info(describeServer(s));
  }
  const lists = gateway.catalog.lists;
  logger.info(`catalog: ${lists.tools.entries.length} tools, ${lists.prompts.entries.length} prompts, ${lists.resources.entries.length} resources, ${lists.resourceTemplates.entries.length} templates`);

  if (options.stdio) {
    const l = config.limits;
    stdio = startStdioEndpoint(gateway, { maxMessageBytes: l.maxMessageBytes, maxDepth: l.maxDepth, writeBufferBytes: l.writeBufferBytes, principal: config.stdioClient, onEnd: () => void shutdown('stdin closed') });
    logger.info('serving one client on stdio');
  }
  if (!options.stdio || options.http) {
    const listen = { ...config.listen, ...options.http };
    const l = config.limits;
    http = await startHttpEndpoint(gateway, {
      ...listen,
      maxMessageBytes: l.maxMessageBytes,
      maxDepth: l.maxDepth,
      maxSessions: l.maxSessions,
      sessionIdleTimeoutMs: l.sessionIdleTimeoutMs,
      maxConnections: l.maxConnections,
      requestTimeoutMs: l.requestTimeoutMs,
      writeBufferBytes: l.writeBufferBytes,
      logger: logger.child({ inbound: 'http' }),
      // Looked up per request, so a reload that adds or changes tokens applies to new requests.
      authenticate: (header) => auth?.(header),
      isOperator: (principal) => gateway.config.clients.some((c) => c.name === principal && c.operator),
      status: () => ({ servers: gateway.summary(), sessions: gateway.sessionCount }),
    });
    logger.info(`listening on ${http.url}`);
  }

  watcher = watchConfigFile(configPath, () => void reload('file changed'));
  started = true;
  if (reloadAsked) void reload(reloadAsked);
}
