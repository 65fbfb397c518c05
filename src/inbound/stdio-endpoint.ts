// Inbound stdio: one client on our stdin/stdout, newline-delimited JSON. stdout carries protocol
// and nothing else. Bad input gets a JSON-RPC error and the session goes on; stdin ending tells
// the owner, who lets calls in flight finish before closing (graceful shutdown).

import { LineWriter } from '../jsonrpc/line-writer.js';
import { LineDecoder, encodeLine, textOf } from '../jsonrpc/ndjson.js';
import { DEFAULT_MAX_DEPTH, parseJsonText } from '../jsonrpc/parse.js';
import { ErrorCode, classify, errorResponse, type JsonRpcMessage } from '../protocol/jsonrpc.js';
import { overBudget } from './budget.js';
import { isSplicedResponse, type SplicedResponse } from '../jsonrpc/raw.js';
import type { SessionOpener } from './session-opener.js';

export interface StdioEndpointOptions {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  maxMessageBytes: number;
  /** limits.maxDepth (default 512). */
  maxDepth?: number;
  /** Bytes of answers queued for a client that does not read, before we stop reading its requests (limits.writeBuffer). */
  writeBufferBytes?: number;
  /** The client profile the stdio client gets (config `stdio.client`). */
  principal?: string;
  /** Called once when the input ends. */
  onEnd?: () => void;
}

export function startStdioEndpoint(opener: SessionOpener, options: StdioEndpointOptions): { stop(): void; close(): void } {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const writer = new LineWriter(output);
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const writeLimit = options.writeBufferBytes ?? 32 * 1024 * 1024;
  let paused = false;
  // Backpressure: a client that does not read its answers stops being read from, so what we
  // queue for it stays bounded; reading resumes when the output drains.
  // `awaited`: the client waits for this answer and no other (it goes out at once, not at the turn's end).
  const write = (message: JsonRpcMessage | SplicedResponse, awaited = false) => {
    if (isSplicedResponse(message)) {
      writer.writeMessage(message.chunks, message.byteLength, awaited);
    } else {
      writer.write(encodeLine(message), awaited);
    }
    holdBack();
  };
  const holdBack = () => {
    if (!paused && writer.pendingBytes + ((output as NodeJS.WriteStream).writableLength ?? 0) > writeLimit) {
      paused = true;
      (input as NodeJS.ReadStream).pause?.();
      const resume = () => {
        paused = false;
        if (!stopped) (input as NodeJS.ReadStream).resume?.();
      };
      // After the pending lines reach the stream, wait for it to drain (or resume at once if it did).
      setImmediate(() => ((output as NodeJS.WriteStream).writableNeedDrain ? output.once('drain', resume) : resume()));
    }
  };
  const session = opener.openSession(write, options.principal);
  // Requests handed to the session and not yet answered. Counted here, where answers are written:
  // several finishing together all leave the session before the first of them is written.
  let owed = 0;
  let stopped = false;

  const decoder = new LineDecoder(
    {
      line(chunks) {
        const parsed = parseJsonText(textOf(chunks), maxDepth);
        if (!parsed.ok) {
          if (parsed.why === 'invalid-json') write(errorResponse(null, ErrorCode.ParseError, 'Parse error: invalid JSON'));
          else write(errorResponse(parsed.id ?? null, ErrorCode.InvalidRequest, `Invalid Request: the message is nested deeper than ${maxDepth} levels (limits.maxDepth)`));
          return;
        }
        const message = parsed.value;
        if (Array.isArray(message)) {
          write(errorResponse(null, ErrorCode.InvalidRequest, 'JSON-RPC batches are not supported (removed in protocol revision 2025-06-18)'));
          return;
        }
        // A request holds its bytes against the session's budget until it is answered.
        const held = classify(message) === 'request' ? chunks.reduce((n, c) => n + c.length, 0) : 0;
        const full = held > 0 ? session.budget.take(held) : undefined;
        if (full) {
          const e = overBudget(full, held).toJsonRpc();
          write(errorResponse((message as { id: string | number }).id, e.code, e.message, e.data));
          return;
        }
        if (held > 0) owed++;
        session.handle(message as JsonRpcMessage, write).then((response) => {
          if (held > 0) {
            session.budget.give(held);
            owed--;
          }
          // The last answer owed: the client waits for nothing else.
          if (response) write(response, owed === 0);
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
      stopped = true;
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
