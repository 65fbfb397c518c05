// How a server's answer, passed on as the bytes it was read in (raw.ts), is handed to a socket or
// pipe: as a 'latin1' string of those same bytes, written with the 'latin1' encoding, which gives
// back exactly the bytes (one character per byte, no decoding, no validation).
// Why not the Buffer itself: node holds a written Buffer's ArrayBuffer until the kernel has taken
// it all, and a read buffer (64 KiB, outside V8's heap) that is still held when a young-generation
// collection runs is promoted with it. Promoted read buffers then add up as external memory that
// only a full mark-compact frees: with 64 KiB answers over HTTP, 70–130 mark-compacts in 15 s
// against 2–10 this way, and 0.72–0.78× the CPU per call (bench/NOTES.md, "Large answers leave as
// strings"). A string is copied into native memory when written, so the read buffers die young.

/** Where a message's pieces go: node's sockets, pipes and HTTP responses all take an encoding. */
export interface PieceSink {
  write(chunk: string, encoding?: BufferEncoding): unknown;
}

/** A piece of a message as text for `write`: a string as it is (UTF-8), bytes as latin1. */
export function pieceText(piece: Buffer | string): string {
  return typeof piece === 'string' ? piece : piece.toString('latin1');
}

/** The encoding that writes pieceText(piece) back as the piece's bytes. */
export function pieceEncoding(piece: Buffer | string): BufferEncoding {
  return typeof piece === 'string' ? 'utf8' : 'latin1';
}

/** Writes one piece of a message so that exactly its bytes leave. */
export function writePiece(sink: PieceSink, piece: Buffer | string): void {
  if (typeof piece === 'string') sink.write(piece);
  else sink.write(piece.toString('latin1'), 'latin1');
}
