// Serving tools/call, prompts/get and resources/read to a client of the stateless revision
// (2026-07-28) in rounds: the first round starts the call; when its server asks the client
// something, the round answers input_required with the questions and a sealed requestState;
// the client's retry answers them and resumes the same call (see router/input-bridge.ts).

import { RpcError } from '../errors.js';
import { Cancellation } from '../jsonrpc/cancellation.js';
import type { JsonRpcId, JsonRpcMessage } from '../protocol/jsonrpc.js';
import type { Envelope } from '../protocol/modern.js';
import { InputBridge } from '../router/input-bridge.js';
import type { Outcome, ParkedCall } from '../router/parked-calls.js';
import { isGatewayState, paramsDigest } from '../router/request-state.js';
import type { ClientSession } from './client-session.js';
import type { CallShare, Handler, HttpHeaders, RequestContext } from './context.js';

export interface Round {
  id: JsonRpcId;
  method: string;
  params: Record<string, any>;
  modern: Envelope;
  related?: (message: JsonRpcMessage) => void;
  /** The client's side going away (a stateless exchange's stream closed) cancels the call. */
  abort?: Cancellation;
  headers?: HttpHeaders;
  share?: CallShare;
}

export type RoundEnd =
  | { kind: 'input'; result: Record<string, any> }
  | { kind: 'done'; outcome: Outcome; context: RequestContext; refused: ReadonlySet<string> };

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
        c.bridge.capabilities = round.modern.clientCapabilities;
        c.bridge.answer(params.inputResponses);
      }) as Bridged)
    : start(session, handler, round);
  const token = params._meta?.progressToken;
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

function start(session: ClientSession, handler: Handler, round: Round): Bridged {
  if (round.params.requestState !== undefined && typeof round.params.requestState !== 'string') {
    throw new RpcError(-32602, 'params.requestState must be a string');
  }
  const bridge = new InputBridge(round.modern.clientCapabilities);
  const cancellation = new Cancellation();
  const wantsProgress = round.params._meta?.progressToken !== undefined;
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
    modern: round.modern,
    httpHeaders: round.headers,
    share: round.share,
    inputs: bridge,
    protocolVersion: round.modern.protocolVersion,
  };
  const work: Promise<Outcome> = handler(round.params, context).then(
    (result) => ({ ok: true, result: result as Record<string, any> }),
    (error: unknown) => ({ ok: false, error }),
  );
  return { session, bridge, work, cancel: () => cancellation.cancel(), method: round.method, params: round.params, context };
}
