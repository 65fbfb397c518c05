// The `_meta` a request to a server carries. 2026-07-28 servers get the whole envelope on every
// request (revision, client capabilities, our client info, and per request the log level and
// trace context the router passes); servers of both eras get the W3C trace keys. Invariant: the
// envelope keys are always ours (a client's own envelope never reaches a server as it is); every
// other `_meta` key of the request passes through.

import { isJsonObject, type JsonObject } from '../protocol/json.js';
import { GATEWAY_NAME, GATEWAY_VERSION } from '../protocol/mcp.js';
import { META, TRACE_KEYS } from '../protocol/stateless.js';

/** What the router says about the request it forwards: the originating client's side of it. */
export interface RequestEnvelope {
  /**
   * The capabilities of the client this request is for, so a 2026-07-28 server never asks for
   * what that client cannot give: the connection's own are narrowed to them (the extensions the
   * gateway declares stay). Default: the ones the connection declares.
   */
  clientCapabilities?: JsonObject;
  /** The log level wanted for this request's notifications/message (2026-07-28 servers only). */
  logLevel?: string;
  /** W3C trace context, passed to servers of both eras. */
  trace?: { traceparent?: string; tracestate?: string; baggage?: string };
}

/**
 * Extensions the gateway declares on every connection: MCP Apps (`io.modelcontextprotocol/ui`), so
 * servers register their UI tools; Skills (`io.modelcontextprotocol/skills`, SEP-2640), which the
 * gateway consumes (skills/list, skills/get) for its clients, so a server that offers skills only to
 * clients that declare the extension offers them. One connection serves every session, and the catalog built from
 * it is what a per-session connection must match: the inbound side hides what a client without apps
 * must not see (docs/apps.md). (2026-07-28: the connection's default envelope; a request the router
 * sends with its client's own capabilities carries those.)
 */
const DECLARED_EXTENSIONS = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] }, 'io.modelcontextprotocol/skills': {} };
// The caps are the gateway's own (app.ts builds them): extensions, if any, is an object.
export const withDeclaredExtensions = (caps: JsonObject = {}): JsonObject => ({ ...caps, extensions: { ...DECLARED_EXTENSIONS, ...(caps.extensions as JsonObject | undefined) } });

export const GATEWAY_CLIENT_INFO: Readonly<Record<string, string>> = Object.freeze({ name: GATEWAY_NAME, version: GATEWAY_VERSION });

/** What a stateless connection stamps on every request by default. */
export interface EnvelopeBase {
  protocolVersion: string;
  clientCapabilities: JsonObject;
  /** From a `logging/setLevel` the router sent this connection, used when the request names none. */
  logLevel?: string;
}

function withTrace(meta: JsonObject, trace: RequestEnvelope['trace']): void {
  if (!trace) return;
  for (const key of TRACE_KEYS) if (typeof trace[key] === 'string') meta[key] = trace[key];
}

/** The capabilities a server may ask of, on one client's behalf: what both we and that client can do. */
const ASKABLE = ['roots', 'sampling', 'elicitation'] as const;

function narrowed(declared: JsonObject, client: JsonObject): JsonObject {
  const caps: JsonObject = {};
  for (const key of ASKABLE) if (declared[key] !== undefined && isJsonObject(client[key])) caps[key] = client[key];
  if (declared.extensions !== undefined) caps.extensions = declared.extensions;
  return caps;
}

/** `params` with the full 2026-07-28 envelope in `_meta`. */
export function statelessParams(params: JsonObject | undefined, base: EnvelopeBase, envelope?: RequestEnvelope): JsonObject {
  const meta: JsonObject = {};
  const given = params?._meta;
  if (isJsonObject(given)) {
    for (const key of Object.keys(given)) {
      if (key !== META.protocolVersion && key !== META.clientCapabilities && key !== META.clientInfo && key !== META.logLevel) meta[key] = given[key];
    }
  }
  meta[META.protocolVersion] = base.protocolVersion;
  meta[META.clientCapabilities] = envelope?.clientCapabilities ? narrowed(base.clientCapabilities, envelope.clientCapabilities) : base.clientCapabilities;
  meta[META.clientInfo] = GATEWAY_CLIENT_INFO;
  // A request that names its level (even as none: a 2026-07-28 client that asked for no logs) decides.
  const level = envelope !== undefined && 'logLevel' in envelope ? envelope.logLevel : base.logLevel;
  if (level !== undefined) meta[META.logLevel] = level;
  withTrace(meta, envelope?.trace);
  return { ...params, _meta: meta };
}

/** `params` with the trace keys of `envelope` in `_meta` (servers of the stateful era). */
export function statefulParams(params: JsonObject | undefined, envelope?: RequestEnvelope): JsonObject | undefined {
  const trace = envelope?.trace;
  if (!trace || !TRACE_KEYS.some((k) => typeof trace[k] === 'string')) return params;
  const meta: JsonObject = isJsonObject(params?._meta) ? { ...params._meta } : {};
  withTrace(meta, trace);
  return { ...params, _meta: meta };
}
