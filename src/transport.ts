// The one shape every message pipe has, inbound or outbound, stdio or HTTP: start(sink), send,
// close. A transport frames and delivers messages to the sink it was started with; it never
// interprets them (ids, methods and capabilities belong to the Peer and the session above it).

import type { JsonRpcId, JsonRpcMessage } from './protocol/jsonrpc.js';

/**
 * What a transport's send() returns when the message is queued synchronously (stdio): one shared
 * settled promise, so the caller can tell there is nothing to wait for or catch.
 */
export const SENT: Promise<void> = Promise.resolve();

/**
 * Where a transport delivers what comes out of its pipe. Given once, to start(); the transport
 * keeps it for its whole life (nothing is allocated per message to reach it).
 */
export interface TransportSink {
  /**
   * Called once per received message, in order. `relatedTo` is the id of our request whose
   * response stream carried the message (Streamable HTTP only): it tells which of our requests
   * a server's request or notification belongs to.
   */
  message(message: JsonRpcMessage, relatedTo?: JsonRpcId): void;
  /** Called once when the pipe is gone, with the reason if it was not a requested close. */
  close(reason?: Error): void;
  /** Non-fatal problems (a garbage line, an unparsable SSE event). The pipe stays open. */
  error(error: Error): void;
  /**
   * Offered each incoming text before it is parsed (the Peer's). When it takes the text as it is
   * (a response passed on without parsing, see jsonrpc/raw.ts) it returns that response's id;
   * otherwise undefined, and the transport parses and delivers the text as usual. Bytes as read
   * (stdio: the chunks of one line) are best: they are passed on without ever being decoded.
   * A sink without it gets every message parsed.
   */
  text?(text: string | readonly Buffer[], relatedTo?: JsonRpcId): JsonRpcId | undefined;
  /**
   * One of our requests cannot be answered any more though the pipe stays open (its response was
   * over a limit, or the HTTP stream carrying it ended and cannot be resumed): fail it now,
   * instead of leaving it to its timeout.
   */
  fail(id: JsonRpcId, error: Error): void;
}

/** The sink of a transport not started yet: what arrives before start() (nothing should) is dropped. */
export const NO_SINK: TransportSink = {
  message() {},
  close() {},
  error() {},
  fail() {},
};

export interface Transport {
  /** Opens the pipe (spawns the child, checks the URL is reachable lazily, ...); from now on it delivers to `sink`. */
  start(sink: TransportSink): Promise<void>;
  /** Sends one message. Rejects if the pipe is closed or the peer refused it (HTTP 4xx/5xx). */
  send(message: JsonRpcMessage): Promise<void>;
  /** Closes the pipe and releases everything it holds (processes, sockets, sessions). Idempotent. */
  close(): Promise<void>;
  /**
   * Outbound HTTP only: the revision agreed in the handshake, sent as MCP-Protocol-Version on
   * every later request. Also the cue to open the GET stream for server notifications.
   */
  setProtocolVersion?(version: string): void;
}
