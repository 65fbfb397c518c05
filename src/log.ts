// The one home of pino. Logs go to stderr (fd 2) only: in stdio mode stdout is the protocol.
// JSON lines when stderr is not a terminal (machines read them); short readable lines on a
// terminal, where a server's own stderr stays apart, under its name.

import { pino, type Logger } from 'pino';

export type { Logger };

export interface LogOptions {
  level?: string;
  /** `pretty` | `json`; default: pretty when stderr is a TTY. */
  format?: 'pretty' | 'json';
  /** Where pretty lines go, one call per line without its newline (default: stderr). */
  lines?: (text: string) => void;
  /** Colour the pretty lines (default: when stderr is a TTY and NO_COLOR is not set). */
  color?: boolean;
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
    const color = options.color ?? (process.stderr.isTTY === true && !process.env.NO_COLOR);
    const out = options.lines ?? ((text: string) => process.stderr.write(`${text}\n`));
    // pino has already redacted and serialized the line: only its shape changes here.
    return pino(base, { write: (json: string) => out(prettyLine(json, color)) });
  }
  return pino(base, pino.destination({ fd: 2, sync: true }));
}

/** A logger that drops everything: for library use and tests. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

const LEVELS: Record<number, { label: string; color: string }> = {
  10: { label: 'trace: ', color: '2' },
  20: { label: 'debug: ', color: '2' },
  30: { label: '', color: '' },
  40: { label: 'warning: ', color: '33' },
  50: { label: 'error: ', color: '31' },
  60: { label: 'fatal: ', color: '31' },
};

/**
 * One pino JSON line as a person reads it: `warning: memory: server down (retryInMs=500)`. A
 * server's stderr line is indented under its name (`  memory │ …`), dimmed: it is the server
 * talking, not the gateway. No timestamp: the terminal shows lines as they come.
 */
export function prettyLine(json: string, color = false): string {
  let entry: unknown;
  try {
    entry = JSON.parse(json);
  } catch {
    return json.trimEnd();
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return json.trimEnd();
  const { level, time: _time, msg, server, stream, ...fields } = entry as Record<string, unknown>;
  const paint = (code: string, text: string) => (color && code ? `\x1b[${code}m${text}\x1b[0m` : text);
  const message = typeof msg === 'string' ? msg : msg === undefined ? '' : JSON.stringify(msg);
  if (stream === 'stderr' && typeof server === 'string') return paint('2', `  ${server} │ ${message}`);
  const { label, color: code } = LEVELS[level as number] ?? { label: `${String(level)}: `, color: '' };
  const who = typeof server === 'string' && !message.startsWith(`${server}:`) ? `${server}: ` : '';
  const extra = Object.entries(fields).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  const tail = extra.length > 0 ? ` ${paint('2', `(${extra.join(', ')})`)}` : '';
  return paint(code, label + who + message) + tail;
}
