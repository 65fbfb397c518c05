// What the store keeps in place of an SSE event too large to keep (state.maxEventBytes, or the
// memory store's byte bounds): the live stream got the event in full once; a resumption replays
// the stand-in instead, so one client's large answers cannot fill the store.

import { ErrorCode, errorResponse, type JsonRpcId } from '../protocol/jsonrpc.js';
import { serializeMessage } from '../jsonrpc/ndjson.js';
import { GatewayErrorCode } from '../errors.js';

/** Largest event kept as it is by default: a page of results, not a file. */
export const DEFAULT_MAX_EVENT_BYTES = 64 * 1024;

/** The UTF-8 size of an event's data (what Redis keeps; a fair measure of what memory does). */
export function eventBytes(data: string): number {
  return Buffer.byteLength(data);
}

/** The message a resumed stream gets instead of an answer that was not kept. */
export function answerNotKept(bytes: number): string {
  return `Internal error: the answer (${bytes} bytes) was sent once on the original stream and was too large to keep for resumption (state.maxEventBytes)`;
}

/**
 * The stand-in for `data` (`bytes` long): for a JSON-RPC response, an error response for the same
 * id, so a client that resumes still gets its request settled; for a notification or a request,
 * '' (an empty event, which clients ignore like a priming event).
 */
export function standIn(data: string, bytes: number = eventBytes(data)): string {
  let message: { method?: unknown; id?: unknown };
  try {
    message = JSON.parse(data) as typeof message;
  } catch {
    return '';
  }
  if (message === null || typeof message !== 'object' || message.method !== undefined) return '';
  const id = message.id;
  if (typeof id !== 'string' && typeof id !== 'number') return '';
  return serializeMessage(errorResponse(id as JsonRpcId, ErrorCode.InternalError, answerNotKept(bytes), { code: GatewayErrorCode.ANSWER_NOT_KEPT, bytes }));
}

/** What to keep of `data` under `maxEventBytes`: itself, or its stand-in. */
export function keptForm(data: string, maxEventBytes: number): string {
  // A string of n UTF-16 units is n to 3n UTF-8 bytes: most events are decided without counting.
  if (data.length * 3 <= maxEventBytes) return data;
  if (data.length <= maxEventBytes && eventBytes(data) <= maxEventBytes) return data;
  return standIn(data);
}
