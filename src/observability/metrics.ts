// /metrics in the Prometheus text format: prom-client's registry, exposition and process metrics
// (CPU, memory, event-loop lag, GC), and the gateway's own series read at scrape time from the
// plain counters of stats.ts and the facts of the app. Loaded on the first scrape only.

import { Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import { viewFor } from '../catalog/view.js';
import { GATEWAY_VERSION, LIST_KINDS } from '../protocol/mcp.js';
import type { GatewayFacts } from './facts.js';
import { LATENCY_BOUNDS, type CallStats, type ObservedStats } from './stats.js';

type Labels = Record<string, string>;
interface Sample {
  labels: Labels;
  value: number;
  metricName?: string;
}

/** The label value of a session or view without a client profile. */
export const NO_PROFILE = '(none)';

/**
 * A series computed when scraped. prom-client's registry asks each metric for get(); the ones
 * here answer from the gateway's own counters instead of prom-client's per-call bookkeeping.
 */
class Scraped {
  readonly aggregator = 'sum';
  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'gauge' | 'histogram',
    private readonly read: () => Sample[],
  ) {}

  async get() {
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values: this.read() };
  }
}

const LE = [...LATENCY_BOUNDS.map(String), '+Inf'];

function histogram(name: string, labels: Labels, stats: CallStats, out: Sample[]): void {
  let cumulative = 0;
  const buckets = stats.latency.buckets;
  for (let i = 0; i < LE.length; i++) {
    cumulative += buckets[i]!;
    out.push({ metricName: `${name}_bucket`, labels: { ...labels, le: LE[i]! }, value: cumulative });
  }
  out.push({ metricName: `${name}_sum`, labels, value: stats.latency.sum });
  out.push({ metricName: `${name}_count`, labels, value: stats.latency.count });
}

function outcomes(labels: Labels, stats: CallStats, out: Sample[]): void {
  out.push({ labels: { ...labels, outcome: 'ok' }, value: stats.ok });
  for (const [outcome, n] of stats.outcomes) out.push({ labels: { ...labels, outcome }, value: n });
}

