// Coalesces the lines written in one turn of the event loop into few writes. Under load, one
// syscall per message was the largest single cost in profiles (a chunk of server output holds
// many responses, each answered to a client); flushing on setImmediate keeps latency within the
// same loop iteration while batching everything that turn produced. An answer the client waits
// for alone (`now`: the last one owed to a stdio client) leaves at once when nothing is pending:
// no other answer of that turn would join it, and the wait for the turn's end was 1–3 µs of the
// answer's hop at concurrency 1 (bench/NOTES.md, "Concurrency 1"). Small strings are joined up
// to JOIN_LIMIT characters; a large one is written on its own, so a burst of big messages never
// builds one string past V8's string length limit ("Invalid string length"). Bytes (a server's
// answer passed on as it came, jsonrpc/raw.ts) are never joined: each leaves as its own write, as
// latin1 text of the same bytes when the stream is idle, else as a copy, and a message over
// TEXT_MAX_BYTES as its Buffers (wire-bytes.ts says why); the stream is corked for the flush, so
// they leave with the strings around them in one writev.

import { TEXT_MAX_BYTES, smallPiecesMode, writePiece, type PieceSink } from './wire-bytes.js';

/** Joined writes stay under this many characters. */
const JOIN_LIMIT = 1024 * 1024;

/** A piece of a message over TEXT_MAX_BYTES: written as the Buffer it is. */
class AsRead {
  constructor(readonly bytes: Buffer) {}
  get length(): number {
    return this.bytes.length;
  }
}

type Pending = string | Buffer | AsRead;

export class LineWriter {
  private pending: Pending[] = [];
  private pendingChars = 0;
  private scheduled = false;

  /** The same stream, as the byte pieces' writer sees it (it reads writableLength). */
  private readonly sink: PieceSink;

  constructor(private readonly stream: NodeJS.WritableStream) {
    this.sink = stream as PieceSink;
  }

  /** Bytes (characters, for strings) written but not yet handed to the stream (callers add the stream's own buffer). */
  get pendingBytes(): number {
    return this.pendingChars;
  }

  /**
   * One line, or part of one: the caller writes its pieces in order and ends it with '\n'. `now`
   * only with a whole line: it leaves at once if nothing is pending.
   */
  write(text: string, now = false): void {
    if (now && this.pending.length === 0) {
      this.stream.write(text);
      return;
    }
    this.push(text);
  }

  /** One message passed on as its pieces (raw.ts), `byteLength` in all, and its line end. */
  writeMessage(chunks: readonly (Buffer | string)[], byteLength: number, now = false): void {
    const large = byteLength > TEXT_MAX_BYTES;
    if (now && this.pending.length === 0) {
      const pieces: Pending[] = large ? chunks.map((c) => (typeof c === 'string' ? c : new AsRead(c))) : [...chunks];
      pieces.push('\n');
      this.writeChunks(pieces);
      return;
    }
    for (const chunk of chunks) this.push(large && typeof chunk !== 'string' ? new AsRead(chunk) : chunk);
    this.push('\n');
  }

  private push(chunk: Pending): void {
    this.pending.push(chunk);
    this.pendingChars += chunk.length;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
  }

  /** Writes what is pending now (also before closing the stream). */
  readonly flush = (): void => {
    this.scheduled = false;
    const chunks = this.pending;
    if (chunks.length === 0) return;
    this.pending = [];
    this.pendingChars = 0;
    this.writeChunks(chunks);
  };

  private writeChunks(chunks: Pending[]): void {
    // Bytes come only with writeMessage, which ends them with '\n': a lone chunk is a string.
    const only = chunks[0]!;
    if (chunks.length === 1 && typeof only === 'string') {
      this.stream.write(only);
      return;
    }
    // Corked only when bytes are among the chunks: strings alone are joined into few writes anyway.
    const stream = this.stream as NodeJS.WritableStream & { cork?(): void; uncork?(): void };
    let smallBytes = 0;
    let cork = false;
    for (const chunk of chunks) {
      if (typeof chunk === 'string') continue;
      cork = true;
      if (!(chunk instanceof AsRead)) smallBytes += chunk.length;
    }
    // Decided before this flush writes anything (wire-bytes.ts).
    const mode = smallPiecesMode(this.sink, smallBytes);
    if (cork) stream.cork?.();
    let batch: string[] = [];
    let size = 0;
    const writeBatch = () => {
      if (batch.length > 0) this.stream.write(batch.length === 1 ? batch[0]! : batch.join(''));
      batch = [];
      size = 0;
    };
    for (const chunk of chunks) {
      if (typeof chunk !== 'string') {
        writeBatch();
        if (chunk instanceof AsRead) this.stream.write(chunk.bytes);
        else writePiece(this.sink, chunk, mode);
        continue;
      }
      if (size + chunk.length > JOIN_LIMIT) writeBatch();
      batch.push(chunk);
      size += chunk.length;
    }
    writeBatch();
    if (cork) stream.uncork?.();
  }
}
