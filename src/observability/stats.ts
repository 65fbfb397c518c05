// The counters the per-message path updates: plain numbers in objects found by two Map lookups,
// no label objects, no strings built, no library. A Prometheus client's bound child still hashes
// its labels on every inc() (microseconds a call, measured); here a call costs a few increments,
// and metrics.ts turns these numbers into the exposition format only when /metrics is read.

/** Upper bounds (seconds) of the latency buckets; a last, implicit bucket holds the rest (+Inf). */
export const LATENCY_BOUNDS: readonly number[] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/** A latency histogram: counts per bucket (not cumulative), their total and the sum of values. */
export class Latency {
  count = 0;
  sum = 0;
  readonly buckets = new Float64Array(LATENCY_BOUNDS.length + 1);

  observe(seconds: number): void {
    this.count++;
    this.sum += seconds;
    let i = 0;
    while (i < LATENCY_BOUNDS.length && seconds > LATENCY_BOUNDS[i]!) i++;
    this.buckets[i]!++;
  }
}

/** One (server, method) or one client method: outcomes and latency. */
export class CallStats {
  inFlight = 0;
  /** Answered with a result (the common case, kept out of the Map). */
  ok = 0;
  /** Every other outcome: a server's JSON-RPC error, or a gateway code in lower case. */
  readonly outcomes = new Map<string, number>();
  readonly latency = new Latency();

  ended(outcome: string, seconds: number): void {
    this.inFlight--;
    if (outcome === 'ok') this.ok++;
    else this.outcomes.set(outcome, (this.outcomes.get(outcome) ?? 0) + 1);
    this.latency.observe(seconds);
  }
}

/** Why a client's request for an item was refused (see outcome.ts). */
export type RefusalReason = 'profile' | 'unknown';

/**
 * Everything counted since start. Client methods are counted under their name only when the
 * gateway serves that method ('other' otherwise): a client cannot grow the label set.
 */
export class ObservedStats {
  /** server → method → stats of requests forwarded to it. */
  readonly servers = new Map<string, Map<string, CallStats>>();
  /** client method → stats of requests clients sent. */
  readonly clients = new Map<string, CallStats>();
  readonly reconnects = new Map<string, number>();
  /** server → why it went down (a fixed set of words) → times. */
  readonly failures = new Map<string, Map<string, number>>();
  /** method → reason → count. */
  readonly refusals = new Map<string, Map<RefusalReason, number>>();
  /** server → findings the sanitizer made in its answers (sanitize.results). */
  readonly resultFindings = new Map<string, number>();
  readonly started = Date.now();

  constructor(private readonly knownMethods: ReadonlySet<string>) {}

  serverCall(server: string, method: string): CallStats {
    let byMethod = this.servers.get(server);
    if (byMethod === undefined) this.servers.set(server, (byMethod = new Map()));
    let stats = byMethod.get(method);
    if (stats === undefined) byMethod.set(method, (stats = new CallStats()));
    return stats;
  }

  clientRequest(method: string): CallStats {
    let stats = this.clients.get(method);
    if (stats === undefined) {
      const label = this.knownMethods.has(method) ? method : 'other';
      stats = this.clients.get(label);
      if (stats === undefined) this.clients.set(label, (stats = new CallStats()));
    }
    return stats;
  }

  reconnected(server: string): void {
    this.reconnects.set(server, (this.reconnects.get(server) ?? 0) + 1);
  }

  serverFailed(server: string, reason: string): void {
    let byReason = this.failures.get(server);
    if (byReason === undefined) this.failures.set(server, (byReason = new Map()));
    byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
  }

  refused(method: string, reason: RefusalReason): void {
    let byReason = this.refusals.get(method);
    if (byReason === undefined) this.refusals.set(method, (byReason = new Map()));
    byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
  }

  resultFinding(server: string): void {
    this.resultFindings.set(server, (this.resultFindings.get(server) ?? 0) + 1);
  }

  /** One server's calls over every method, for the dashboard. */
  serverTotals(server: string): { calls: number; inFlight: number; buckets: Float64Array } {
    const buckets = new Float64Array(LATENCY_BOUNDS.length + 1);
    let calls = 0;
    let inFlight = 0;
    for (const s of this.servers.get(server)?.values() ?? []) {
      calls += s.latency.count;
      inFlight += s.inFlight;
      for (let i = 0; i < buckets.length; i++) buckets[i]! += s.latency.buckets[i]!;
    }
    return { calls, inFlight, buckets };
  }
}
