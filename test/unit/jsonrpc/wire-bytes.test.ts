// Bytes passed on as latin1 text (jsonrpc/wire-bytes.ts) leave as exactly those bytes, whatever
// they are (invalid UTF-8 included), beside UTF-8 strings, through a real stream and LineWriter.

import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineWriter } from '../../../src/jsonrpc/line-writer.js';
import { pieceEncoding, pieceText, writePiece } from '../../../src/jsonrpc/wire-bytes.js';

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
  it('pieceText + pieceEncoding give back the piece (property)', () => {
    fc.assert(
      fc.property(piece, (p) => {
        expect(Buffer.from(pieceText(p), pieceEncoding(p)).equals(typeof p === 'string' ? Buffer.from(p, 'utf8') : p)).toBe(true);
      }),
    );
  });

  it('writePiece puts exactly the pieces\' bytes on a stream (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 12 }), async (pieces) => {
        const out = new PassThrough();
        const got = collect(out);
        for (const p of pieces) writePiece(out, p);
        out.end();
        expect((await got).equals(expected(pieces))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('LineWriter keeps bytes and UTF-8 strings apart in one flush', async () => {
    const out = new PassThrough();
    const got = collect(out);
    const writer = new LineWriter(out);
    // Bytes that are not UTF-8 (0xff, a lone continuation byte, half an emoji) between UTF-8 strings.
    const pieces: (Buffer | string)[] = ['{"a":"é😀', Buffer.from([0xff, 0x80, 0xf0, 0x9f]), Buffer.from('ü漢字', 'utf8'), '"}\n', 'ñ\n'];
    for (const p of pieces) writer.write(p);
    await new Promise((resolve) => setImmediate(resolve));
    out.end();
    expect((await got).equals(expected(pieces))).toBe(true);
  });
});
