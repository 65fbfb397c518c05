// `switchboard login SERVER` and `switchboard logout SERVER`: the one place a person authorizes the
// gateway towards an OAuth-protected HTTP server. The authorization URL goes to stderr (and to a
// browser when there is one); the outcome to stdout. Tokens go to the token file the running
// gateway reads, so it picks them up without a restart. No token is ever printed.

import type { GatewayConfig, HttpServerConfig } from '../config/types.js';
import { AuthError, browserOpener, defaultTokenFile, login, logout, type AuthState, type LoginDeps, type ServerTarget } from '../outbound/auth/index.js';

export class LoginUsageError extends Error {}

/** The HTTP server named NAME as a login target; a usage error naming the choices otherwise. */
export function loginTarget(config: GatewayConfig, name: string): ServerTarget {
  const server = config.servers.find((s) => s.name === name);
  const http = config.servers.filter((s): s is HttpServerConfig => s.kind === 'http').map((s) => s.name);
  const choices = `HTTP servers in the config: ${http.join(', ') || 'none'}`;
  if (!server) throw new LoginUsageError(`no server named "${name}" (${choices})`);
  if (server.kind !== 'http') throw new LoginUsageError(`"${name}" is a stdio server; OAuth is for HTTP servers (${choices})`);
  // A shared login would be nobody's: each user connects (and is listed by `switchboard users`).
  if (server.perUser) {
    throw new LoginUsageError(`"${name}" is per-user: each user connects on the gateway's connect page the first time they call it (switchboard users lists who has)`);
  }
  const target: ServerTarget = { name: server.name, url: server.url };
  if (server.auth) target.auth = server.auth;
  return target;
}

/** What a successful login prints. */
export function describeLogin(name: string, s: AuthState, now = Date.now()): string {
  const parts = [`Logged in to "${name}"`];
  if (s.issuer) parts.push(`at ${s.issuer}`);
  let out = `${parts.join(' ')}.\n`;
  if (s.scopes?.length) out += `  scopes: ${s.scopes.join(' ')}\n`;
  if (s.expiresAt !== undefined) out += `  access token valid until ${new Date(s.expiresAt).toISOString()} (${Math.round((s.expiresAt - now) / 60_000)} min); the gateway renews it itself\n`;
  return out;
}

export interface LoginIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Overrides for tests; by default the URL is printed to stderr and opened where a browser exists. */
  deps?: LoginDeps;
}

/** Exit code: 0 logged in, 1 the login failed (the reason on stderr). */
export async function runLogin(target: ServerTarget, io: LoginIo): Promise<number> {
  const openUrl = browserOpener();
  const deps: LoginDeps = { print: (line) => io.err(`${line}\n`), ...(openUrl ? { openUrl } : {}), ...io.deps };
  try {
    const state = await login(target, deps);
    io.out(describeLogin(target.name, state));
    return 0;
  } catch (err) {
    io.err(`switchboard: ${err instanceof AuthError ? err.message : `login to "${target.name}" failed: ${(err as Error).message}`}\n`);
    return 1;
  }
}

export async function runLogout(target: ServerTarget, io: LoginIo): Promise<number> {
  await logout(target, io.deps?.store ? { store: io.deps.store } : {});
  io.out(`Logged out of "${target.name}": its tokens are gone from ${target.auth?.tokenFile ?? defaultTokenFile()}.\n`);
  return 0;
}
