// The config of per-user servers (issue 33) as the router reads it: how a server is per-user, and
// the credentials section's settings. Read in this one place.

import type { GatewayConfig, PerUser, ServerConfig } from '../config/types.js';

export type { PerUser };

export type CredentialSettings = GatewayConfig['credentials'];
export type PerUserBounds = CredentialSettings['connections'];

/** How `server` is per-user, or undefined for a server every user shares. */
export function perUserOf(server: ServerConfig): PerUser | undefined {
  return server.perUser;
}

/** `config.credentials` (defaults filled in by the config). */
export function credentialSettings(config: GatewayConfig): CredentialSettings {
  return config.credentials;
}
