// Starting one pipe of a server connection: the transport of the kind the handshake asks for
// (transports.ts) and a Peer on it wired to the connection's handlers. The new Peer becomes the
// connection's before it starts, so a close() racing the start finds it; one that raced ends it.

import type { ServerConfig } from '../config/types.js';
import { GatewayError } from '../errors.js';
import { Peer, type PeerHandlers } from '../jsonrpc/peer.js';
import type { Logger } from '../log.js';
import type { ServerAuth } from './auth/types.js';
import type { Pipe, PipeKind } from './handshake.js';
import { createTransport, type TransportOptions } from './transports.js';

/** What starting a pipe needs of its connection. */
export interface PipeHost<O> {
  readonly config: ServerConfig;
  readonly logger: Logger;
  /** What every pipe's transport takes (limits, x-mcp-header parameters); the revision and auth are per pipe. */
  readonly transport: Omit<TransportOptions, 'logger' | 'version' | 'auth'>;
  /** The server's OAuth client state, read as each pipe starts. */
  auth(): Promise<ServerAuth | undefined>;
  closed(): boolean;
  /** The connection's Peer now (a probe's pipe is replaced by the next), and the new one. */
  current(): Peer<O> | undefined;
  adopt(peer: Peer<O>): void;
  readonly handlers: Omit<PeerHandlers<O>, 'onClose'>;
  /** `peer` closed (only the connection's current one matters). */
  ended(peer: Peer<O>, reason?: Error): void;
}

/** A started pipe with its Peer, which is now the connection's. */
export async function startPipe<O>(host: PipeHost<O>, kind: PipeKind, version?: string): Promise<Pipe<O>> {
  const { config, logger } = host;
  const old = host.current();
  if (old && !old.isClosed) await old.close().catch(() => {});
  const closed = () => new GatewayError('CONNECTION_CLOSED', `connection to ${config.name} closed while opening`, { server: config.name });
  if (host.closed()) throw closed();
  const transport = await createTransport(config, kind, { ...host.transport, logger, version, auth: await host.auth() });
  const peer = new Peer<O>(transport, { ...host.handlers, onClose: (reason) => host.ended(peer, reason) }, config.name, host.transport.maxDepth);
  host.adopt(peer);
  await peer.start();
  // close() may have run meanwhile, before this peer was there to close.
  if (host.closed()) {
    await peer.close().catch(() => {});
    throw closed();
  }
  return { peer, transport };
}
