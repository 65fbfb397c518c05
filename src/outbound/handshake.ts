// Opening a server: which era it speaks (the spec's backward-compatibility rules), then its
// handshake: server/discover for 2026-07-28, initialize + initialized for the stateful era.
// stdio probes the real process (a stateful server that exits on the probe is started again, one
// that ignores it costs the short probe timeout); HTTP probes with a stateless POST and falls back to
// the stateful transports (Streamable HTTP, then HTTP+SSE). The verdict is remembered (era.ts).

import { type JsonObject, valueAt } from '../protocol/json.js';
import { GatewayError, RpcError, describeError } from '../errors.js';
import type { Peer } from '../jsonrpc/peer.js';
import type { Logger } from '../log.js';
import { ErrorCode, type JsonRpcResponse } from '../protocol/jsonrpc.js';
import { GATEWAY_NAME, GATEWAY_VERSION, LATEST_PROTOCOL_VERSION, isSupportedVersion } from '../protocol/mcp.js';
import { LATEST_STATELESS_VERSION, META, STATELESS_VERSIONS } from '../protocol/stateless.js';
import type { ServerConfig } from '../config/types.js';
import type { Transport } from '../transport.js';
import { statelessParams } from './envelope.js';
import { eraCache, eraKey, judgeDiscover, judgeProbeFailure, type Era } from './era.js';

/** The longest a stdio probe waits for an answer before taking silence for the stateful era. */
export const PROBE_TIMEOUT_MS = 5000;

export type PipeKind = 'stdio' | 'stateless-http' | 'stateful-http';

/** What the server said about itself in its handshake. */
export interface ServerIdentity {
  era: Era;
  protocolVersion: string;
  capabilities: JsonObject;
  /** The server's Implementation as sent (title and description are what the server directory reads; unchecked). */
  serverInfo?: { name?: string; version?: string; title?: unknown; description?: unknown };
  instructions?: string;
}

export interface Pipe<O> {
  peer: Peer<O>;
  transport: Transport;
}

export interface HandshakeHost<O> {
  readonly config: ServerConfig;
  readonly logger: Logger;
  /** Capabilities we declare (the envelope default; initialize's capabilities). */
  readonly clientCapabilities: JsonObject;
  /** Starts a pipe of this kind, its Peer wired to the connection (stateless HTTP speaks `version`). */
  open(kind: PipeKind, version?: string): Promise<Pipe<O>>;
}

const nonEmpty = (s: unknown): string | undefined => (typeof s === 'string' && s.trim() ? s : undefined);

function mismatch(config: ServerConfig, why: string): GatewayError {
  return new GatewayError('PROTOCOL_MISMATCH', why, { server: config.name });
}

/** Opens the server and says which era it speaks; throws if it cannot be spoken to (the attempt fails). */
export async function openServer<O>(host: HandshakeHost<O>): Promise<Pipe<O> & { identity: ServerIdentity }> {
  const c = host.config;
  const http = c.kind === 'http';
  const key = eraKey(c);
  // A config built by hand (a script, an old test) may lack the key: the schema's default.
  const protocol = c.protocol ?? 'auto';
  if (http && c.transport === 'sse') {
    if (protocol === '2026-07-28') throw mismatch(c, 'protocol 2026-07-28 is not spoken over the legacy HTTP+SSE transport (transport: sse)');
    return statefulHandshake(host, await host.open('stateful-http'));
  }
  const cached = protocol === 'auto' ? eraCache.get(key) : undefined;
  if (protocol === 'stateful' || cached === 'stateful') {
    try {
      return await statefulHandshake(host, await host.open(http ? 'stateful-http' : 'stdio'));
    } catch (err) {
      // Refused (not a crash: that says nothing of the era): the verdict may be stale, the
      // server upgraded. The next attempt probes.
      if (cached === 'stateful' && err instanceof GatewayError && err.code === 'PROTOCOL_ERROR') eraCache.delete(key);
      throw err;
    }
  }
  const pinned = protocol === '2026-07-28';
  const pipe = await host.open(http ? 'stateless-http' : 'stdio', LATEST_STATELESS_VERSION);
  const probed = await probe(host, pipe, pinned);
  if (probed.kind === 'stateless') {
    eraCache.set(key, 'stateless');
    return { ...pipe, identity: probed.identity };
  }
  if (pinned) throw mismatch(c, `the server does not speak 2026-07-28 (protocol: 2026-07-28 is configured): ${probed.why}`);
  // A server known to be stateless that crashed or hung before answering has not turned stateful.
  if (cached === 'stateless' && probed.silent) throw new GatewayError('CONNECTION_CLOSED', `server/discover got no answer: ${probed.why}`, { server: c.name });
  host.logger.debug({ why: probed.why }, 'no 2026-07-28 answer to server/discover: speaking the stateful protocol (initialize)');
  eraCache.set(key, 'stateful');
  if (http) {
    await pipe.peer.close().catch(() => {});
    return statefulHandshake(host, await host.open('stateful-http'));
  }
  // A process that exited on the probe is started again; one that answered keeps its pipe.
  return statefulHandshake(host, probed.exited ? await host.open('stdio') : pipe);
}

