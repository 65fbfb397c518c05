// Input rounds (MRTR) of a 2026-07-28 server. For a client of the stateful era: the server's
// questions become real requests to that client (elicitation/create, sampling/createMessage,
// roots/list) on the call's own channel, and the call is sent again with the answers and the
// server's requestState byte for byte; the client never sees a round. For a 2026 client: the
// rounds pass through, the server's requestState wrapped in a signed one of ours.

import { randomUUID } from 'node:crypto';
import { RpcError } from '../../errors.js';
import type { PeerAnswer } from '../../jsonrpc/peer.js';
import { chunksInclude, isRawResponse, parseRawResponse } from '../../jsonrpc/raw.js';
import { ErrorCode, isErrorResponse, type JsonRpcResponse } from '../../protocol/jsonrpc.js';
import { REQUESTS_TO_CLIENTS } from '../../protocol/mcp.js';
import { StateWrapper, paramsDigest, type WrappedClaims } from '../../router/request-state.js';
import type { Connection } from '../../router/session.js';
import type { RequestContext } from '../context.js';
import { judgeSamplingRequest, uriJudge, type UriJudge } from '../../catalog/relayed-uris.js';
import { type JsonObject, isJsonObject } from '../../protocol/json.js';

/** A server that keeps asking after this many rounds is given up on (the SDK's own shim stops at 8 too). */
export const MAX_INPUT_ROUNDS = 8;
/** A round that asks nothing (the server only wants its state back) waits this long: a server cannot make us spin. */
export const EMPTY_ROUND_PAUSE_MS = 250;
/** How long a 2026 client has to come back with a wrapped state: a person may take a while, and nothing is held meanwhile. */
export const WRAPPED_STATE_TTL_MS = 30 * 60_000;

/** Forwards one request of `context` to `connection` with `send`, taking care of its input rounds. */
export type RoundsForward = (connection: Connection, context: RequestContext, method: string, params: JsonObject, send: (params: JsonObject) => Promise<PeerAnswer>) => Promise<PeerAnswer>;

interface InputRequired extends JsonObject {
  inputRequests?: unknown;
  requestState?: unknown;
}

/** One question of a round, once checked to be a request a client can be asked. */
interface InputRequest {
  method: string;
  params?: unknown;
}

/**
 * Sends `params` with `send`, answering the server's input rounds through the client, and
 * resolves with the first answer that is not input_required. A round that cannot be answered
 * (the client lacks the capability or refuses, a malformed question, too many rounds) ends the
 * call: an isError result for tools/call, an RpcError for prompts/get and resources/read.
 */
export const answerInputRounds: RoundsForward = async (connection, context, method, params, send) => {
  let next = params;
  for (let round = 1; ; round++) {
    const answer = await send(next);
    const asked = inputRequired(answer);
    if (asked === undefined) return answer;
    try {
      if (round > MAX_INPUT_ROUNDS) throw new RpcError(ErrorCode.InternalError, `server "${connection.name}" still asked for input after ${MAX_INPUT_ROUNDS} rounds`);
      const inputResponses = await askClient(connection, context, asked);
      next = { ...params, inputResponses };
      if (typeof asked.requestState === 'string') next.requestState = asked.requestState;
    } catch (err) {
      return failure(method, err);
    }
  }
};

/**
 * Forwards a 2026 client's request to a 2026 server: the requestState the client brings back must
 * be one we wrapped for this server, principal, method and params (else -32602, as for any bad
 * state); the server gets its own back. An input_required answer's requestState is wrapped.
 */
export const passInputRounds: RoundsForward = async (connection, context, method, params, send) => {
  const states = context.sessionState.states;
  const bound: Omit<WrappedClaims, 'inner' | 'exp'> = { server: connection.name, principal: context.session.principal ?? context.session.profile?.name ?? '', method, digest: paramsDigest(params) };
  let forwarded = params;
  if (params.requestState !== undefined) {
    const inner = StateWrapper.isWrapped(params.requestState) ? states.unwrap(params.requestState, bound) : undefined;
    if (inner === undefined) throw new RpcError(ErrorCode.InvalidParams, 'Invalid or expired requestState');
    forwarded = { ...params, requestState: inner };
  }
  const answer = await send(forwarded);
  const asked = inputRequired(answer);
  if (asked === undefined || typeof asked.requestState !== 'string') return answer;
  const requestState = states.wrap({ inner: asked.requestState, ...bound, exp: Date.now() + WRAPPED_STATE_TTL_MS });
  return { jsonrpc: '2.0', id: 0, result: { ...asked, inputRequests: judgedQuestions(asked.inputRequests, () => uriJudge(context.gateway.catalog, context.view, connection.name)), requestState } };
};

