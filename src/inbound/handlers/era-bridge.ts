// A forwarded request crossing eras: the one place where the era of the client a request came
// from meets the era of the server it goes to. Handlers forward era-blind (forward.ts forwardOn);
// this module decides what the server hears of the client (2026-07-28 servers: its capabilities
// and log level) and what becomes of the answer: a stateful server's, for a stateless client,
// is complete; a stateless server's input rounds pass to a stateless client, and are answered
// here for a stateful one (input-rounds.ts).

import type { PeerAnswer } from '../../jsonrpc/peer.js';
import { isRawResponse, parseRawResponse } from '../../jsonrpc/raw.js';
import { isErrorResponse, type JsonRpcResponse } from '../../protocol/jsonrpc.js';
import { MRTR_METHODS } from '../../protocol/stateless.js';
import type { Connection } from '../../router/session.js';
import type { RequestContext } from '../context.js';
import { answerInputRounds, passInputRounds } from './input-rounds.js';
import { isJsonObject, type JsonObject } from '../../protocol/json.js';

type ForwardOptions = NonNullable<Parameters<Connection['forward']>[2]>;
type RequestEnvelope = NonNullable<ForwardOptions['envelope']>;

/** Forwards `method` with `options` to `connection`, translating between the request's era and the server's. */
export function forwardAcrossEras(connection: Connection, context: RequestContext, method: string, params: JsonObject, options: ForwardOptions): Promise<PeerAnswer> {
  if (connection.era !== 'stateless') {
    const answer = connection.forward(method, params, options);
    return context.envelope === undefined ? answer : answer.then(completeForStateless);
  }
  // A 2026-07-28 server hears, on each request, what this client can be asked and its log level.
  options.envelope = requestEnvelope(context);
  if (!MRTR_METHODS.has(method)) return connection.forward(method, params, options);
  const send = (p: JsonObject) => connection.forward(method, p, options);
  // A 2026 client takes the rounds itself; one of the stateful era cannot: they are answered here.
  // A nested call of a run answers its rounds here too: its result is the script's, not the client's.
  return context.envelope !== undefined && context.nested !== true ? passInputRounds(connection, context, method, params, send) : answerInputRounds(connection, context, method, params, send);
}

/**
 * A stateful-era server's answer, for a client of the stateless revision: complete, whatever its
 * result spells. `resultType` means nothing before 2026-07-28; passed on as it was, a server could
 * hand the client an input request (`input_required`) past the gateway's own checks of what this
 * client may be asked. A raw answer without such a member stays raw.
 */
function completeForStateless(answer: PeerAnswer): PeerAnswer {
  let response: JsonRpcResponse;
  if (isRawResponse(answer)) {
    if (answer.isError || answer.resultPlain) return answer;
    try {
      response = parseRawResponse(answer);
    } catch {
      return answer;
    }
  } else {
    response = answer as JsonRpcResponse;
  }
  if (isErrorResponse(response)) return response;
  const result: unknown = response.result;
  if (!isJsonObject(result) || result.resultType === undefined || result.resultType === 'complete') return response;
  return { ...response, result: { ...result, resultType: 'complete' } };
}

/**
 * The originating client's side of a request to a 2026-07-28 server. A stateless request names its
 * log level, even as none; a stateful session's request names one only after logging/setLevel
 * (else the connection's own level applies: outbound/envelope.ts).
 */
function requestEnvelope(context: RequestContext): RequestEnvelope {
  const envelope = context.envelope;
  if (envelope !== undefined) return { clientCapabilities: envelope.clientCapabilities, logLevel: envelope.logLevel };
  const level = context.session.logLevel;
  return level === undefined ? { clientCapabilities: context.session.clientCapabilities } : { clientCapabilities: context.session.clientCapabilities, logLevel: level };
}
