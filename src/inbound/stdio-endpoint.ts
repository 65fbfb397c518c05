// Inbound stdio: one client on our stdin/stdout, newline-delimited JSON. stdout carries protocol
// and nothing else. Bad input gets a JSON-RPC error and the session goes on; stdin ending tells
// the owner, who lets calls in flight finish before closing (graceful shutdown).

import { LineWriter } from '../jsonrpc/line-writer.js';
import { LineDecoder, encodeLine } from '../jsonrpc/ndjson.js';
import { ErrorCode, errorResponse, type JsonRpcMessage } from '../jsonrpc/types.js';
import type { InboundSessionHost } from './host.js';

export interface StdioEndpointOptions {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  maxMessageBytes: number;
  /** The client profile the stdio client gets (config `stdio.client`). */
  principal?: string;
  /** Called once when the input ends. */
  onEnd?: () => void;
}

export function startStdioEndpoint(host: InboundSessionHost, options: StdioEndpointOptions): { stop(): void; close(): void } {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const writer = new LineWriter(output);
  const write = (message: JsonRpcMessage) => writer.write(encodeLine(message));
  const session = host.openSession(write, options.principal);

  const decoder = new LineDecoder(
    {
      line(text) {
        let message: unknown;
        try {
          message = JSON.parse(text);
        } catch {
          write(errorResponse(null, ErrorCode.ParseError, 'Parse error: invalid JSON'));
          return;
        }
        if (Array.isArray(message)) {
          write(errorResponse(null, ErrorCode.InvalidRequest, 'JSON-RPC batches are not supported (removed in protocol revision 2025-06-18)'));
          return;
        }
        session.handle(message as JsonRpcMessage, write).then((response) => {
          if (response) write(response);
        });
      },
      oversized(bytes) {
        write(errorResponse(null, ErrorCode.InvalidRequest, `Message of ${bytes} bytes exceeds the limit of ${options.maxMessageBytes} bytes`));
      },
    },
    options.maxMessageBytes,
  );

  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    decoder.end();
    // The owner decides when the session ends: calls in flight may still be answered.
    if (options.onEnd) options.onEnd();
    else session.close();
  };
  input.on('data', (chunk: Buffer) => decoder.push(chunk));
  input.on('end', end);
  input.on('close', end);
  // A client that went away mid-write must not crash us.
  output.on('error', () => end());
  return {
    /** Reads no more requests; the ones in progress still get their answers. */
    stop() {
      input.removeAllListeners('data');
      (input as NodeJS.ReadStream).pause?.();
    },
    close() {
      input.removeAllListeners('data');
      session.close();
      writer.flush();
    },
  };
}
