// What a config reload changes, decided from the two configs alone (pure, tested on its own):
// which servers start, stop, restart or stay untouched, which client profiles get new rules,
// and what needs a restart of the process to apply.

import type { ClientProfile, GatewayConfig, ServerConfig } from '../config/types.js';

export interface ReloadPlan {
  /** In the new config's order: servers to start fresh. */
  added: ServerConfig[];
  /** Names of servers that left the config. */
  removed: string[];
  /** Servers whose entry changed: stopped and started again with the new entry. */
  restarted: ServerConfig[];
  /** Names of servers whose entry did not change (but for its description): their connection and calls in flight are kept. */
  kept: string[];
  /** The new config's order of server names (catalog order). */
  order: string[];
  /** Client profiles that still exist, with their new rules (open sessions switch to them). */
  profiles: Map<string, ClientProfile>;
  namingChanged: boolean;
  /** listen changed: that takes a restart of the process; everything else is applied now. */
  listenChanged: boolean;
  /** state changed (the store is opened at start): that takes a restart too. */
  stateChanged: boolean;
  /** credentials changed (the credential store and the connect pages are set up at start): a restart too. */
  credentialsChanged: boolean;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
/**
 * A new description changes only the directory (read from the config in force): no restart. Any
 * other change, `perUser` included (a per-user server's connections are another kind), restarts it.
 */
const sameServer = (a: ServerConfig, b: ServerConfig): boolean => same({ ...a, description: undefined }, { ...b, description: undefined });

export function planReload(before: GatewayConfig, after: GatewayConfig): ReloadPlan {
  const old = new Map(before.servers.map((s) => [s.name, s]));
  const plan: ReloadPlan = {
    added: [],
    removed: before.servers.filter((s) => !after.servers.some((n) => n.name === s.name)).map((s) => s.name),
    restarted: [],
    kept: [],
    order: after.servers.map((s) => s.name),
    profiles: new Map(after.clients.map((c) => [c.name, c])),
    namingChanged: !same(before.naming, after.naming),
    listenChanged: !same(before.listen, after.listen),
    stateChanged: !same(before.state, after.state),
    credentialsChanged: !same(before.credentials, after.credentials),
  };
  for (const server of after.servers) {
    const was = old.get(server.name);
    if (!was) plan.added.push(server);
    else if (sameServer(was, server)) plan.kept.push(server.name);
    else plan.restarted.push(server);
  }
  return plan;
}
