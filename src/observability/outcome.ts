// How a request ended, as a short bounded label for metrics and spans: 'ok', 'error' (a JSON-RPC
// error, the server's or ours), or a gateway failure's code in lower case ('server_timeout',
// 'cancelled', 'limit_exceeded', …). And whether a client's error was a policy refusal.

import type { Catalog } from '../catalog/build.js';
import type { CatalogView } from '../catalog/view.js';
import { GatewayError, GatewayErrorCode } from '../errors.js';
import { ErrorCode } from '../protocol/jsonrpc.js';
import type { RefusalReason } from './stats.js';
import type { JsonObject } from '../protocol/json.js';

export interface Outcome {
  label: string;
  /** The JSON-RPC error code, when the answer was an error. */
  code?: number;
}

const OK: Outcome = { label: 'ok' };

/** Lower-case labels of the gateway's codes, made once (no string built per failure). */
const GATEWAY_LABELS: ReadonlyMap<string, string> = new Map(Object.values(GatewayErrorCode).map((code) => [code, code.toLowerCase()]));

/** What a session answered a client: a response, a passed-through text, or nothing (notification). */
export function replyOutcome(reply: unknown): Outcome {
  if (reply === null || typeof reply !== 'object') return OK;
  // A server's error passed on as its own bytes.
  if ((reply as { isError?: unknown }).isError === true) return { label: 'error', code: rawErrorCode((reply as { chunks?: unknown }).chunks) };
  if (!('error' in reply)) return OK;
  const error = (reply as { error?: { code?: unknown; data?: { code?: unknown } } }).error;
  const code = typeof error?.code === 'number' ? error.code : undefined;
  const gateway = error?.data?.code;
  return { label: (typeof gateway === 'string' && GATEWAY_LABELS.get(gateway)) || 'error', code };
}

/** What a server answered a forwarded request: a parsed response or its raw bytes (isError set by the scan). */
export function answerOutcome(answer: unknown): Outcome {
  if (answer === null || typeof answer !== 'object') return OK;
  if ((answer as { isError?: unknown }).isError === true) return { label: 'error', code: rawErrorCode((answer as { chunks?: unknown }).chunks) };
  if (!('error' in answer)) return OK;
  const code = (answer as { error?: { code?: unknown } }).error?.code;
  return { label: 'error', code: typeof code === 'number' ? code : undefined };
}

/** The code of an error response kept as the server's text (its chunks): parsed on this rare path only, and only when small. */
function rawErrorCode(chunks: unknown): number | undefined {
  if (!Array.isArray(chunks) || !chunks.every((c) => typeof c === 'string' || Buffer.isBuffer(c))) return undefined;
  if (chunks.reduce((n: number, c: Buffer | string) => n + c.length, 0) > 65_536) return undefined;
  try {
    const text = chunks.length === 1 ? String(chunks[0]) : Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c))).toString('utf8');
    const code = JSON.parse(text)?.error?.code;
    return typeof code === 'number' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** A forwarded request that failed in the gateway (timeout, cancelled, unavailable…). */
export function failureOutcome(err: unknown): Outcome {
  if (err instanceof GatewayError) return { label: GATEWAY_LABELS.get(err.code) ?? 'internal' };
  return { label: 'internal' };
}

/**
 * Whether an error answer to a client was the gateway refusing an item the client's view does not
 * have: 'profile' when the catalog has it but the client's profile hides it (filters, read-only),
 * 'unknown' when the catalog has no such name (never offered, or denied by the server's policy:
 * the gateway cannot tell those apart, on purpose). Undefined when a server refused it itself.
 * Unknown and denied names get the same error on the wire; this is for the operator only.
 */
export function refusalOf(method: string, params: JsonObject | undefined, code: number | undefined, view: CatalogView, catalog: Catalog): RefusalReason | undefined {
  if (method === 'tools/call' || method === 'prompts/get') {
    if (code !== ErrorCode.InvalidParams) return undefined;
    const name = params?.name;
    if (typeof name !== 'string') return undefined;
    const kind = method === 'tools/call' ? 'tools' : 'prompts';
    if (view.lists[kind].index.has(name)) return undefined;
    return catalog.lists[kind].index.has(name) ? 'profile' : 'unknown';
  }
  if (method === 'resources/read' || method === 'resources/subscribe') {
    const uri = params?.uri;
    if (typeof uri !== 'string' || code !== ErrorCode.ResourceNotFound) return undefined;
    return view.allowsUri(uri) ? undefined : 'profile';
  }
  return undefined;
}
