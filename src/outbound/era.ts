// Which era a server speaks: what a server/discover probe's answer (or failure) says, and the
// verdicts remembered for the process's life, keyed by what identifies the server (its command
// line, or its URL). Pure but for the one Map. Invariant: only evidence the spec names decides
// "stateless" (a DiscoverResult, or a stateless-revision error code); auth failures, 5xx and network errors on
// HTTP decide nothing (the attempt fails and the next one probes again).

import type { JsonObject } from '../protocol/json.js';
import { GatewayError } from '../errors.js';
import { ErrorCode, isErrorResponse, type JsonRpcResponse } from '../protocol/jsonrpc.js';
import { isSupportedVersion } from '../protocol/mcp.js';
import { STATELESS_VERSIONS } from '../protocol/stateless.js';
import type { ServerConfig } from '../config/types.js';

export type Era = 'stateless' | 'stateful';

/** What one probe answer says. */
export type DiscoverVerdict =
  | { kind: 'stateless'; version: string; result: JsonObject }
  /** -32022 naming a revision we speak: ask again with it. */
  | { kind: 'retry'; version: string }
  | { kind: 'stateful'; why: string }
  /** A stateless server that refuses us for good (-32020, -32021, no revision in common). */
  | { kind: 'refused'; why: string };

const isStateless = (v: unknown): v is string => typeof v === 'string' && (STATELESS_VERSIONS as readonly string[]).includes(v);

/** Reads the answer to `server/discover`. */
export function judgeDiscover(response: JsonRpcResponse): DiscoverVerdict {
  if (isErrorResponse(response)) {
    const { code, message, data } = response.error;
    const listed = (data as { supported?: unknown } | undefined)?.supported;
    const supported: unknown[] = Array.isArray(listed) ? listed : [];
    if (code === ErrorCode.UnsupportedProtocolVersion) {
      const ours = supported.find(isStateless);
      if (ours !== undefined) return { kind: 'retry', version: ours };
      // A server that knows the stateless-revision codes but names only stateful revisions: take it at its word.
      if (supported.some(isSupportedVersion)) return { kind: 'stateful', why: `it supports ${supported.join(', ')}` };
      return { kind: 'refused', why: `no protocol revision in common (it supports ${supported.map(String).join(', ') || 'none it names'})` };
    }
    if (code === ErrorCode.HeaderMismatch || code === ErrorCode.MissingRequiredClientCapability) {
      return { kind: 'refused', why: `server/discover refused: ${code} ${message}` };
    }
    return { kind: 'stateful', why: `server/discover answered ${code} ${message}` };
  }
  const result: JsonObject = response.result;
  if (result === null || typeof result !== 'object') return { kind: 'stateful', why: 'server/discover answered something that is not a DiscoverResult' };
  const versions: unknown[] | undefined = Array.isArray(result.supportedVersions) ? result.supportedVersions : undefined;
  if (versions === undefined) {
    if (result.capabilities !== null && typeof result.capabilities === 'object') return { kind: 'stateless', version: STATELESS_VERSIONS[0], result };
    return { kind: 'stateful', why: 'server/discover answered something that is not a DiscoverResult' };
  }
  const ours = STATELESS_VERSIONS.find((v) => versions.includes(v));
  if (ours !== undefined) return { kind: 'stateless', version: ours, result };
  return { kind: 'stateful', why: `no stateless revision in common (it supports ${versions.map(String).join(', ')})` };
}

/**
 * What a probe that got no answer says. stdio: a process that exited on it is stateful (and must be
 * started again), silence is stateful. HTTP: a 4xx without a stateless-revision error is stateful; 401/403, 5xx,
 * timeouts and network failures say nothing about the era.
 */
export function judgeProbeFailure(err: unknown, kind: 'stdio' | 'http'): 'stateful' | 'exited' | 'undecided' {
  if (!(err instanceof GatewayError)) return 'undecided';
  if (kind === 'stdio') {
    if (err.code === 'SERVER_TIMEOUT') return 'stateful';
    if (err.code === 'CONNECTION_CLOSED') return 'exited';
    return 'undecided';
  }
  const status = err.status;
  if (err.code === 'PROTOCOL_ERROR') return 'stateful';
  if (status === undefined || status === 401 || status === 403) return 'undecided';
  return status >= 400 && status < 500 ? 'stateful' : 'undecided';
}

/** What identifies a server across reconnects: the same command line, or the same URL. */
export function eraKey(config: ServerConfig): string {
  return config.kind === 'stdio' ? `stdio:${JSON.stringify([config.command, config.args, config.cwd])}` : `http:${config.url}`;
}

const verdicts = new Map<string, Era>();

/** The era servers were found to speak, for the life of the process (reconnects reuse it). */
export const eraCache = {
  get: (key: string): Era | undefined => verdicts.get(key),
  set: (key: string, era: Era): void => void verdicts.set(key, era),
  delete: (key: string): void => void verdicts.delete(key),
  clear: (): void => verdicts.clear(),
};
