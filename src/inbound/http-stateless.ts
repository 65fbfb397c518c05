// The stateless revision's HTTP rules for one POST (2026-07-28 transports page): which POSTs claim
// that revision, and the standard headers checked against the body — MCP-Protocol-Version,
// Mcp-Method and Mcp-Name, whose values may come in the `=?base64?…?=` form. Pure functions.

import type { IncomingHttpHeaders } from 'node:http';
import { ErrorCode, type JsonRpcErrorObject } from '../protocol/jsonrpc.js';
import type { JsonObject } from '../protocol/json.js';
import { claimsStateless, isStatelessVersion, readEnvelope, unsupportedVersion } from '../protocol/stateless.js';

/** Whether a POST belongs to the stateless revision: its body's envelope, or its version header, say so. */
export function postClaimsStateless(headers: IncomingHttpHeaders, message: { method?: unknown; params?: unknown }): boolean {
  if (isStatelessVersion(headers['mcp-protocol-version'])) return true;
  return typeof message.method === 'string' && claimsStateless(message.method, message.params as JsonObject | undefined);
}

/** Strict base64: whole quanta, the right padding, the standard alphabet only. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * A header value as the client meant it: the `=?base64?…?=` form decoded, anything else literal;
 * undefined when absent, repeated, or in the base64 form but not valid base64 or UTF-8.
 */
export function decodeHeaderValue(raw: string | string[] | undefined): string | undefined {
  if (typeof raw !== 'string') return undefined;
  if (!raw.startsWith('=?base64?') || !raw.endsWith('?=') || raw.length < 11) return raw;
  const inner = raw.slice(9, -2);
  if (!BASE64.test(inner)) return undefined;
  try {
    return UTF8.decode(Buffer.from(inner, 'base64'));
  } catch {
    return undefined;
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

const headerValue = decodeHeaderValue;

function mismatch(header: string, expected: unknown, got: string | undefined): JsonRpcErrorObject {
  const problem = got === undefined ? `the ${header} header is missing` : `the ${header} header does not match the body`;
  return { code: ErrorCode.HeaderMismatch, message: `Header mismatch: ${problem}`, data: { mismatch: { header, body: expected, ...(got === undefined ? {} : { value: got }) } } };
}

/** The param a request's Mcp-Name header mirrors, if its method has one. */
function namedParam(method: string, params: JsonObject): unknown {
  switch (method) {
    case 'tools/call':
    case 'prompts/get':
      return params.name;
    case 'resources/read':
      return params.uri;
    case 'tasks/get':
    case 'tasks/update':
    case 'tasks/cancel':
      return params.taskId;
    default:
      return undefined;
  }
}

/**
 * Why a stateless request must be refused with HTTP 400, or undefined when it may be served:
 * a missing envelope (-32602), headers that disagree with the body (-32020), a revision we do
 * not speak (-32022) — in that order, so each answer names the first thing to fix.
 */
export function statelessRequestProblem(headers: IncomingHttpHeaders, method: string, params: JsonObject | undefined): JsonRpcErrorObject | undefined {
  const read = readEnvelope(params, false);
  if (!read.ok) return read.error;
  const version = read.envelope.protocolVersion;
  const headerVersion = headers['mcp-protocol-version'];
  if (headerVersion !== version) return mismatch('MCP-Protocol-Version', version, typeof headerVersion === 'string' ? headerVersion : undefined);
  if (!isStatelessVersion(version)) return unsupportedVersion(version);
  const headerMethod = headerValue(headers['mcp-method']);
  if (headerMethod !== method) return mismatch('Mcp-Method', method, headerMethod);
  const named = namedParam(method, params ?? {});
  if (named !== undefined) {
    const headerName = headerValue(headers['mcp-name']);
    if (headerName !== String(named)) return mismatch('Mcp-Name', named, headerName);
  }
  return undefined;
}
