// What `switchboard check` says of per-user servers (issue 33): which they are and of what kind
// (oauth, or the names of the secrets they take), that they connect per user (check has no user to
// connect as, so it neither spawns nor connects them: their headers and env still hold the raw
// ${user.NAME} text), where credentials live and whether a key opens them. Never a value.

import type { GatewayConfig, ServerConfig } from '../config/types.js';
import { type CredentialsWhere, credentialsWhere } from './credentials-where.js';

export interface PerUserReport {
  servers: { name: string; kind: 'oauth' | 'secrets'; secrets?: string[]; connection: string }[];
  credentials: CredentialsWhere;
  /** Why the gateway could not open its credential store as configured, when it could not. */
  problem?: string;
  /** What works but likely not as meant (no way to tell HTTP users apart). */
  warning?: string;
}

export const PER_USER_CONNECTION = 'per-user: connects per user';

/** The enabled servers check connects itself: all but the per-user ones. */
export function sharedServers(config: GatewayConfig): GatewayConfig {
  return { ...config, servers: config.servers.filter((s) => !s.perUser) };
}

/** Undefined when the config has no enabled per-user server. */
export async function perUserReport(config: GatewayConfig, env: NodeJS.ProcessEnv = process.env): Promise<PerUserReport | undefined> {
  const perUser = config.servers.filter((s): s is ServerConfig & { perUser: NonNullable<ServerConfig['perUser']> } => s.enabled && s.perUser !== undefined);
  if (perUser.length === 0) return undefined;
  const credentials = await credentialsWhere(config, env);
  const servers = perUser.map((s) => ({
    name: s.name,
    kind: s.perUser.kind,
    ...(s.perUser.kind === 'secrets' ? { secrets: s.perUser.secrets.map((x) => x.name) } : {}),
    connection: PER_USER_CONNECTION,
  }));
  // The file backend makes its key on first start; anything else without a usable key fails the start.
  const fails = !credentials.keyAvailable && !credentials.key.startsWith('none yet');
  // A user is an OAuth subject or a token's profile: without either, an HTTP client has no user.
  const users = config.listen.auth !== undefined || config.clients.some((c) => c.token !== undefined);
  const warning = users
    ? undefined
    : `no HTTP client has a user (neither listen.auth nor a client token is configured): over HTTP nobody can use per-user servers; over stdio they are ${config.credentials.localUser}'s`;
  return { servers, credentials, ...(fails ? { problem: `no usable key for ${credentials.store}: ${credentials.key}` } : {}), ...(warning ? { warning } : {}) };
}

export function renderPerUser(r: PerUserReport): string {
  const rows = r.servers.map((s) => [s.name, s.kind === 'oauth' ? 'oauth (each user logs in)' : `secrets ${s.secrets!.join(', ')}`, s.connection]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const lines = rows.map((row) => `  ${row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')}`);
  return `\nPer-user servers (not connected by check: each connects as its user)\n${lines.join('\n')}\n  credentials: ${r.credentials.store}\n  key: ${r.credentials.key}\n`;
}
