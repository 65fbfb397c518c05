// Facts of the stateless revision (2026-07-28): the per-request `_meta` envelope, what a request
// must carry to be served, and the methods and result fields that differ from the stateful era.
// Pure; imports nothing but the JSON-RPC codes.

import { isJsonObject, type JsonObject } from './json.js';
import { ErrorCode, type JsonRpcErrorObject } from './jsonrpc.js';

/** Revisions of the stateless era we speak, newest first. */
export const STATELESS_VERSIONS = ['2026-07-28'] as const;
export const LATEST_STATELESS_VERSION = STATELESS_VERSIONS[0];

export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** The W3C trace context keys, passed through as they are. */
export const TRACE_KEYS = ['traceparent', 'tracestate', 'baggage'] as const;

/** What a stateless request says about its client, read from its `_meta`. */
export interface Envelope {
  protocolVersion: string;
  clientCapabilities: JsonObject;
  clientInfo?: JsonObject;
  logLevel?: string;
  trace: Partial<Record<(typeof TRACE_KEYS)[number], string>>;
}

/**
 * Whether a request claims the stateless era: it carries the envelope (even a broken one, which is
 * then refused as such), or is server/discover. Anything else is the stateful era's.
 */
export function claimsStateless(method: string, params: JsonObject | undefined): boolean {
  if (method === 'server/discover') return true;
  const meta = params?._meta;
  return meta !== null && typeof meta === 'object' && (META.protocolVersion in meta || META.clientCapabilities in meta);
}

const LEVELS = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);

type EnvelopeError = { ok: false; error: JsonRpcErrorObject };

function invalidEnvelope(key: string, problem: string): EnvelopeError {
  return {
    ok: false,
    error: { code: ErrorCode.InvalidParams, message: `Invalid _meta envelope for protocol revision ${LATEST_STATELESS_VERSION}: ${key}: ${problem}`, data: { envelope: { key, problem } } },
  };
}

/** The -32022 answer for a revision we do not speak (error.data names what we do). */
export function unsupportedVersion(requested: string): JsonRpcErrorObject {
  return { code: ErrorCode.UnsupportedProtocolVersion, message: `Unsupported protocol version: ${requested}`, data: { supported: [...STATELESS_VERSIONS], requested } };
}

export function isStatelessVersion(v: unknown): boolean {
  return typeof v === 'string' && (STATELESS_VERSIONS as readonly string[]).includes(v);
}

/**
 * The envelope of a request, or the error to answer it with (HTTP 400 each). Presence is checked
 * before the version is judged, so a transport can check its headers against the body in between
 * (a missing envelope is -32602; a header naming another version -32020; an unknown one -32022).
 */
export function readEnvelope(params: JsonObject | undefined, checkVersion = true): { ok: true; envelope: Envelope } | EnvelopeError {
  const meta = params?._meta;
  if (!isJsonObject(meta)) return invalidEnvelope('_meta', 'missing');
  const version = meta[META.protocolVersion];
  if (typeof version !== 'string') return invalidEnvelope(META.protocolVersion, 'missing');
  const caps = meta[META.clientCapabilities];
  if (!isJsonObject(caps)) return invalidEnvelope(META.clientCapabilities, 'missing');
  const level = meta[META.logLevel];
  // LEVELS holds strings only, so a level it has is a string.
  if (level !== undefined && !LEVELS.has(level as string)) return invalidEnvelope(META.logLevel, 'not a log level');
  if (checkVersion && !isStatelessVersion(version)) return { ok: false, error: unsupportedVersion(version) };
  const info = meta[META.clientInfo];
  const trace: Envelope['trace'] = {};
  for (const k of TRACE_KEYS) {
    const v = meta[k];
    if (typeof v === 'string') trace[k] = v;
  }
  return {
    ok: true,
    envelope: {
      protocolVersion: version,
      clientCapabilities: caps,
      // An array clientInfo was kept before too (only null and primitives are dropped).
      ...(info !== null && typeof info === 'object' ? { clientInfo: info as JsonObject } : {}),
      ...(level !== undefined ? { logLevel: level as string } : {}),
      trace,
    },
  };
}

/** Methods of the stateful era that a stateless request may not use (404 + -32601 on HTTP). */
export const STATEFUL_ONLY: ReadonlySet<string> = new Set(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe', 'tasks/result', 'tasks/list']);

/** Results that carry caching hints (ttlMs, cacheScope); skills/list per SEP-2640 in this revision. */
export const CACHEABLE: ReadonlySet<string> = new Set(['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read', 'skills/list']);

/** The only methods a server may answer with input_required (MRTR). */
export const MRTR_METHODS: ReadonlySet<string> = new Set(['tools/call', 'resources/read', 'prompts/get']);

/** The -32021 answer when a request lacks a capability that serving it needs. */
export function missingCapabilityError(required: JsonObject, why: string): JsonRpcErrorObject {
  return { code: ErrorCode.MissingRequiredClientCapability, message: `Missing required client capability: ${why}`, data: { requiredCapabilities: required } };
}

/**
 * How a transport should answer an error the gateway itself decided before serving: 'method' (no
 * such method in this revision: HTTP 404) or 'request' (the request is malformed for this
 * revision: HTTP 400). A symbol key, so it never reaches the wire.
 */
export const REFUSAL = Symbol('switchboard.refusal');
export type RefusalKind = 'method' | 'request';
