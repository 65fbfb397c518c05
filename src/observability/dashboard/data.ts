// What the dashboard's script polls: the gateway's state (dashboard.json, small, every 2 s) and
// the catalog as each profile sees it (catalog.json, fetched again only when its version
// changes). Plain data; every string a server sent stays a string for the page to show as text.

import type { Catalog, CatalogEntry } from '../../catalog/build.js';
import { viewFor } from '../../catalog/view.js';
import type { ClientProfile } from '../../config/types.js';
import { GATEWAY_VERSION } from '../../protocol/mcp.js';
import type { GatewayFacts } from '../facts.js';
import type { RecentAudit } from '../recent-audit.js';
import type { ObservedStats } from '../stats.js';
import type { Series } from './series.js';

/** Descriptions are cut here: the dashboard lists, it does not document. */
const MAX_TEXT = 400;

const versions = new WeakMap<Catalog, number>();
let nextVersion = 1;
/** A number that changes whenever the catalog snapshot does. */
export function catalogVersion(catalog: Catalog): number {
  let v = versions.get(catalog);
  if (v === undefined) versions.set(catalog, (v = nextVersion++));
  return v;
}

export interface DashboardSources {
  facts: GatewayFacts;
  recent: RecentAudit;
  /** Absent when metrics are off. */
  stats?: ObservedStats;
  series?: Series;
  startedAt: number;
  now?: () => number;
}

export function dashboardState(src: DashboardSources) {
  const now = (src.now ?? Date.now)();
  // Live and idle apart: an idle session may be a client that left without saying so.
  const sessions = src.facts.sessionActivity();
  return {
    version: GATEWAY_VERSION,
    now,
    uptimeS: Math.round((now - src.startedAt) / 1000),
    metrics: src.stats !== undefined,
    intervalMs: src.series?.intervalMs ?? null,
    sessions,
    store: src.facts.stateStore?.() ?? null,
    catalogVersion: catalogVersion(src.facts.catalog()),
    servers: src.facts.servers().map((s) => {
      const totals = src.stats?.serverTotals(s.name);
      return {
        name: s.name,
        state: s.state,
        transport: s.transport,
        protocolVersion: s.protocolVersion ?? null,
        tools: s.tools,
        prompts: s.prompts,
        resources: s.resources,
        resourceTemplates: s.resourceTemplates,
        problem: s.problem ?? null,
        detail: s.detail ?? null,
        retryInMs: s.retryInMs ?? null,
        calls: totals?.calls ?? null,
        inFlight: totals?.inFlight ?? null,
        series: src.series?.of(s.name) ?? [],
      };
    }),
    audit: src.recent.latest(50),
  };
}

const text = (v: unknown): string | null => (typeof v === 'string' ? (v.length > MAX_TEXT ? `${v.slice(0, MAX_TEXT)}…` : v) : null);

function named(e: CatalogEntry) {
  return { name: e.key, server: e.server, original: e.original, title: text(e.item.title), description: text(e.item.description) };
}

function viewOf(catalog: Catalog, profile: ClientProfile | undefined) {
  const view = viewFor(catalog, profile);
  const exposure = view.exposure();
  const tokens = exposure.tokens();
  return {
    profile: profile?.name ?? null,
    mode: exposure.mode,
    tokens: { full: tokens.full, search: tokens.search, code: tokens.code, exact: tokens.exact },
    tools: view.lists.tools.entries.map(named),
    prompts: view.lists.prompts.entries.map(named),
    resources: view.lists.resources.entries.map((e) => ({ name: e.key, server: e.server, original: e.original, title: text(e.item.name), description: text(e.item.description) })),
    resourceTemplates: view.lists.resourceTemplates.entries.map((e) => ({ name: e.key, server: e.server, original: e.original, title: text(e.item.name), description: text(e.item.description) })),
  };
}

/** The catalog once for a session without a profile, then as each configured profile sees it. */
export function catalogState(facts: GatewayFacts) {
  const catalog = facts.catalog();
  return { version: catalogVersion(catalog), views: [undefined, ...facts.profiles()].map((p) => viewOf(catalog, p)) };
}