/** `silent`: no answer at all (exit or timeout), which on stdio counts as the stateful era. */
type Probed = { kind: 'stateless'; identity: ServerIdentity } | { kind: 'stateful'; why: string; exited: boolean; silent: boolean };

/** server/discover with the full envelope; -32022 naming a revision we speak is asked once more. */
async function probe<O>(host: HandshakeHost<O>, pipe: Pipe<O>, pinned: boolean): Promise<Probed> {
  const c = host.config;
  const kind = c.kind === 'http' ? 'http' : 'stdio';
  // Silence is evidence on stdio only; there, a short wait unless the era is pinned.
  const timeoutMs = kind === 'stdio' && !pinned ? Math.min(PROBE_TIMEOUT_MS, c.startupTimeoutMs / 2) : c.startupTimeoutMs;
  let version: string = LATEST_STATELESS_VERSION;
  for (let round = 0; round < 2; round++) {
    let answer: JsonRpcResponse;
    try {
      answer = (await pipe.peer.requestRaw('server/discover', statelessParams(undefined, { protocolVersion: version, clientCapabilities: host.clientCapabilities }), { timeoutMs })) as JsonRpcResponse;
    } catch (err) {
      const failure = judgeProbeFailure(err, kind);
      if (failure === 'undecided') throw err;
      return { kind: 'stateful', why: describeError(err), exited: failure === 'exited', silent: true };
    }
    const verdict = judgeDiscover(answer);
    switch (verdict.kind) {
      case 'stateless':
        return { kind: 'stateless', identity: discovered(verdict.version, verdict.result) };
      case 'stateful':
        return { kind: 'stateful', why: verdict.why, exited: false, silent: false };
      case 'refused':
        throw mismatch(c, verdict.why);
      case 'retry':
        version = verdict.version;
    }
  }
  throw mismatch(c, `server/discover refused revision ${version}, which it says it supports`);
}

function discovered(version: string, result: JsonObject): ServerIdentity {
  // serverInfo moved into the result's _meta (spec PR #3002); early servers put it in the body.
  const info = valueAt(result, '_meta', META.serverInfo) ?? result.serverInfo;
  // An array passes these object checks, as before: the fields read from it are then absent.
  return {
    era: 'stateless',
    protocolVersion: version,
    capabilities: result.capabilities && typeof result.capabilities === 'object' ? (result.capabilities as JsonObject) : {},
    serverInfo: info && typeof info === 'object' ? (info as ServerIdentity['serverInfo']) : undefined,
    instructions: nonEmpty(result.instructions),
  };
}

/**
 * initialize's answer, as far as it is read here. Only protocolVersion is checked; capabilities and
 * serverInfo are kept as the server sent them, unchecked, as before.
 */
interface InitializeAnswer {
  protocolVersion?: unknown;
  capabilities?: JsonObject;
  serverInfo?: ServerIdentity['serverInfo'];
  instructions?: unknown;
}

/** initialize + notifications/initialized. A stateless-only server's -32022 to it still tells the era. */
async function statefulHandshake<O>(host: HandshakeHost<O>, pipe: Pipe<O>): Promise<Pipe<O> & { identity: ServerIdentity }> {
  const c = host.config;
  let init: InitializeAnswer;
  try {
    init = await pipe.peer.request(
      'initialize',
      { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: host.clientCapabilities, clientInfo: { name: GATEWAY_NAME, version: GATEWAY_VERSION } },
      { timeoutMs: c.startupTimeoutMs },
    );
  } catch (err) {
    if (!(err instanceof RpcError)) throw err;
    const listed = (err.data as { supported?: unknown } | undefined)?.supported;
    const supported: unknown[] = Array.isArray(listed) ? listed : [];
    // stdio only: the process is the same whatever the era, and a stateless request needs no state.
    if (
      err.code === ErrorCode.UnsupportedProtocolVersion &&
      c.kind === 'stdio' &&
      c.protocol !== 'stateful' &&
      supported.some((v) => (STATELESS_VERSIONS as readonly string[]).includes(v as string))
    ) {
      host.logger.info('initialize refused with -32022 naming 2026-07-28: speaking that');
      const probed = await probe(host, pipe, true);
      if (probed.kind === 'stateless') {
        eraCache.set(eraKey(c), 'stateless');
        return { ...pipe, identity: probed.identity };
      }
    }
    throw new GatewayError('PROTOCOL_ERROR', `initialize failed: ${err.message}`, { server: c.name });
  }
  if (!isSupportedVersion(init.protocolVersion)) {
    throw mismatch(c, `server answered protocol version ${JSON.stringify(init.protocolVersion)}, which the gateway does not speak`);
  }
  pipe.transport.setProtocolVersion?.(init.protocolVersion);
  await pipe.peer.notify('notifications/initialized');
  return {
    ...pipe,
    identity: {
      era: 'stateful',
      protocolVersion: init.protocolVersion,
      capabilities: init.capabilities ?? {},
      serverInfo: init.serverInfo,
      instructions: nonEmpty(init.instructions),
    },
  };
}
