// The one home of pino. Logs go to stderr (fd 2) only: in stdio mode stdout is the protocol.
// JSON lines when stderr is not a terminal (machines read them); pretty lines in a terminal.

import { createRequire } from 'node:module';
import { pino, type Logger } from 'pino';

export type { Logger };

export interface LogOptions {
  level?: string;
  /** `pretty` | `json`; default: pretty when stderr is a TTY. */
  format?: 'pretty' | 'json';
}

export function createLogger(options: LogOptions = {}): Logger {
  const level = options.level ?? process.env.SWITCHBOARD_LOG_LEVEL ?? process.env.LOG_LEVEL ?? 'info';
  const format = options.format ?? (process.stderr.isTTY ? 'pretty' : 'json');
  const base = {
    level,
    base: undefined, // no pid/hostname on every line: one process, one host
    // Secrets must never reach a log line, even by accident through a logged object.
    redact: { paths: ['headers.authorization', 'headers.Authorization', '*.headers.authorization', 'env', '*.env', 'token'], censor: '[redacted]' },
  };
  if (format === 'pretty') {
    // Only a terminal needs it: loading it costs ~10 MB that a daemon never uses.
    const pretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
    const stream = pretty({ destination: 2, sync: true, colorize: true, ignore: 'pid,hostname', translateTime: 'HH:MM:ss.l' });
    return pino(base, stream);
  }
  return pino(base, pino.destination({ fd: 2, sync: true }));
}

/** A logger that drops everything: for library use and tests. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
