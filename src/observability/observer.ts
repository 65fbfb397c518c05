// The hooks the gateway calls on its per-message path — a client's request, a forwarded call, a
// reconnect, an audit entry — and where they go: counters (stats.ts) and spans (tracing), each
// present only when switched on. With neither, a hook is two field reads and a direct call.

import type { Catalog } from '../catalog/build.js';
import type { CatalogView } from '../catalog/view.js';
import type { JsonRpcRequest } from '../protocol/jsonrpc.js';
import { answerOutcome, failureOutcome, refusalOf, replyOutcome, type Outcome } from './outcome.js';
import { RecentAudit } from './recent-audit.js';
import type { ObservedStats } from './stats.js';
import type { JsonObject } from '../protocol/json.js';

/** What the observer reads of the session a request came on (a ClientSession fits). */
export interface ObservedSession {
  readonly id: string;
  readonly protocolVersion: string | undefined;
  readonly view: CatalogView;
}

/** The HTTP headers of a request, when the endpoint passes them (2026-07-28 stateless requests). */
export type ObservedHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** An open span, opaque to everything but the sink that made it. */
export type TraceSpan = object;

/** Where spans go (tracing-sdk.ts implements it, loaded only when traces are switched on). */
export interface TraceSink {
  /**
   * Starts the span of a client's request, child of the trace context in its `_meta` (else in the
   * HTTP request's `traceparent` header), and puts its own context in `_meta`: what the request
   * causes becomes its child.
   */
  inbound(session: ObservedSession, request: JsonRpcRequest, headers?: ObservedHeaders): TraceSpan;
  /** Starts the span of a forwarded call; the params to send carry its context in `_meta` (a copy). */
  outbound(server: string, method: string, params: JsonObject | undefined): { span: TraceSpan; params: JsonObject };
  end(span: TraceSpan, outcome: Outcome): void;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

const seconds = (since: number) => (performance.now() - since) / 1000;

export class Observer {
  /** Counting, when metrics are on. */
  stats?: ObservedStats;
  /** Tracing, when traces are on. */
  tracing?: TraceSink;
  /** The latest distinct audit entries (the dashboard's "recent findings"). */
  readonly recent = new RecentAudit();

  constructor(private readonly catalog: () => Catalog) {}

  /** A client's request: `run` handles it (and never rejects: failures are error replies). */
  request<R>(session: ObservedSession, request: JsonRpcRequest, run: () => Promise<R>, headers?: ObservedHeaders): Promise<R> {
    const stats = this.stats;
    const tracing = this.tracing;
    if (stats === undefined && tracing === undefined) return run();
    // Before run(): the handler forwards with the _meta the span has just rewritten.
    const span = tracing?.inbound(session, request, headers);
    const meter = stats?.clientRequest(request.method);
    if (meter) meter.inFlight++;
    const started = performance.now();
    return run().then(
      (reply) => {
        const outcome = replyOutcome(reply);
        meter?.ended(outcome.label, seconds(started));
        if (span) tracing!.end(span, outcome);
        if (stats && outcome.code !== undefined) {
          const reason = refusalOf(request.method, request.params, outcome.code, session.view, this.catalog());
          if (reason) stats.refused(request.method, reason);
        }
        return reply;
      },
      (err: unknown) => {
        meter?.ended('internal', seconds(started));
        if (span) tracing!.end(span, { label: 'internal' });
        throw err;
      },
    );
  }

  /** A request forwarded to a server (ServerConnection.forward). */
  call<T>(server: string, method: string, params: JsonObject | undefined, send: (params: JsonObject | undefined) => Promise<T>): Promise<T> {
    const stats = this.stats;
    const tracing = this.tracing;
    if (stats === undefined && tracing === undefined) return send(params);
    const meter = stats?.serverCall(server, method);
    if (meter) meter.inFlight++;
    const traced = tracing?.outbound(server, method, params);
    const started = performance.now();
    return send(traced ? traced.params : params).then(
      (answer) => {
        const outcome = answerOutcome(answer);
        meter?.ended(outcome.label, seconds(started));
        if (traced) tracing!.end(traced.span, outcome);
        return answer;
      },
      (err: unknown) => {
        const outcome = failureOutcome(err);
        meter?.ended(outcome.label, seconds(started));
        if (traced) tracing!.end(traced.span, outcome);
        throw err;
      },
    );
  }

  /** A server came back after a drop. */
  reconnected(server: string): void {
    this.stats?.reconnected(server);
  }

  /** A server went down, for a reason of a fixed set (outbound/failure-reason.ts). */
  serverFailed(server: string, reason: string): void {
    this.stats?.serverFailed(server, reason);
  }

  /** An entry went to the audit log (see tapAudit). */
  audited(entry: { server: string; kind: string; item: string; field?: string; change: string; why: string }): void {
    // A script's nested calls (kind "code") are a trail, not findings: the dashboard lists what the guard did.
    if (entry.kind === 'code') return;
    if (this.recent.add(entry) && entry.kind === 'result') this.stats?.resultFinding(entry.server);
  }
}
