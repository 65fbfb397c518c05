// The audit trail of what the gateway changed or held back in what servers sent (sanitizing,
// pinning), and of what happened to users' credentials (connect, refresh, revoke, denied): JSON
// lines appended to a file (mode 0600), or warnings in the log. Each distinct finding is written
// once per process (credential events every time), and recording never throws, whatever the disk does.

import { createWriteStream, type WriteStream } from 'node:fs';

export interface AuditEntry {
  server: string;
  /** tool | prompt | resource | resourceTemplate | result | pin | code (a nested call of a run_code script) */
  kind: string;
  /** The server's original name or URI. */
  item: string;
  field?: string;
  change: string;
  why: string;
  /** Credential events: whose credential (never the credential itself). */
  user?: string;
  /** Credential events: oauth | secrets, when known. */
  credential?: string;
  /** Credential events: what did it (connect-page, cli, refresh, call). */
  via?: string;
}

/** What can happen to a user's credential for a server (issue 33). */
export type CredentialEvent = 'connect' | 'refresh' | 'revoke' | 'denied';

export interface CredentialAudit {
  user: string;
  server: string;
  /** oauth | secrets, when known. */
  kind?: 'oauth' | 'secrets';
  /** What did it: `connect-page`, `cli`, `refresh`, `call`... */
  via: string;
  /** Why, in words, when there is more to say than the event (e.g. why it was denied). Never a secret. */
  why?: string;
}

const DONE: Record<CredentialEvent, string> = { connect: 'connected', refresh: 'refreshed', revoke: 'revoked', denied: 'denied' };

/**
 * The audit entry of a credential event: kind `credential.connect|refresh|revoke|denied`, the
 * user and the server, never a token or secret. Such entries are written every time they happen.
 */
export function credentialEntry(event: CredentialEvent, a: CredentialAudit): AuditEntry {
  return {
    server: a.server,
    kind: `credential.${event}`,
    item: a.user,
    change: DONE[event],
    why: a.why ?? `via ${a.via}`,
    user: a.user,
    ...(a.kind !== undefined ? { credential: a.kind } : {}),
    via: a.via,
  };
}

/** Records a credential event in `audit` (see credentialEntry). */
export function auditCredential(audit: Pick<AuditLog, 'record'>, event: CredentialEvent, a: CredentialAudit): void {
  audit.record(credentialEntry(event, a));
}

/** Credential events are events, not findings a rebuild repeats: never deduplicated. */
const isEvent = (entry: AuditEntry): boolean => entry.kind.startsWith('credential.');

export interface AuditLog {
  record(entry: AuditEntry): void;
  /** Flushes and closes the file. Entries recorded afterwards go to the log. */
  close(): Promise<void>;
}

interface AuditLogger {
  /** For the trail of code-mode calls (kind "code"), which are not findings. */
  info?(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/**
 * Catalog rebuilds repeat the same findings; remembering this many distinct entries keeps them
 * from flooding the trail while bounding memory when results keep producing new ones.
 */
const MAX_REMEMBERED = 10_000;

/**
 * JSON lines appended to `file` (created with mode 0600) if given, else each entry goes to
 * `logger.warn({ audit: entry }, ...)`. Identical entries are written once per process. Never
 * throws on I/O errors (logs them once). Adds `time` (ISO).
 */
export function createAuditLog(options: { file?: string; logger: AuditLogger }): AuditLog {
  const { file, logger } = options;
  const seen = new Set<string>();
  let stream: WriteStream | undefined;
  // Once writing failed, or after close(), entries go to the logger: better late than lost.
  let fileUsable = file !== undefined;
  let errorLogged = false;

  const failed = (err: unknown) => {
    fileUsable = false;
    if (errorLogged) return;
    errorLogged = true;
    logger.error({ err, file }, `audit log ${file}: cannot write; audit entries go to the log from now on`);
  };

  const toLogger = (entry: AuditEntry) => {
    const what = `${entry.kind} ${entry.item}${entry.field ? ` ${entry.field}` : ''}`;
    const line = `audit: ${entry.server}: ${what}: ${entry.change}: ${entry.why}`;
    if (entry.kind === 'code' && logger.info) logger.info({ audit: entry }, line);
    else logger.warn({ audit: entry }, line);
  };

  const openStream = (): WriteStream | undefined => {
    try {
      // Opened lazily: a gateway that never changes anything does not create an empty file.
      stream = createWriteStream(file!, { flags: 'a', mode: 0o600 });
      stream.on('error', failed);
      return stream;
    } catch (err) {
      failed(err); // e.g. a path with a NUL byte throws synchronously
      return undefined;
    }
  };

  return {
    record(entry) {
      // Only the fields of an AuditEntry, in a fixed order: the key for "identical", and the line.
      const clean: AuditEntry = {
        server: String(entry.server),
        kind: String(entry.kind),
        item: String(entry.item),
        ...(entry.field !== undefined ? { field: String(entry.field) } : {}),
        change: String(entry.change),
        why: String(entry.why),
        ...(entry.user !== undefined ? { user: String(entry.user) } : {}),
        ...(entry.credential !== undefined ? { credential: String(entry.credential) } : {}),
        ...(entry.via !== undefined ? { via: String(entry.via) } : {}),
      };
      if (!isEvent(clean)) {
        const key = JSON.stringify(clean);
        if (seen.has(key)) return;
        if (seen.size >= MAX_REMEMBERED) seen.delete(seen.values().next().value!);
        seen.add(key);
      }

      const s = fileUsable ? (stream ?? openStream()) : undefined;
      if (!s || !fileUsable) return toLogger(clean);
      // The file opens asynchronously; an entry whose write fails (the folder does not exist, the
      // disk is full) reaches the logger through the callback instead of vanishing.
      s.write(`${JSON.stringify({ time: new Date().toISOString(), ...clean })}\n`, (err) => {
        if (err) {
          failed(err);
          toLogger(clean);
        }
      });
    },

    close() {
      fileUsable = false;
      const s = stream;
      stream = undefined;
      if (!s || s.destroyed) return Promise.resolve();
      // Resolves on success and on failure alike: closing the audit log never fails a shutdown.
      return new Promise<void>((resolve) => {
        s.once('close', () => resolve());
        s.end();
      });
    },
  };
}
