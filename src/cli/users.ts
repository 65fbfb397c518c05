// `switchboard users`: who has a stored credential for which per-user server, and the operator's
// two actions on them: revoke (one pair, or all of a user's; each one audited as credential.revoke
// via cli) and rotate (re-seal every record under the current key). Reads the credential store the
// config points at (the file, or Redis with state.redis). Prints kinds, dates and key ids: never a
// token or a secret.

import { randomBytes } from 'node:crypto';
import type { GatewayConfig } from '../config/types.js';
import { describeError } from '../errors.js';
import type { Logger } from '../log.js';
import { auditCredential, createAuditLog } from '../observability/audit.js';
import { Keyring } from '../state/credential-keys.js';
import type { CredentialStore } from '../state/credentials.js';
import { openCredentialStore } from '../state/open-credentials.js';
import { openStore } from '../state/open-store.js';
import type { StateStore } from '../state/store.js';
import { credentialsWhere } from './credentials-where.js';

export type UsersAction = 'list' | 'revoke' | 'rotate';

export interface UsersCommand {
  action: UsersAction;
  /** list: only this user's (--user); revoke: whose. */
  user?: string;
  /** revoke: only this server's. */
  server?: string;
  json: boolean;
}

export interface UsersIo {
  out(text: string): void;
  err(text: string): void;
}

/** One line of `users list`. */
export interface UserCredentialLine {
  user: string;
  server: string;
  /** oauth | secrets; undefined when the record does not open (no key, another key, altered). */
  kind?: 'oauth' | 'secrets';
  /** ISO times of the connect and of the last change (a refresh). */
  obtainedAt?: string;
  updatedAt?: string;
  /** The id of the key the record is sealed with (never the key). */
  keyId?: string;
  /** Why kind and dates are missing. */
  problem?: string;
}

export interface Opened {
  credentials: CredentialStore;
  /** Set when no key opens records: listing and revoking still work, without kinds and dates. */
  keyProblem?: string;
  close(): Promise<void>;
}

/**
 * The store the config names. Listing and revoking need no key (records are stored under their
 * names), so without one they go on with a throwaway keyring that opens nothing; rotating does.
 * Only `users connect` (`createKey`) makes a key, as the gateway's first start would: it writes a
 * record that must open later.
 */
export async function openCredentials(config: GatewayConfig, logger: Logger, needKey: boolean, env: NodeJS.ProcessEnv, createKey = false): Promise<Opened> {
  let state: StateStore | undefined;
  if (config.state.redis !== undefined) {
    state = await openStore(config, logger, { connectWaitMs: 3000 });
    if (state.health !== 'up') {
      await state.close();
      throw new Error(`${(await credentialsWhere(config, env)).store}: unreachable`);
    }
  }
  const options = { store: state, file: config.credentials.file, keyFile: config.credentials.keyFile, env, createKey };
  let credentials: CredentialStore;
  let keyProblem: string | undefined;
  try {
    credentials = await openCredentialStore(options);
  } catch (err) {
    if (needKey) {
      await state?.close();
      throw new Error(`no credentials key ${createKey ? 'to seal with' : 'to re-seal with'}: ${createKey ? describeError(err) : (await credentialsWhere(config, env)).key}`);
    }
    keyProblem = describeError(err);
    credentials = await openCredentialStore({ ...options, keyring: new Keyring(randomBytes(32)) });
  }
  return {
    credentials,
    keyProblem,
    close: async () => {
      await credentials.close();
      await state?.close();
    },
  };
}

async function lineOf(credentials: CredentialStore, entry: { user: string; server: string; keyId: string | undefined }, keyProblem: string | undefined): Promise<UserCredentialLine> {
  const line: UserCredentialLine = { user: entry.user, server: entry.server, ...(entry.keyId !== undefined ? { keyId: entry.keyId } : {}) };
  if (keyProblem !== undefined) return { ...line, problem: 'no key to open it' };
  try {
    const record = await credentials.get(entry.user, entry.server);
    if (!record) return { ...line, problem: 'revoked meanwhile' };
    return { ...line, kind: record.credential.kind, obtainedAt: new Date(record.obtainedAt).toISOString(), updatedAt: new Date(record.updatedAt).toISOString() };
  } catch (err) {
    return { ...line, problem: describeError(err) };
  }
}

