// The nested calls of a code-mode run: each is a tools/call made on the run's behalf, through the
// same handler as the client's own (policy, guard, read-only, sanitizer, URI rules, per-server
// limit), observed as a tools/call of its own (metrics; a span under the run's span), and holding
// one more of the session's and the principal's calls in flight. Its context is the run's (session,
// owner channel, envelope, input bridge) with its own id, cancellation and progress.

import { GatewayError, RefusalError, toJsonRpcError } from '../errors.js';
import { Cancellation } from '../jsonrpc/cancellation.js';
import { isRawResponse, parseRawResponse } from '../jsonrpc/raw.js';
import { errorResponse, isErrorResponse, type JsonRpcErrorObject, type JsonRpcRequest, type JsonRpcResponse } from '../protocol/jsonrpc.js';
import type { Handler, RequestContext } from './context.js';
import { type JsonObject, isJsonObject } from '../protocol/json.js';

/** Which tool a nested call is for, as the script named it. */
export interface CallSite {
  server: string;
  tool: string;
}

/** The W3C trace context keys of `_meta`: a nested call's span is a child of the run's. */
const TRACE_KEYS = ['traceparent', 'tracestate'] as const;

type Outcome = { ok: true; result: JsonObject } | { ok: false; error: JsonRpcErrorObject };

export class NestedCalls {
  private count = 0;
  /** Progress notifications relayed so far: the run's own progress counts them (it must only grow). */
  private progressed = 0;
  private readonly trace: Record<string, unknown> | undefined;

  constructor(
    private readonly run: RequestContext,
    /** tools/call's handler (forward.ts callTool). */
    private readonly call: Handler,
    runMeta: unknown,
  ) {
    // The run's _meta carries its own span's context once tracing saw it (tracing-sdk.ts inbound).
    const meta = isJsonObject(runMeta) ? runMeta : undefined;
    const trace = TRACE_KEYS.filter((k) => typeof meta?.[k] === 'string');
    this.trace = trace.length === 0 ? undefined : Object.fromEntries(trace.map((k) => [k, meta![k]]));
  }

  /**
   * Calls the tool of exposed name `name`; resolves with its CallToolResult, rejects with what the
   * client would have got as its error ({code, message, data}). Ends early when `signal` aborts
   * (the run ended): the server is told notifications/cancelled.
   */
  async tool(name: string, args: Record<string, unknown>, signal: AbortSignal, site: CallSite): Promise<JsonObject> {
    const session = this.run.session;
    const id = `${String(this.run.requestId)}#${++this.count}`;
    const params: JsonObject = { name, arguments: args };
    if (this.trace) params._meta = { ...this.trace };
    const request: JsonRpcRequest = { jsonrpc: '2.0', id, method: 'tools/call', params };
    let outcome: Outcome | undefined;
    await this.run.gateway.observer.request(session, request, async (): Promise<JsonRpcResponse> => {
      outcome = await this.handle(request, signal, site);
      return outcome.ok ? { jsonrpc: '2.0', id, result: outcome.result } : errorResponse(id, outcome.error.code, outcome.error.message, outcome.error.data);
    });
    if (!outcome!.ok) throw Object.assign(new Error(outcome!.error.message), outcome!.error);
    return outcome!.result;
  }

  private async handle(request: JsonRpcRequest, signal: AbortSignal, site: CallSite): Promise<Outcome> {
    let release: (() => void) | undefined;
    const cancellation = new Cancellation();
    const abort = () => cancellation.cancel();
    signal.addEventListener('abort', abort, { once: true });
    try {
      if (signal.aborted) throw new GatewayError('CANCELLED', 'the run ended before this call started', { server: site.server });
      release = this.hold();
      const answer = await this.call(request.params!, this.context(request, cancellation, site));
      if (!isRawResponse(answer)) return { ok: true, result: answer };
      const response = parseRawResponse(answer);
      return isErrorResponse(response) ? { ok: false, error: response.error } : { ok: true, result: response.result };
    } catch (err) {
      return { ok: false, error: errorObject(err) };
    } finally {
      signal.removeEventListener('abort', abort);
      release?.();
    }
  }

  /** Takes one of the session's and one of the principal's calls in flight; throws at either limit. */
  private hold(): () => void {
    const { session, share } = this.run;
    if (!session.takeNestedCall()) {
      const max = this.run.gateway.config.limits.maxCallsPerSession;
      throw new GatewayError('LIMIT_EXCEEDED', `this session already has ${max} requests in flight (limits.maxCallsPerSession)`, { retryAfterMs: 1000, limit: 'session' });
    }
    if (share !== undefined && !share.take()) {
      session.nestedCallDone();
      throw new GatewayError('LIMIT_EXCEEDED', `this client already holds ${share.limit} requests in flight (limits.perPrincipal.callsInFlight)`, { retryAfterMs: 1000, limit: 'principal' });
    }
    return () => {
      share?.give();
      session.nestedCallDone();
    };
  }

  /** The run's context for one nested call: its own id, cancellation and progress, the session's current view. */
  private context(request: JsonRpcRequest, cancellation: Cancellation, site: CallSite): RequestContext {
    const run = this.run;
    return {
      gateway: run.gateway,
      connections: run.connections,
      sessionState: run.sessionState,
      finder: run.finder,
      session: run.session,
      // The view at the time of the call: a reload that took a tool away takes it from scripts too.
      view: run.session.view,
      cancellation,
      related: run.related,
      requestId: request.id,
      envelope: run.envelope,
      client: run.client,
      inputs: run.inputs,
      share: run.share,
      protocolVersion: run.protocolVersion,
      nested: true,
      progress: run.progress === undefined ? undefined : (p) => this.progress(site, p),
    };
  }

  /** A nested call's progress, as the run's: a count that only grows, and which call it came from. */
  private progress(site: CallSite, p: JsonObject): void {
    const of = typeof p.total === 'number' ? `${p.progress}/${p.total}` : String(p.progress);
    const message = typeof p.message === 'string' ? `${site.server}.${site.tool}: ${p.message}` : `${site.server}.${site.tool}: ${of}`;
    this.run.progress?.({ progress: ++this.progressed, message });
  }
}

/** A failure as the JSON-RPC error the client would have been answered with. */
function errorObject(err: unknown): JsonRpcErrorObject {
  if (err instanceof RefusalError) return err.data === undefined ? { code: err.code, message: err.message } : { code: err.code, message: err.message, data: err.data };
  return toJsonRpcError(err);
}