/** A round's sampling questions, their messages judged like a relayed sampling request's. */
function judgedQuestions(requests: unknown, judgeOf: () => UriJudge | undefined): unknown {
  if (!isJsonObject(requests)) return requests;
  const entries = Object.entries(requests);
  if (!entries.some(([, r]) => isSampling(r))) return requests;
  const judge = judgeOf();
  const out: JsonObject = {};
  for (const [key, request] of entries) {
    // Params that are not an object have no messages to judge: they pass as they are.
    out[key] = isSampling(request) && isJsonObject(request.params) ? { ...request, params: judgeSamplingRequest(request.params, judge) } : request;
  }
  return out;
}

function isSampling(request: unknown): request is JsonObject {
  return isJsonObject(request) && request.method === 'sampling/createMessage';
}

/** The answer's result when it is input_required; a raw answer is parsed only when it can be one. */
function inputRequired(answer: PeerAnswer): InputRequired | undefined {
  let result: unknown;
  if (isRawResponse(answer)) {
    if (answer.isError || !chunksInclude(answer.chunks, '"input_required"')) return undefined;
    result = (parseRawResponse(answer) as { result?: unknown }).result;
  } else {
    if (isErrorResponse(answer as JsonRpcResponse)) return undefined;
    result = (answer as { result?: unknown }).result;
  }
  return isJsonObject(result) && result.resultType === 'input_required' ? result : undefined;
}

/** Every question of a round, asked at once; their answers keyed as the server keyed them. */
async function askClient(connection: Connection, context: RequestContext, asked: InputRequired): Promise<JsonObject> {
  const requests = asked.inputRequests ?? {};
  if (!isJsonObject(requests)) throw malformed(connection, 'inputRequests is not an object');
  const entries: [string, InputRequest][] = [];
  for (const [key, request] of Object.entries(requests)) {
    const method = isJsonObject(request) ? request.method : undefined;
    if (typeof method !== 'string' || !REQUESTS_TO_CLIENTS.has(method)) throw malformed(connection, `input request "${key.slice(0, 64)}" is not one a client can be asked`);
    entries.push([key, { method, params: (request as JsonObject).params }]);
  }
  if (entries.length === 0) {
    if (typeof asked.requestState !== 'string') throw malformed(connection, 'it asked nothing and gave no requestState');
    await pause(context);
    return {};
  }
  const stop = new AbortController();
  const unregister = context.cancellation.onCancel(() => stop.abort());
  try {
    const answers = await Promise.all(entries.map(([, request]) => context.sessionState.askClient(connection, request.method, questionParams(request), context, stop.signal)));
    const responses: JsonObject = {};
    entries.forEach(([key], i) => {
      responses[key] = answers[i];
    });
    return responses;
  } catch (err) {
    stop.abort();
    throw err;
  } finally {
    unregister();
  }
}

/** A URL-mode elicitation of 2026-07-28 carries no elicitationId; a 2025-11-25 client needs one. */
function questionParams(request: InputRequest): JsonObject | undefined {
  const params = request.params;
  // Relayed as the server sent them: the client judges params that are not an object.
  if (request.method !== 'elicitation/create' || !isJsonObject(params) || params.mode !== 'url' || typeof params.elicitationId === 'string') return params as JsonObject | undefined;
  return { ...params, elicitationId: randomUUID() };
}

function pause(context: RequestContext): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, EMPTY_ROUND_PAUSE_MS);
    const unregister = context.cancellation.onCancel(() => {
      clearTimeout(timer);
      reject(new RpcError(ErrorCode.InternalError, 'the request was cancelled'));
    });
    function done(): void {
      unregister();
      resolve();
    }
  });
}

function malformed(connection: Connection, what: string): RpcError {
  return new RpcError(ErrorCode.InternalError, `server "${connection.name}" asked for input the gateway cannot relay: ${what}`);
}

/** How a round that cannot be answered ends the call (as the SDK's own shim ends it). */
function failure(method: string, err: unknown): PeerAnswer {
  if (method !== 'tools/call') throw err;
  const why = err instanceof Error ? err.message : String(err);
  return { jsonrpc: '2.0', id: 0, result: { content: [{ type: 'text', text: `The tool needed input the client could not give: ${why}` }], isError: true } };
}
