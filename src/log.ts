// The one home of pino. Logs go to stderr (fd 2) only: in stdio mode stdout is the protocol.
// JSON lines when stderr is not a terminal (machines read them); pretty lines in a terminal.

import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';

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
    const stream = pretty({ destination: 2, sync: true, colorize: true, ignore: 'pid,hostname', translateTime: 'HH:MM:ss.l' });
    return pino(base, stream);
  }
  return pino(base, pino.destination({ fd: 2, sync: true }));
}

/** A logger that drops everything: for library use and tests. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