function countBy<K>(items: Iterable<K>): Map<K, number> {
  const m = new Map<K, number>();
  for (const k of items) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

function gatewaySeries(stats: ObservedStats, facts: GatewayFacts): Scraped[] {
  const perServerMethod = (fn: (labels: Labels, s: CallStats, out: Sample[]) => void) => () => {
    const out: Sample[] = [];
    for (const [server, byMethod] of stats.servers) for (const [method, s] of byMethod) fn({ server, method }, s, out);
    return out;
  };
  const perClientMethod = (fn: (labels: Labels, s: CallStats, out: Sample[]) => void) => () => {
    const out: Sample[] = [];
    for (const [method, s] of stats.clients) fn({ method }, s, out);
    return out;
  };
  const servers = () => facts.servers();
  return [
    new Scraped('switchboard_build_info', 'The running version of Switchboard.', 'gauge', () => [{ labels: { version: GATEWAY_VERSION }, value: 1 }]),
    new Scraped('switchboard_state_store_up', '1 when the state store (sessions, resumable streams) can be reached, by kind (memory, redis).', 'gauge', () => {
      const store = facts.stateStore?.();
      return store === undefined ? [] : [{ labels: { kind: store.kind }, value: store.health === 'up' ? 1 : 0 }];
    }),
    new Scraped('switchboard_client_requests_total', 'Requests clients sent, by method and outcome (ok, error, or a gateway code such as limit_exceeded).', 'counter', perClientMethod(outcomes)),
    new Scraped(
      'switchboard_client_request_duration_seconds',
      'Time from a client request to its answer, by method.',
      'histogram',
      perClientMethod((l, s, out) => histogram('switchboard_client_request_duration_seconds', l, s, out)),
    ),
    new Scraped('switchboard_client_requests_in_flight', 'Client requests being handled now.', 'gauge', () => [{ labels: {}, value: [...stats.clients.values()].reduce((n, s) => n + s.inFlight, 0) }]),
    new Scraped(
      'switchboard_server_requests_total',
      'Requests forwarded to servers, by server, method and outcome (ok, error, or a gateway code such as server_timeout).',
      'counter',
      perServerMethod(outcomes),
    ),
    new Scraped(
      'switchboard_server_request_duration_seconds',
      'Time a server took to answer a forwarded request, by server and method.',
      'histogram',
      perServerMethod((l, s, out) => histogram('switchboard_server_request_duration_seconds', l, s, out)),
    ),
    new Scraped('switchboard_server_calls_in_flight', 'Requests forwarded to a server and not answered yet.', 'gauge', () =>
      [...stats.servers.keys()].map((server) => ({ labels: { server }, value: stats.serverTotals(server).inFlight })),
    ),
    new Scraped('switchboard_server_reconnects_total', 'Times a server came back after a drop.', 'counter', () => [...stats.reconnects].map(([server, value]) => ({ labels: { server }, value }))),
    new Scraped(
      'switchboard_server_failures_total',
      'Times a server went down, by reason: list_items, list_bytes, list_time (a list over limits.maxListItems, maxListBytes, listFetchTimeout), timeout, closed, protocol, http, login, other.',
      'counter',
      () => {
        const out: Sample[] = [];
        for (const [server, byReason] of stats.failures) for (const [reason, value] of byReason) out.push({ labels: { server, reason }, value });
        return out;
      },
    ),
    new Scraped('switchboard_server_up', '1 when the server is connected and ready.', 'gauge', () => servers().map((s) => ({ labels: { server: s.name }, value: s.state === 'ready' ? 1 : 0 }))),
    new Scraped('switchboard_server_state', 'The state of each server connection (1 for the current state).', 'gauge', () =>
      servers().flatMap((s) => facts.serverStates.map((state) => ({ labels: { server: s.name, state }, value: s.state === state ? 1 : 0 }))),
    ),
    new Scraped('switchboard_server_info', 'Transport and negotiated protocol revision of each server.', 'gauge', () =>
      servers().map((s) => ({ labels: { server: s.name, transport: s.transport, protocol_version: s.protocolVersion ?? '' }, value: 1 })),
    ),
    new Scraped('switchboard_server_items', 'What each server offers, by kind, before policy.', 'gauge', () =>
      servers().flatMap((s) => LIST_KINDS.map((kind) => ({ labels: { server: s.name, kind }, value: s[kind] }))),
    ),
    new Scraped('switchboard_sessions', 'Client sessions open now, by client profile.', 'gauge', () => {
      const byProfile = countBy([...facts.sessionProfiles()].map((p) => p ?? NO_PROFILE));
      return [...byProfile].map(([profile, value]) => ({ labels: { profile }, value }));
    }),
    new Scraped('switchboard_catalog_items', 'Items in the merged catalog, by kind, after server policy.', 'gauge', () => {
      const catalog = facts.catalog();
      return LIST_KINDS.map((kind) => ({ labels: { kind }, value: catalog.lists[kind].entries.length }));
    }),
    new Scraped(
      'switchboard_catalog_tokens',
      'o200k tokens of the tools/list a client profile is served, in full and in search mode, and in code mode where it is in force (the figures switchboard check prints).',
      'gauge',
      () => {
        const catalog = facts.catalog();
        const out: Sample[] = [];
        for (const profile of [undefined, ...facts.profiles()]) {
          const exposure = viewFor(catalog, profile).exposure();
          const tokens = exposure.tokens();
          const name = profile?.name ?? NO_PROFILE;
          out.push({ labels: { profile: name, mode: 'full' }, value: tokens.full }, { labels: { profile: name, mode: 'search' }, value: tokens.search });
          // Code mode's list is measured only where a view serves it: declaring every tool is work.
          if (exposure.mode === 'code') out.push({ labels: { profile: name, mode: 'code' }, value: tokens.code });
        }
        return out;
      },
    ),
    new Scraped('switchboard_catalog_withheld', 'Items the guard keeps out of the catalog now: blocked by the sanitizer, or held by pinning.', 'gauge', () => {
      const report = facts.catalog().report;
      const out: Sample[] = [];
      for (const [server, value] of countBy(report.blocked.map((b) => b.server))) out.push({ labels: { server, reason: 'blocked' }, value });
      for (const [server, value] of countBy(report.held.map((h) => h.server))) out.push({ labels: { server, reason: 'held' }, value });
      return out;
    }),
    new Scraped('switchboard_sanitizer_findings', 'What the sanitizer changed or flagged in the current catalog, by server.', 'gauge', () =>
      [...countBy(facts.catalog().report.findings.map((f) => f.server))].map(([server, value]) => ({ labels: { server }, value })),
    ),
    new Scraped('switchboard_sanitizer_result_findings_total', 'What the sanitizer changed or flagged in answers (sanitize.results), by server.', 'counter', () =>
      [...stats.resultFindings].map(([server, value]) => ({ labels: { server }, value })),
    ),
    new Scraped(
      'switchboard_policy_refusals_total',
      'Client requests for an item outside their view: reason profile (the catalog has it, the profile hides it) or unknown (no such item, or denied by server policy).',
      'counter',
      () => {
        const out: Sample[] = [];
        for (const [method, byReason] of stats.refusals) for (const [reason, value] of byReason) out.push({ labels: { method, reason }, value });
        return out;
      },
    ),
  ];
}

export interface MetricsExposition {
  readonly contentType: string;
  render(): Promise<string>;
}

export function createMetrics(stats: ObservedStats, facts: GatewayFacts): MetricsExposition {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const m of gatewaySeries(stats, facts)) registry.registerMetric(m as unknown as Metric);
  return { contentType: registry.contentType, render: () => registry.metrics() };
}
