// Bytes passed on as latin1 text (jsonrpc/wire-bytes.ts) leave as exactly those bytes, whatever
// they are (invalid UTF-8 included), beside UTF-8 strings, through a real stream and LineWriter.

import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineWriter } from '../../../src/jsonrpc/line-writer.js';
import { TEXT_MAX_BYTES, writeAsText, writePiece } from '../../../src/jsonrpc/wire-bytes.js';

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
  it('writePiece puts exactly the pieces\' bytes on a stream, as text or as bytes (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { minLength: 1, maxLength: 12 }), fc.boolean(), async (pieces, asText) => {
        const out = new PassThrough();
        const got = collect(out);
        for (const p of pieces) writePiece(out, p, asText);
        out.end();
        expect((await got).equals(expected(pieces))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('pieces go as text only to a stream with nothing queued, and not too many at once', () => {
    const out = new PassThrough({ highWaterMark: 4 });
    expect(writeAsText(out, 65_536)).toBe(true);
    expect(writeAsText(out, TEXT_MAX_BYTES + 1)).toBe(false);
    out.write('queued: nobody reads this stream');
    expect(writeAsText(out, 10)).toBe(false);
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
