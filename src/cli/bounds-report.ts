// What `switchboard check` says about the bounds that hold servers' lists and clients'
// subscriptions (issue 28): the values in force, and each server that has its own list bounds, so
// an operator sees what a server or a client would have to pass before it is refused.

import type { GatewayConfig } from '../config/types.js';

export interface BoundsReport {
  lists: { maxItems: number; maxBytes: number; fetchTimeoutMs: number; refetchIntervalMs: number; refetchMaxIntervalMs: number };
  /** Servers whose `listLimits` override a bound. */
  overrides: { server: string; maxItems?: number; maxBytes?: number; fetchTimeoutMs?: number }[];
  subscriptions: { perSession: number; total: number };
}

export function boundsReport(config: Pick<GatewayConfig, 'limits' | 'servers'>): BoundsReport {
  const l = config.limits;
  return {
    lists: { maxItems: l.maxListItems, maxBytes: l.maxListBytes, fetchTimeoutMs: l.listFetchTimeoutMs, refetchIntervalMs: l.listRefetchIntervalMs, refetchMaxIntervalMs: l.listRefetchMaxIntervalMs },
    overrides: config.servers.filter((s) => s.enabled && Object.keys(s.listLimits ?? {}).length > 0).map((s) => ({ server: s.name, ...s.listLimits })),
    subscriptions: { perSession: l.maxSubscriptionsPerSession, total: l.maxSubscriptions },
  };
}

const size = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`);
const secs = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`);

export function renderBounds(r: BoundsReport): string {
  const { lists, subscriptions } = r;
  let out = '\nBounds (a server or client past one is refused, naming it)\n';
  out += `  each server's lists: ${lists.maxItems} items, ${size(lists.maxBytes)}, ${secs(lists.fetchTimeoutMs)} per fetch; after list_changed, fetched at least ${secs(lists.refetchIntervalMs)} apart, backing off to ${secs(lists.refetchMaxIntervalMs)} while changes keep coming\n`;
  for (const o of r.overrides) {
    const own = [o.maxItems !== undefined && `${o.maxItems} items`, o.maxBytes !== undefined && size(o.maxBytes), o.fetchTimeoutMs !== undefined && `${secs(o.fetchTimeoutMs)} per fetch`].filter(
      Boolean,
    );
    out += `  ${o.server}'s lists: ${own.join(', ')} (listLimits)\n`;
  }
  out += `  resource subscriptions: ${subscriptions.perSession} per session, ${subscriptions.total} in all\n`;
  return out;
}
