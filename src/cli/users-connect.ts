// `switchboard users connect SERVER [--user USER]`: a user's first connect from the terminal. The
// only way the local user of a stdio gateway (or an operator bootstrapping the listing connection
// of a per-user server) can store a credential before any tool of that server is listed, since the
// connect pages are otherwise reached only through a link a call to a listed tool hands out.
// Secrets are read without echo on a terminal (from stdin as NAME=value lines otherwise); OAuth is
// the login `switchboard login` runs (loopback redirect, URL on stderr), its tokens stored for the
// user. The record goes through the configured CredentialStore, so a running gateway hears it.
// Invariants: nothing is stored unless every secret the server needs was given and none unknown;
// no secret or token reaches stdout, stderr, a log line or the audit entry.

import type { GatewayConfig, HttpServerConfig, ServerConfig } from '../config/types.js';
import { describeError } from '../errors.js';
import type { Logger } from '../log.js';
import { auditCredential, createAuditLog } from '../observability/audit.js';
import { AuthError, browserOpener, login, MemoryTokenStore, tokenStoreFor, type LoginDeps, type StoredTokens, type TokenStore } from '../outbound/auth/index.js';
import type { Credential } from '../state/credentials.js';
import { readSecrets, type SecretInput } from './secret-input.js';
import { openCredentials, type UsersIo } from './users.js';

export interface ConnectCommand {
  server: string;
  /** Whose credential (--user); default: credentials.localUser. */
  user?: string;
}

export interface ConnectIo extends UsersIo {
  /** Where secrets are read from (a terminal: without echo). */
  input: SecretInput;
  /** OAuth login overrides (tests); by default the URL goes to stderr and to a browser when there is one. */
  deps?: LoginDeps;
}

/** A refusal with its message: exit 1, nothing stored. */
class ConnectRefused extends Error {}

type PerUserServer = ServerConfig & { perUser: NonNullable<ServerConfig['perUser']> };

function perUserServer(config: GatewayConfig, name: string): PerUserServer {
  const perUser = config.servers.filter((s): s is PerUserServer => s.perUser !== undefined).map((s) => s.name);
  const choices = `per-user servers in the config: ${perUser.join(', ') || 'none'}`;
  const server = config.servers.find((s) => s.name === name);
  if (server === undefined) throw new ConnectRefused(`no server named "${name}" (${choices})`);
  if (server.perUser === undefined) throw new ConnectRefused(`"${name}" takes no per-user credential: it has no \${user.NAME} secrets and no auth.perUser (${choices})`);
  return server as PerUserServer;
}

/**
 * The user's tokens from the interactive login. The OAuth client it registers is kept where the
 * gateway keeps per-user servers' clients (the server's token file), so the gateway can refresh
 * these tokens with it; the tokens themselves stay in memory until the credential store takes them.
 */
async function oauthLogin(server: HttpServerConfig, io: ConnectIo): Promise<StoredTokens> {
  const target = { name: server.name, url: server.url, ...(server.auth ? { auth: server.auth } : {}) };
  const clients = tokenStoreFor(target);
  const tokens = new MemoryTokenStore();
  const store: TokenStore = {
    getTokens: (name, url) => tokens.getTokens(name, url),
    setTokens: (name, url, t) => tokens.setTokens(name, url, t),
    getClient: (issuer) => clients.getClient(issuer),
    setClient: (issuer, client) => clients.setClient(issuer, client),
  };
  const openUrl = browserOpener();
  await login(target, { print: (line) => io.err(`${line}\n`), ...(openUrl ? { openUrl } : {}), ...io.deps, store });
  const got = await tokens.getTokens(server.name, server.url);
  if (got === undefined) throw new ConnectRefused(`the login to "${server.name}" gave no tokens`);
  return got;
}

async function obtain(server: PerUserServer, user: string, io: ConnectIo): Promise<Credential> {
  if (server.perUser.kind === 'secrets') {
    io.err(`${user}'s secrets for "${server.name}":\n`);
    const values = await readSecrets(server.perUser.secrets, io.input, io.err).catch((err: unknown) => {
      throw new ConnectRefused(describeError(err));
    });
    return { kind: 'secrets', values };
  }
  if (server.kind !== 'http') throw new ConnectRefused(`"${server.name}" is a stdio server: OAuth is for HTTP servers`);
  try {
    return { kind: 'oauth', tokens: await oauthLogin(server, io) };
  } catch (err) {
    if (err instanceof ConnectRefused) throw err;
    throw new ConnectRefused(err instanceof AuthError ? err.message : `login to "${server.name}" failed: ${describeError(err)}`);
  }
}

/** Exit code: 0 stored; 1 refused or failed (the reason on stderr, nothing stored). */
export async function runUsersConnect(config: GatewayConfig, logger: Logger, command: ConnectCommand, io: ConnectIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const user = command.user ?? config.credentials.localUser;
  let server: PerUserServer;
  try {
    server = perUserServer(config, command.server);
  } catch (err) {
    io.err(`switchboard: ${describeError(err)}\n`);
    return 1;
  }
  // The store first: a missing key or an unreachable Redis is said before anyone types a secret.
  const opened = await openCredentials(config, logger, true, env, true);
  try {
    const credential = await obtain(server, user, io);
    await opened.credentials.put(user, server.name, credential);
    const audit = createAuditLog({ file: config.sanitize.auditLog, logger });
    auditCredential(audit, 'connect', { user, server: server.name, kind: credential.kind, via: 'cli' });
    await audit.close();
    io.out(`stored ${user}'s ${credential.kind === 'oauth' ? 'OAuth tokens' : 'secrets'} for ${server.name}; a running gateway picks them up at once\n`);
    return 0;
  } catch (err) {
    if (!(err instanceof ConnectRefused)) throw err;
    io.err(`switchboard: ${err.message}; nothing was stored\n`);
    return 1;
  } finally {
    await opened.close();
  }
}