/** By user, then server: the same order whatever the backend keeps (Redis hashes have none). */
const byName = <T extends { user: string; server: string }>(entries: T[]): T[] => entries.sort((a, b) => (a.user === b.user ? (a.server < b.server ? -1 : 1) : a.user < b.user ? -1 : 1));

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n');
}

async function list(opened: Opened, command: UsersCommand, where: string, io: UsersIo): Promise<number> {
  const entries = byName(await opened.credentials.list(command.user));
  const lines = await Promise.all(entries.map((e) => lineOf(opened.credentials, e, opened.keyProblem)));
  if (command.json) {
    io.out(`${JSON.stringify({ store: where, ...(opened.keyProblem ? { keyProblem: opened.keyProblem } : {}), credentials: lines }, null, 2)}\n`);
    return 0;
  }
  io.err(`credentials: ${where}\n`);
  if (opened.keyProblem && lines.length > 0) io.err(`switchboard: no usable credentials key (${opened.keyProblem}): kinds and dates are not shown\n`);
  if (lines.length === 0) {
    io.out(command.user !== undefined ? `${command.user} has no stored credentials\n` : 'no stored credentials\n');
    return 0;
  }
  const rows = lines.map((l) => [l.user, l.server, l.kind ?? '?', l.obtainedAt ?? '-', l.updatedAt ?? '-', l.keyId ?? '-', l.problem ?? '']);
  io.out(`${table([['USER', 'SERVER', 'KIND', 'OBTAINED', 'UPDATED', 'KEY', ''], ...rows]).replace(/ +$/gm, '')}\n`);
  return 0;
}

async function revoke(opened: Opened, config: GatewayConfig, logger: Logger, command: UsersCommand, io: UsersIo): Promise<number> {
  const user = command.user!;
  const servers = command.server !== undefined ? [command.server] : byName(await opened.credentials.list(user)).map((e) => e.server);
  const audit = createAuditLog({ file: config.sanitize.auditLog, logger });
  const revoked: string[] = [];
  try {
    for (const server of servers) {
      // The kind, for the audit entry, when a key opens the record; revoking needs none.
      const kind =
        opened.keyProblem === undefined
          ? await opened.credentials.get(user, server).then(
              (r) => r?.credential.kind,
              () => undefined,
            )
          : undefined;
      if (!(await opened.credentials.delete(user, server))) continue;
      auditCredential(audit, 'revoke', { user, server, via: 'cli', ...(kind ? { kind } : {}) });
      revoked.push(server);
    }
  } finally {
    await audit.close();
  }
  if (command.json) io.out(`${JSON.stringify({ user, revoked }, null, 2)}\n`);
  else if (revoked.length > 0) for (const server of revoked) io.out(`revoked ${user}'s credential for ${server}\n`);
  else io.err(command.server !== undefined ? `switchboard: ${user} has no credential for ${command.server}\n` : `switchboard: ${user} has no stored credentials\n`);
  return revoked.length > 0 ? 0 : 1;
}

async function rotate(opened: Opened, command: UsersCommand, io: UsersIo): Promise<number> {
  const result = await opened.credentials.rotate();
  if (command.json) io.out(`${JSON.stringify(result, null, 2)}\n`);
  else {
    io.out(`re-sealed ${result.rotated} credential${result.rotated === 1 ? '' : 's'} under the current key\n`);
    if (result.failed.length > 0) {
      io.out(`${result.failed.length} did not open with any key and were left as they are (revoke them, or add the key they need):\n`);
      for (const f of result.failed) io.out(`  ${f.user}  ${f.server}\n`);
    }
  }
  return result.failed.length > 0 ? 1 : 0;
}

/** Runs the command; resolves to the exit code (0 done; 1 nothing to revoke, or records no key opens). */
export async function runUsers(config: GatewayConfig, logger: Logger, command: UsersCommand, io: UsersIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const where = (await credentialsWhere(config, env)).store;
  const opened = await openCredentials(config, logger, command.action === 'rotate', env);
  try {
    if (command.action === 'revoke') return await revoke(opened, config, logger, command, io);
    if (command.action === 'rotate') return await rotate(opened, command, io);
    return await list(opened, command, where, io);
  } finally {
    await opened.close();
  }
}
