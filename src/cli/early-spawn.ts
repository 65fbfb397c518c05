// Start-up: spawns the config's stdio servers before the app's modules are even loaded, so that
// each child's boot (tens of ms of its own) overlaps ours. The transports adopt these children
// when the app starts them (outbound/stdio-transport.ts, spawnEarly); any left over is killed.

import type { GatewayConfig } from '../config/types.js';

export interface EarlySpawn {
  /** Kills the children no connection adopted: call once the app's first connects have begun. */
  dropUnclaimed(): Promise<void>;
}

const NONE: EarlySpawn = { dropUnclaimed: async () => {} };

/** Spawns every enabled stdio server of the config (each one connection of the app will start). */
export async function spawnServersEarly(config: GatewayConfig): Promise<EarlySpawn> {
  const servers = config.servers.filter((s) => s.enabled && s.kind === 'stdio');
  if (servers.length === 0) return NONE;
  const { dropEarly, spawnEarly } = await import('../outbound/stdio-transport.js');
  for (const s of servers) if (s.kind === 'stdio') spawnEarly({ command: s.command, args: s.args, env: s.env, inheritEnv: s.inheritEnv, cwd: s.cwd });
  return { dropUnclaimed: dropEarly };
}
