// How a server's answer, passed on as the bytes it was read in (raw.ts), is handed to a socket or
// pipe. When nothing is queued on the stream, as a 'latin1' string of those same bytes, written
// with the 'latin1' encoding (one character per byte: the same bytes, no decoding, no validation),
// which node copies into native memory at once; when the stream is backed up, as the Buffers.
// Why: node holds a written Buffer's ArrayBuffer until the kernel has taken it all, and a read
// buffer (64 KiB, outside V8's heap) still held when a young-generation collection runs is
// promoted with it; promoted read buffers add up as external memory that only a full mark-compact
// frees (70–130 of them in 15 s of 64 KiB answers over HTTP, against 2–10 with strings; 0.6–0.7×
// the CPU per call). But a string that must wait in the stream's queue is worse: it is 64 KiB of
// the heap itself, copied by every scavenge it survives. So strings only go to an idle stream,
// and only up to TEXT_MAX_BYTES at once (bench/NOTES.md, "Large answers leave as strings").

/** Where a message's pieces go: node's sockets, pipes and HTTP responses all take an encoding. */
export interface PieceSink {
  write(chunk: string, encoding?: BufferEncoding): unknown;
  write(chunk: Buffer): unknown;
  /** Bytes queued and not yet taken by the kernel (node's Writable, ServerResponse). */
  readonly writableLength?: number;
}

/**
 * Past this many bytes in one write, the pieces stay Buffers: a 1 MiB answer as strings is 1 MiB
 * of young heap allocated at once, and a scavenge in the middle of it copies what it caught (the
 * A/B figures at 1 MiB disagreed between runs; at 64 KiB they did not).
 */
export const TEXT_MAX_BYTES = 256 * 1024;

/** Whether `bytes` of pieces written now go as text: nothing is queued before them, and they are not too many. */
export function writeAsText(sink: PieceSink, bytes: number): boolean {
  return (sink.writableLength ?? 0) === 0 && bytes <= TEXT_MAX_BYTES;
}

/** Writes one piece of a message so that exactly its bytes leave; `asText` as writeAsText decided, once per write. */
export function writePiece(sink: PieceSink, piece: Buffer | string, asText: boolean): void {
  if (typeof piece === 'string') sink.write(piece);
  else if (asText) sink.write(piece.toString('latin1'), 'latin1');
  else sink.write(piece);
}

/** Bytes of the Buffer pieces among `pieces` (strings are small: heads and joined small answers). */
export function bufferBytes(pieces: readonly (Buffer | string)[]): number {
  let n = 0;
  for (const p of pieces) if (typeof p !== 'string') n += p.length;
  return n;
}
