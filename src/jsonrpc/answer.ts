// A Peer's answer read as a result: the result of a parsed response, or its JSON-RPC error thrown
// as an RpcError (relayed to the client as it is). Shared by the handlers and the session.

import { RpcError } from '../errors.js';
import { isErrorResponse, type JsonRpcResponse, type JsonRpcResult } from '../protocol/jsonrpc.js';
import type { PeerAnswer } from './peer.js';

/** The result of a parsed answer (callers that did not ask for `raw` never get text). */
export function unwrap(answer: PeerAnswer): JsonRpcResult {
  const response = answer as JsonRpcResponse;
  if (isErrorResponse(response)) throw RpcError.of(response.error);
  return response.result;
}
