// Bytes passed on as latin1 text or as copies (jsonrpc/wire-bytes.ts) leave as exactly those
// bytes, whatever they are (invalid UTF-8 included), beside UTF-8 strings, through a real stream
// and LineWriter; copies stay right while the reads they came from are reused.

import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineWriter } from '../../../src/jsonrpc/line-writer.js';
import { TEXT_MAX_BYTES, pieceMode, smallPiecesMode, writePiece, type PieceMode } from '../../../src/jsonrpc/wire-bytes.js';

const piece = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
  fc.string({ unit: 'binary', maxLength: 50 }),
);
const expected = (pieces: (Buffer | string)[]) => Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p)));

async function collect(stream: PassThrough): Promise<Buffer> {
  const parts: Buffer[] = [];
  stream.on('data', (c: Buffer) => parts.push(c));
  await new Promise((resolve) => stream.on('end', resolve));
  return Buffer.concat(parts);
}

describe('wire bytes', () => {
  it("writePiece puts exactly the pieces' bytes on a stream, as text, copies or bytes (property)", async () => {
    const mode = fc.constantFrom<PieceMode>('text', 'copy', 'bytes');
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { minLength: 1, maxLength: 12 }), mode, async (pieces, m) => {
        const out = new PassThrough();
        const got = collect(out);
        for (const p of pieces) writePiece(out, p, m);
        out.end();
        expect((await got).equals(expected(pieces))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('a message goes as text to a stream with nothing queued, as copies to a backed-up one, and as its Buffers when large', () => {
    const out = new PassThrough({ highWaterMark: 4 });
    expect(pieceMode(out, 65_536)).toBe('text');
    expect(pieceMode(out, TEXT_MAX_BYTES + 1)).toBe('bytes');
    // Many small messages in one flush: too much for text at once, but each is small.
    expect(smallPiecesMode(out, TEXT_MAX_BYTES + 1)).toBe('copy');
    out.write('queued: nobody reads this stream');
    expect(pieceMode(out, 10)).toBe('copy');
    expect(pieceMode(out, TEXT_MAX_BYTES + 1)).toBe('bytes');
  });

  it('copies to a backed-up stream stay exact while the buffers they came from are overwritten (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 70_000 }), { minLength: 1, maxLength: 24 }), fc.integer({ min: 0, max: 255 }), async (sizes, seed) => {
        const out = new PassThrough({ highWaterMark: 1024 });
        const sent: Buffer[] = [];
        const read = Buffer.alloc(70_000); // one "read buffer", reused for every piece as a socket's would be
        for (const [i, size] of sizes.entries()) {
          read.fill((seed + i) % 256, 0, size);
          sent.push(Buffer.from(read.subarray(0, size)));
          writePiece(out, read.subarray(0, size), 'copy');
        }
        const got = collect(out); // nobody read until now: every copy waited in the queue
        out.end();
        expect((await got).equals(Buffer.concat(sent))).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('LineWriter keeps bytes and UTF-8 strings apart in one flush', async () => {
    const out = new PassThrough();
    const got = collect(out);
    const writer = new LineWriter(out);
    // Bytes that are not UTF-8 (0xff, a lone continuation byte, half an emoji) between UTF-8 strings.
    const message: (Buffer | string)[] = ['{"a":"é😀', Buffer.from([0xff, 0x80, 0xf0, 0x9f]), Buffer.from('ü漢字', 'utf8'), '"}'];
    writer.writeMessage(message, expected(message).length);
    writer.write('ñ\n');
    const pieces = [...message, '\n', 'ñ\n'];
    await new Promise((resolve) => setImmediate(resolve));
    out.end();
    expect((await got).equals(expected(pieces))).toBe(true);
  });

  it('LineWriter writes whole messages of every size exactly, to an idle stream and to a backed-up one', async () => {
    for (const backedUp of [false, true]) {
      const out = new PassThrough({ highWaterMark: 16 });
      if (backedUp) out.write('x'.repeat(64));
      const writer = new LineWriter(out);
      const messages = [3_000, 70_000, TEXT_MAX_BYTES + 5_000, 100].map((n, i) => {
        const read = Buffer.alloc(n, 97 + i);
        return [read.subarray(0, n >> 1), read.subarray(n >> 1)];
      });
      const got = collect(out);
      for (const pieces of messages) writer.writeMessage(pieces, pieces[0]!.length + pieces[1]!.length);
      writer.write('{"last":true}\n');
      await new Promise((resolve) => setImmediate(resolve));
      out.end();
      const want = [...(backedUp ? [Buffer.from('x'.repeat(64))] : []), ...messages.flatMap((p) => [...p, Buffer.from('\n')]), Buffer.from('{"last":true}\n')];
      expect((await got).equals(Buffer.concat(want))).toBe(true);
    }
  });
});
