// The one way the gateway gets its StateStore: memory without `state.redis`, Redis with it. The Redis
// store (and node-redis with it) is loaded by a dynamic import, so a gateway without a store never
// loads it and the bundle keeps it in a chunk of its own.

import { readFileSync } from 'node:fs';
import type { GatewayConfig } from '../config/types.js';
import type { RedisTls } from './redis-connection.js';
import type { Logger } from '../log.js';
import { MemoryStore } from './memory-store.js';
import { maskRedisUrl } from './redis-url.js';
import type { StateStore } from './store.js';

/** The contents of state.tls's files; a file that cannot be read stops the start, saying which. */
function readTls(tls: GatewayConfig['state']['tls']): RedisTls | undefined {
  if (tls === undefined) return undefined;
  const out: { ca?: Buffer; cert?: Buffer; key?: Buffer } = {};
  for (const [what, file] of [
    ['ca', tls.caFile],
    ['cert', tls.certFile],
    ['key', tls.keyFile],
  ] as const) {
    if (file === undefined) continue;
    try {
      out[what] = readFileSync(file);
    } catch (err) {
      throw new Error(`state.tls.${what}: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
  }
  return out;
}

export interface OpenStoreOptions {
  /** How long to wait for Redis at start before serving anyway with the store 'down' (default 5 s). */
  readonly connectWaitMs?: number;
  /** The longest one Redis command may take (default 2 s). */
  readonly commandTimeoutMs?: number;
}

/**
 * The store `config.state` names. With Redis, resolves once it is reachable or after connectWaitMs:
 * a replica starts while Redis is down (it keeps retrying; health tells when it is up).
 */
export async function openStore(
  config: { readonly state: GatewayConfig['state']; readonly listen: { readonly stateKey?: string | undefined } },
  logger: Logger,
  options: OpenStoreOptions = {},
): Promise<StateStore> {
  const { state } = config;
  if (state.redis === undefined) return new MemoryStore({ maxEvents: state.maxEvents, maxEventBytes: state.maxEventBytes });
  const { RedisStore } = await import('./redis-store.js');
  const store = new RedisStore({
    url: state.redis,
    tls: readTls(state.tls),
    keyPrefix: state.keyPrefix,
    maxEvents: state.maxEvents,
    maxEventBytes: state.maxEventBytes,
    heartbeatMs: state.heartbeatMs,
    commandTimeoutMs: options.commandTimeoutMs,
    stateKey: config.listen.stateKey,
    logger,
  });
  const health = await store.start(options.connectWaitMs ?? 5000);
  if (health === 'down') logger.warn({ redis: maskRedisUrl(state.redis), error: store.lastError }, 'state store: Redis is not reachable yet; serving, and new sessions are refused until it is');
  return store;
}
