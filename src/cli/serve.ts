// `switchboard serve`: the process around the app. Starts it, opens its faces, reloads the config
// when the file changes (or on SIGHUP), and shuts down gracefully on SIGINT/SIGTERM or when stdin
// closes in stdio mode: drain (calls in flight finish, up to limits.shutdownGrace), close, exit.
// Signals and process.exit live here and nowhere else. Start-up order: the HTTP port is bound
// first (in use: said at once, nothing started), then the stdio servers are spawned, and the
// app's modules are loaded (compiled) while those children boot. A stdio client that leaves
// before anything was served (its input ends, empty) ends start-up at once.

import type { App } from '../app/app.js';
import { loadConfigFile, type ParseOptions } from '../config/load.js';
import { ConfigError, type GatewayConfig } from '../config/types.js';
import { describeError } from '../errors.js';
import { bindFailure, bindPort, type BoundPort } from '../inbound/http-bind.js';
import type { Logger } from '../log.js';
import type { CliOptions } from './args.js';
import { spawnServersEarly } from './early-spawn.js';
import type { Terminal } from './terminal.js';

export async function serve(
  options: CliOptions,
  configPath: string,
  config: GatewayConfig,
  logger: Logger,
  terminal: Terminal,
  /** How the config is read (again on reload): whether the HTTP face is open. */
  faces?: Pick<ParseOptions, 'httpFace' | 'onWarning'>,
): Promise<void> {
  let app: App | undefined;
  let watcher: { close(): void } | undefined;

  let stopping = false;
  const shutdown = async (why: string) => {
    if (stopping) {
      logger.warn('second signal: exiting now');
      process.exit(1); // the exit hook still kills every server process group
    }
    stopping = true;
    logger.info(`shutting down (${why})`);
    // Still loading: nothing to drain; the exit hook kills the servers spawned so far.
    if (!app) process.exit(0);
    watcher?.close();
    const grace = app.config.limits.shutdownGraceMs;
    if (!(await app.drain(grace))) logger.warn(`calls still in flight after ${grace / 1000}s; ending them`);
    await app.close();
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
      next = await loadConfigFile(configPath, undefined, undefined, faces);
    } catch (err) {
      const message = err instanceof ConfigError ? err.message : describeError(err);
      logger.error(`config not reloaded (${why}); the running config stays:\n${message}`);
      return;
    }
    const plan = await app!.reload(next);
    if (plan.listenChanged) logger.warn('listen changed: that takes a restart; everything else is applied now');
    if (plan.stateChanged) logger.warn('state changed: the store is opened at start, so that takes a restart; everything else is applied now');
    if (plan.credentialsChanged) logger.warn('credentials changed: the credential store and the connect pages are set up at start, so that takes a restart; everything else is applied now');
    const names = (servers: { name: string }[]) => servers.map((s) => s.name).join(', ');
    const parts = [
      plan.added.length && `started ${names(plan.added)}`,
      plan.removed.length && `stopped ${plan.removed.join(', ')}`,
      plan.restarted.length && `restarted ${names(plan.restarted)}`,
    ].filter(Boolean);
    logger.info(`config reloaded (${why}): ${parts.length ? parts.join('; ') : 'no server changed'}`);
  };
  process.on('SIGHUP', () => void reload('SIGHUP'));

  // Bind first: a port in use is reported before any server process exists.
  const wantsHttp = !options.stdio || options.http !== undefined;
  let bound: BoundPort | undefined;
  if (wantsHttp) {
    const host = options.http?.host ?? config.listen.host;
    const port = options.http?.port ?? config.listen.port;
    try {
      bound = await bindPort(host, port, config.limits.maxConnections);
    } catch (err) {
      logger.error(bindFailure(err, host, port));
      process.exit(1);
    }
  }
  // A client that closes our input before sending anything wants nothing: stop now rather than
  // after every server has started (see watchEmptyEnd).
  const input = options.stdio ? watchEmptyEnd(process.stdin, () => void shutdown('stdin closed before anything was sent')) : undefined;

  logger.info(`starting ${config.servers.length} server${config.servers.length === 1 ? '' : 's'} from ${configPath}`);
  const early = await spawnServersEarly(config);
  if (stopping) return;
  const [{ App }, { startWithProgress }, { watchConfigFile }] = await Promise.all([import('../app/app.js'), import('./connect.js'), import('../config/watch.js')]);
  app = new App(config, logger);
  // A line per server as it connects (spinners on a terminal); one still starting after
  // limits.startupWait is reported when it settles, after serving has begun.
  const { progress } = await startWithProgress(
    app,
    terminal,
    {
      done: (text, down) => (down ? logger.error(text) : logger.info(text)),
      note: (text) => logger.info(text),
    },
    config.limits.startupWaitMs,
  );
  void early.dropUnclaimed();
  progress.stopSpinning();
  if (stopping) return; // the client left while the servers started
  for (const name of progress.waiting) logger.warn(`${name}: still connecting after ${config.limits.startupWaitMs / 1000}s; it joins the catalog when ready`);
  const lists = app.catalog.lists;
  logger.info(
    `catalog: ${lists.tools.entries.length} tools, ${lists.prompts.entries.length} prompts, ${lists.resources.entries.length} resources, ${lists.resourceTemplates.entries.length} templates`,
  );

  input?.release();
  const url = await app.listen({
    stdio: options.stdio ? { onEnd: () => void shutdown('stdin closed') } : undefined,
    http: wantsHttp ? { ...options.http, bound } : undefined,
  });
  if (options.stdio) logger.info('serving one client on stdio');
  if (url) logger.info(`listening on ${url}`);

  watcher = watchConfigFile(configPath, () => void reload('file changed'));
  started = true;
  if (reloadAsked) void reload(reloadAsked);
}

/**
 * Watches a stdio client's input before the stdio face reads it: `onEmptyEnd` is called if the
 * input ends with nothing in it. Nothing is consumed: a paused stream emits 'end' early only
 * when it holds no data, so a client that sent requests and closed still gets its answers.
 */
function watchEmptyEnd(input: NodeJS.ReadStream, onEmptyEnd: () => void): { release(): void } {
  const readable = () => {
    if (input.readableLength === 0) input.read(0); // at the end: lets 'end' fire
  };
  input.on('readable', readable);
  input.once('end', onEmptyEnd);
  return {
    /** The stdio face reads from here on (and hears the end itself). */
    release() {
      input.off('readable', readable);
      input.off('end', onEmptyEnd);
    },
  };
}
