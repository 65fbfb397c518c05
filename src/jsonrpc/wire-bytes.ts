// How a server's answer, passed on as the bytes it was read in (raw.ts), is handed to a socket or
// pipe, so that the 64 KiB read buffers it came in die young and are freed by young-generation
// collections, not by full ones.
// - Nothing queued on the stream: as a 'latin1' string of those same bytes, written with the
//   'latin1' encoding (one character per byte: the same bytes, no decoding, no validation), which
//   node copies into native memory at once.
// - The stream backed up: copied into a few long-lived blocks (copy-blocks.ts) that wait in the
//   queue instead, and the same latin1 string is made and dropped (see _youngPace).
// Why: read buffers are external memory; V8 frees a dead one at the next young-generation
// collection, and starts a full mark-compact when external memory has grown by 64 MB since the
// last one. A read buffer still held by a pending write when a scavenge runs is promoted and only
// a mark-compact frees it (70–130 of them in 15 s of 64 KiB answers over HTTP, against 2–10 with
// strings). A string that must wait in the stream's queue is 64 KiB of the heap itself, copied by
// every scavenge it survives. Past TEXT_MAX_BYTES in one write the pieces go as they are
// (bench/NOTES.md, "Large answers leave as strings" and "... and to a backed-up stream, as copies").

import { BLOCK_BYTES, CopyBlocks } from './copy-blocks.js';

/** Where a message's pieces go: node's sockets, pipes and HTTP responses all take an encoding. */
export interface PieceSink {
  write(chunk: string, encoding?: BufferEncoding): unknown;
  write(chunk: Buffer, callback?: (err?: Error | null) => void): unknown;
  /** Bytes queued and not yet taken by the kernel (node's Writable, ServerResponse). */
  readonly writableLength?: number;
}

/**
 * A message past this many bytes leaves as the Buffers it was read in. Its pieces were held while
 * the whole line was read, over several turns of the event loop, and are old already; as strings it
 * would be that much young heap at once, and copying it costs more than it saves (a 1 MiB answer:
 * 1.6 → 2.1–2.4 ms of CPU per call with copies).
 */
export const TEXT_MAX_BYTES = 256 * 1024;

/** How the Buffer pieces of one write leave: as latin1 text, as copies in blocks, or as they are. */
export type PieceMode = 'text' | 'copy' | 'bytes';

/**
 * For the pieces of messages of at most TEXT_MAX_BYTES each, `bytes` in all, written now: text to
 * a stream with nothing queued, unless that is too much young heap at once; else copies.
 */
export function smallPiecesMode(sink: PieceSink, bytes: number): 'text' | 'copy' {
  return bytes <= TEXT_MAX_BYTES && (sink.writableLength ?? 0) === 0 ? 'text' : 'copy';
}

/** For one message of `messageBytes`, decided before any of it is written. */
export function pieceMode(sink: PieceSink, messageBytes: number): PieceMode {
  return messageBytes > TEXT_MAX_BYTES ? 'bytes' : smallPiecesMode(sink, messageBytes);
}

/** One pool for every stream of the process: blocks are only memory, and a view keeps its block. */
const blocks = new CopyBlocks();

/**
 * The latest latin1 string made only to pace the young generation. A scavenge comes when the young
 * generation has allocated its size, and read buffers, being external, do not count towards it:
 * with copies alone, 64 KiB answers to a backed-up stdout allocated next to nothing in the heap,
 * scavenges came every ~1,000 answers, the dead read buffers piled up to V8's 64 MB external limit
 * and each time it set off a full mark-compact (60–80 in 5 s, against ~10 with the string; CPU per
 * call 124 → 84 µs; bench/NOTES.md). Text mode allocates this string anyway; it dies at once.
 */
let _youngPace = '';

/** Writes one piece of a message so that exactly its bytes leave, in the way pieceMode decided. */
export function writePiece(sink: PieceSink, piece: Buffer | string, mode: PieceMode): void {
  if (typeof piece === 'string') sink.write(piece);
  else if (mode === 'text') sink.write(piece.toString('latin1'), 'latin1');
  else if (mode === 'copy' && piece.length <= BLOCK_BYTES) {
    _youngPace = piece.toString('latin1');
    const copy = blocks.copy(piece);
    sink.write(copy.view, copy.written);
  } else sink.write(piece);
}

/** Bytes of the Buffer pieces among `pieces` (strings are small: heads and joined small answers). */
export function bufferBytes(pieces: readonly (Buffer | string)[]): number {
  let n = 0;
  for (const p of pieces) if (typeof p !== 'string') n += p.length;
  return n;
}
