// The config fields of per-user servers (issue 33), read in this one place. They are the config
// helper's (h33-config: `server.perUser`, `config.credentials`); until its types are merged they are
// read through these guards, with the agreed defaults, so nothing else casts.

import type { GatewayConfig, ServerConfig } from '../config/types.js';

export type PerUser = { kind: 'oauth' } | { kind: 'secrets'; secrets: { name: string; description?: string }[] };

export interface PerUserBounds {
  /** Connections one user may hold open (each may be a process). */
  perUser: number;
  /** Per-user connections of everyone together. */
  total: number;
  /** A connection with no call in flight for this long is closed. */
  idleTimeoutMs: number;
}

export interface CredentialSettings {
  publicUrl?: string;
  linkTtlMs: number;
  localUser: string;
  connections: PerUserBounds;
}

const DEFAULTS: CredentialSettings = { linkTtlMs: 10 * 60_000, localUser: 'local', connections: { perUser: 16, total: 256, idleTimeoutMs: 10 * 60_000 } };

/** How `server` is per-user, or undefined for a server every user shares. */
export function perUserOf(server: ServerConfig): PerUser | undefined {
  return (server as { perUser?: PerUser }).perUser;
}

/** `config.credentials` with the agreed defaults filled in. */
export function credentialSettings(config: GatewayConfig): CredentialSettings {
  const c = (config as { credentials?: Partial<CredentialSettings> }).credentials;
  if (c === undefined) return DEFAULTS;
  return { ...DEFAULTS, ...c, connections: { ...DEFAULTS.connections, ...c.connections } };
}
