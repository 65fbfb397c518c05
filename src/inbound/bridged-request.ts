// Serving tools/call, prompts/get and resources/read to a client of the stateless revision
// (2026-07-28) in rounds: the first round starts the call; when its server asks the client
// something, the round answers input_required with the questions and a sealed requestState;
// the client's retry answers them and resumes the same call (see router/input-bridge.ts).

import { RpcError } from '../errors.js';
import { Cancellation } from '../jsonrpc/cancellation.js';
import { isRawResponse, parseRawResponse, type RawResponse } from '../jsonrpc/raw.js';
import { capabilityObject } from '../protocol/capabilities.js';
import type { JsonRpcId, JsonRpcMessage, JsonRpcResponse } from '../protocol/jsonrpc.js';
import { missingCapabilityError, type Envelope } from '../protocol/stateless.js';
import { InputBridge } from '../router/input-bridge.js';
import type { Outcome, ParkedCall } from '../router/parked-calls.js';
import { isGatewayState, paramsDigest } from '../router/request-state.js';
import type { ClientSession } from './client-session.js';
import type { CallShare, Handler, HttpHeaders, RequestContext } from './context.js';
import { unwrap } from '../jsonrpc/answer.js';
import { type JsonObject, valueAt } from '../protocol/json.js';
import type { Reply } from './session-opener.js';
import { StatelessClient, dressRaw, dressResult, refusal } from './stateless-request.js';

export interface Round {
  id: JsonRpcId;
  method: string;
  params: JsonObject;
  envelope: Envelope;
  related?: (message: JsonRpcMessage) => void;
  /** The client's side going away (a stateless exchange's stream closed) cancels the call. */
  abort?: Cancellation;
  headers?: HttpHeaders;
  share?: CallShare;
}

export type RoundEnd = { kind: 'input'; result: JsonObject } | { kind: 'done'; outcome: Outcome; context: RequestContext; refused: ReadonlySet<string> };

/** A bridged call between rounds keeps the context of its first round. */
interface Bridged extends ParkedCall {
  context: RequestContext;
}

/**
 * Runs one round. `track` registers the call as in flight for the round's duration (a drain
 * waits for it; the session's end cancels it) and returns the function that unregisters it.
 * Throws RpcError for a retry that cannot resume (bad or expired state, malformed answers).
 */
export async function serveRound(session: ClientSession, handler: Handler, round: Round, track: (cancel: () => void) => () => void): Promise<RoundEnd> {
  const { params, method } = round;
  const parked = session.router.state.parked;
  const call = isGatewayState(params.requestState)
    ? (parked.take(params.requestState, session, method, paramsDigest(params), (c) => {
        c.bridge.capabilities = round.envelope.clientCapabilities;
        c.bridge.answer(params.inputResponses);
      }) as Bridged)
    : start(session, handler, round);
  const token = valueAt(params._meta, 'progressToken');
  call.bridge.related = round.related;
  call.bridge.progress =
    round.related && (typeof token === 'string' || typeof token === 'number')
      ? (p) => round.related!({ jsonrpc: '2.0', method: 'notifications/progress', params: { ...p, progressToken: token } })
      : undefined;
  const untrack = track(call.cancel);
  const offAbort = round.abort?.onCancel(call.cancel);
  try {
    const next = await Promise.race([call.work, call.bridge.inputNeeded()]);
    if (next === 'input') {
      call.bridge.related = undefined;
      call.bridge.progress = undefined;
      const requestState = parked.park(call);
      return { kind: 'input', result: { resultType: 'input_required', inputRequests: call.bridge.inputRequests(), requestState } };
    }
    call.bridge.settle();
    return { kind: 'done', outcome: next, context: call.context, refused: call.bridge.refused };
  } finally {
    untrack();
    offAbort?.();
  }
}

/**
 * One round, answered as the stateless revision wants (see serveRound for `track`): the questions
 * (input_required), or the call's outcome dressed, spliced into the server's own answer where it
 * can be. `fail` turns a failure into the session's error answer.
 */
export async function answerRound(session: ClientSession, handler: Handler, round: Round, track: (cancel: () => void) => () => void, fail: (err: unknown) => JsonRpcResponse): Promise<Reply> {
  const { id, method } = round;
  const profiled = session.profile !== undefined;
  let end: RoundEnd;
  try {
    end = await serveRound(session, handler, round, track);
  } catch (err) {
    return fail(err);
  }
  if (end.kind === 'input') return { jsonrpc: '2.0', id, result: dressResult(method, end.result, profiled) };
  const { refused } = end;
  const first = end.outcome;
  // Not raw: a parsed result already (TypeScript does not narrow the union through .result).
  let outcome = first as ParsedOutcome;
  if (first.ok && isRawResponse(first.result)) {
    // The common call: the server's answer passed on as it came, dressed by splicing.
    const dressed = refused.size === 0 ? dressRaw(method, first.result, id) : undefined;
    if (dressed !== undefined) return dressed;
    outcome = parsedOutcome(first.result);
  }
  // The server needed something this client cannot give, and failed for want of it.
  if (refused.size > 0 && (!outcome.ok || outcome.result.isError === true)) {
    const required = Object.assign({}, ...[...refused].map(capabilityObject));
    return refusal(id, missingCapabilityError(required, [...refused].join(', ')), 'request');
  }
  if (!outcome.ok) return fail(outcome.error);
  return { jsonrpc: '2.0', id, result: dressResult(method, outcome.result, profiled) };
}

/** A raw answer read the ordinary way, for what splicing cannot do (see dressRaw). */
type ParsedOutcome = { ok: true; result: JsonObject } | { ok: false; error: unknown };

function parsedOutcome(raw: RawResponse): ParsedOutcome {
  try {
    return { ok: true, result: unwrap(parseRawResponse(raw)) };
  } catch (error) {
    return { ok: false, error };
  }
}

function start(session: ClientSession, handler: Handler, round: Round): Bridged {
  if (round.params.requestState !== undefined && typeof round.params.requestState !== 'string') {
    throw new RpcError(-32602, 'params.requestState must be a string');
  }
  const bridge = new InputBridge(round.envelope.clientCapabilities);
  const cancellation = new Cancellation();
  const wantsProgress = valueAt(round.params._meta, 'progressToken') !== undefined;
  const context: RequestContext = {
    gateway: session.router,
    connections: session.router.registry,
    sessionState: session.router.state,
    finder: session.finder,
    session,
    view: session.view,
    cancellation,
    // Stable closures over the bridge: later rounds retarget them to their own channel.
    related: (m) => bridge.related?.(m),
    progress: wantsProgress ? (p) => bridge.progress?.(p) : undefined,
    requestId: round.id,
    envelope: round.envelope,
    client: new StatelessClient(round.envelope),
    httpHeaders: round.headers,
    share: round.share,
    inputs: bridge,
    protocolVersion: round.envelope.protocolVersion,
  };
  const work: Promise<Outcome> = handler(round.params, context).then(
    (result) => ({ ok: true, result }),
    (error: unknown) => ({ ok: false, error }),
  );
  return { session, bridge, work, cancel: () => cancellation.cancel(), method: round.method, params: round.params, context };
}
