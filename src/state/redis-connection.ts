// node-redis as the Redis store uses it: two connections (commands, and a duplicate for pub/sub)
// that never queue while Redis is away, reconnect with jittered backoff, and report their state;
// scripts by EVALSHA; a deadline on every answer; which error replies mean "cannot serve now".

import { createClient, ErrorReply } from '@redis/client';
import type { Script } from './redis-scripts.js';

/** What a rediss:// connection trusts and shows (state.tls, the files' contents): all optional. */
export interface RedisTls {
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
}

/** The two connections of one store; nothing is connected yet. */
export function connections(url: string, timeoutMs: number, tls: RedisTls = {}) {
  const client = createClient({
    url,
    // Reject while reconnecting instead of queueing: a replica must answer 503 now, not in minutes.
    disableOfflineQueue: true,
    commandOptions: { timeout: timeoutMs },
    maintNotifications: 'disabled',
    socket: {
      // With a rediss:// URL node-redis speaks TLS; these add a private CA and a client certificate.
      ...(tls.ca ? { ca: tls.ca } : {}),
      ...(tls.cert ? { cert: tls.cert } : {}),
      ...(tls.key ? { key: tls.key } : {}),
      connectTimeout: timeoutMs,
      // Quick at first (a Redis restart takes about a second), then at most every 2 s, with jitter
      // so that replicas do not all knock at once.
      reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 2000) + Math.floor(Math.random() * 100),
    },
  });
  return { client, sub: client.duplicate() };
}

export type Client = ReturnType<typeof connections>['client'];

/** Tells `set` whether `client` is ready, and `onError` every error it reports. */
export function watch(client: Client, set: (ready: boolean) => void, onError: (message: string) => void): void {
  client.on('ready', () => set(true));
  client.on('reconnecting', () => set(false));
  client.on('end', () => set(false));
  // Without an 'error' listener node-redis's EventEmitter would throw; the message is kept for the log.
  client.on('error', (err: unknown) => {
    onError(err instanceof Error ? err.message : String(err));
    set(false);
  });
}

/**
 * Error replies that say Redis cannot serve now rather than that the command is wrong: a replica
 * after failover (READONLY), a restart loading its data, a full memory, a busy script, lost auth.
 */
const UNAVAILABLE = /^(READONLY|LOADING|MASTERDOWN|BUSY|OOM|NOAUTH|WRONGPASS|NOPERM|TRYAGAIN|CLUSTERDOWN)\b/;

/** Whether `err` is about the command (a bug to surface as is) rather than Redis being unable to serve. */
export function isCommandError(err: unknown): boolean {
  return err instanceof ErrorReply && !UNAVAILABLE.test(err.message);
}

/**
 * `sent`, or a rejection after `ms`. node-redis's own timeout covers a command only until it is
 * written: a Redis that stops answering (paused, overloaded, a half-open connection) would
 * otherwise keep the caller waiting for as long as it stays silent.
 */
export function timed<T>(sent: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([sent, late]).finally(() => clearTimeout(timer));
}

/** EVALSHA, or EVAL once per Redis that has not seen the script yet (started after this replica, say). */
export async function runScript(client: Client, script: Script, keys: string[], args: (string | number)[]): Promise<unknown> {
  const rest = [String(keys.length), ...keys, ...args.map(String)];
  try {
    return await client.sendCommand(['EVALSHA', script.sha, ...rest]);
  } catch (err) {
    if (err instanceof ErrorReply && err.message.startsWith('NOSCRIPT')) return client.sendCommand(['EVAL', script.source, ...rest]);
    throw err;
  }
}
