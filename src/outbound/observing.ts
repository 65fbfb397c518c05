// What the outbound side offers observability (metrics, traces) without importing it: the shape
// of a call observer a ServerConnection hands every forwarded request to, and the W3C trace
// headers an HTTP transport copies from a request's `_meta`. Pure; no allocation when unused.

import type { JsonObject } from '../protocol/json.js';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';

/**
 * Watches forwarded requests. `send` performs the request; the observer calls it exactly once,
 * possibly with other params (a trace context of its own in `_meta`), and returns its answer or
 * failure unchanged.
 */
export interface CallObserver {
  call<T>(server: string, method: string, params: JsonObject | undefined, send: (params: JsonObject | undefined) => Promise<T>): Promise<T>;
}

/** W3C traceparent: version-traceid-parentid-flags (a later version may append fields). */
const TRACEPARENT = /^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}(?:-[\x21-\x7e]*)?$/;
/** W3C tracestate: printable ASCII, at most 512 characters. */
const TRACESTATE = /^[\x20-\x7e]{1,512}$/;

/**
 * The W3C trace context of a request, from its `_meta`, as HTTP headers (`traceparent`,
 * `tracestate`): undefined when it carries none, so the common message costs one property read.
 * A client's values reach a header only in their valid form: nothing else can smuggle header syntax.
 */
export function traceHeaders(message: JsonRpcMessage): Record<string, string> | undefined {
  const meta = (message as { params?: { _meta?: Record<string, unknown> } }).params?._meta;
  const parent = meta?.traceparent;
  if (typeof parent !== 'string' || parent.length > 256 || !TRACEPARENT.test(parent)) return undefined;
  const state = meta!.tracestate;
  return typeof state === 'string' && TRACESTATE.test(state) ? { traceparent: parent, tracestate: state } : { traceparent: parent };
}
