// The inbound era adapter: what differs when a request comes in the stateless revision
// (2026-07-28), on any face. Which era a request is in (its envelope), how the gateway refuses it
// before serving (HTTP maps the kind to 404/400), and how its result or error is dressed
// (resultType, the gateway's serverInfo, cache hints, retired codes), and the request's client as
// the router sees it (StatelessClient). ClientSession asks here once per request; handlers and
// the router stay era-blind.

import { ErrorCode, errorResponse, type JsonRpcErrorObject, type JsonRpcId, type JsonRpcResponse } from '../protocol/jsonrpc.js';
import { CACHEABLE, META, REFUSAL, STATEFUL_ONLY, claimsStateless, readEnvelope, type Envelope, type RefusalKind } from '../protocol/stateless.js';
import { GATEWAY_NAME, GATEWAY_VERSION, passesLevel } from '../protocol/mcp.js';
import type { RawResponse, SplicedResponse } from '../jsonrpc/raw.js';
import { spliceIdAndMembers } from '../jsonrpc/raw-splice.js';
import type { JsonObject } from '../protocol/json.js';
import type { RequestClient } from '../router/session.js';

const GATEWAY_INFO = Object.freeze({ name: GATEWAY_NAME, version: GATEWAY_VERSION });

/** Methods only the stateless revision has. */
const STATELESS_ONLY: ReadonlySet<string> = new Set(['server/discover', 'subscriptions/listen', 'tasks/update']);

/**
 * Which era a request is in: undefined for the stateful era's, the envelope of a stateless one,
 * or the answer that refuses it (a broken envelope, a method the stateless revision does not
 * have, a request without the envelope on a stateless session). See isAnswer.
 */
export function admit(id: JsonRpcId, method: string, params: JsonObject, statelessSession: boolean): Envelope | JsonRpcResponse | undefined {
  if (!claimsStateless(method, params)) {
    return statelessSession ? errorResponse(id, ErrorCode.InvalidRequest, 'Invalid Request: send initialize first, or the protocol revision 2026-07-28 _meta envelope with every request') : undefined;
  }
  const read = readEnvelope(params);
  if (!read.ok) return refusal(id, read.error, 'request');
  if (STATEFUL_ONLY.has(method))
    return refusal(id, { code: ErrorCode.MethodNotFound, message: `Method not found: ${method} is not part of protocol revision ${read.envelope.protocolVersion}` }, 'method');
  return read.envelope;
}

/** Whether admit() answered the request already (refused it). */
export function isAnswer(admitted: Envelope | JsonRpcResponse): admitted is JsonRpcResponse {
  return 'jsonrpc' in admitted;
}

/** Whether a request of this era may call `method` (some exist in the stateless revision only). */
export function inEra(method: string, envelope: Envelope | undefined): boolean {
  return envelope !== undefined || !STATELESS_ONLY.has(method);
}

/**
 * A stateless request's client as the router sees it: its envelope's capabilities and log level
 * (none named: it hears no log lines), and no requests but through input rounds.
 */
export class StatelessClient implements RequestClient {
  readonly rootsFromConfig = false;
  constructor(private readonly envelope: Envelope) {}
  get clientCapabilities(): JsonObject {
    return this.envelope.clientCapabilities;
  }
  hears(level: unknown): boolean {
    const threshold = this.envelope.logLevel;
    return threshold !== undefined && passesLevel(level, threshold);
  }
  get unaskable(): string {
    return `protocol revision ${this.envelope.protocolVersion}`;
  }
}

/** The method-not-found answer of the request's era. */
export function methodNotFound(id: JsonRpcId, method: string, envelope: Envelope | undefined): JsonRpcResponse {
  return envelope ? refusal(id, { code: ErrorCode.MethodNotFound, message: `Method not found: ${method}` }, 'method') : errorResponse(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
}

/** A handler's result as the request's era answers it (dressed for a stateless request). */
export function answerIn(id: JsonRpcId, method: string, result: JsonObject, envelope: Envelope | undefined, profiled: boolean): JsonRpcResponse {
  return { jsonrpc: '2.0', id, result: envelope ? dressResult(method, result, profiled) : result };
}

/** An error answer as the request's era has it (a stateless request's with the retired codes mapped). */
export function errorIn(response: JsonRpcResponse, envelope: Envelope | undefined): JsonRpcResponse {
  if (envelope !== undefined && 'error' in response) response.error.code = statelessErrorCode(response.error.code);
  return response;
}

/** An error response the transport may answer with an HTTP status of its own (see REFUSAL). */
export function refusal(id: JsonRpcId, error: JsonRpcErrorObject, kind: RefusalKind): JsonRpcResponse {
  const response: JsonRpcResponse & { [REFUSAL]?: RefusalKind } = { jsonrpc: '2.0', id, error };
  Object.defineProperty(response, REFUSAL, { value: kind, enumerable: false });
  return response;
}

export function refusalKind(response: object): RefusalKind | undefined {
  return (response as { [REFUSAL]?: RefusalKind })[REFUSAL];
}

/**
 * A complete result as the stateless revision wants it. Cache hints: ttlMs 0, because the merged
 * catalog changes whenever any server's does and the gateway has no way to promise freshness
 * for all of them (a listen stream tells of changes); private when a client profile shapes
 * what this client sees, so no shared cache hands one profile's list to another.
 */
export function dressResult(method: string, result: JsonObject, profiled: boolean): JsonObject {
  const out: JsonObject = { ...result };
  out.resultType ??= 'complete';
  out._meta = { ...(result._meta as object | undefined), [META.serverInfo]: GATEWAY_INFO };
  if (out.resultType === 'complete' && CACHEABLE.has(method)) {
    out.ttlMs = 0;
    out.cacheScope = profiled ? 'private' : 'public';
  }
  return out;
}

/**
 * dressResult without a parse: a server's raw answer with the client's id and the dressing
 * spliced in. Undefined when that would not give the same JSON (an error, whose code may change;
 * a result with `_meta` or `resultType` of its own, which are merged; cache hints), or the result
 * is not an object: the caller parses then.
 */
export function dressRaw(method: string, raw: RawResponse, id: JsonRpcId): SplicedResponse | undefined {
  if (raw.isError || !raw.resultPlain || CACHEABLE.has(method)) return undefined;
  return spliceIdAndMembers(raw, id, DRESSING);
}

/** What dressResult adds to a result of neither member (of a method with no cache hints), as JSON members. */
const DRESSING = JSON.stringify(dressResult('tools/call', {}, false)).slice(1, -1);

/** Errors whose code the stateless revision retired: resource-not-found is -32602 there. */
export function statelessErrorCode(code: number): number {
  return code === ErrorCode.ResourceNotFound ? ErrorCode.InvalidParams : code;
}
