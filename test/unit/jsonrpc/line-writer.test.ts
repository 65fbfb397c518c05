// LineWriter: what one turn of the event loop writes leaves in few writes, in order; a message the
// other side waits for alone leaves at once, and never overtakes one already waiting.

import { PassThrough, Writable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineWriter } from '../../../src/jsonrpc/line-writer.js';

/** A stream that records each write it is handed. */
function recording() {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      writes.push(chunk.toString('latin1'));
      done();
    },
  });
  return { stream, writes };
}

const endOfTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('LineWriter', () => {
  it('writes a line the other side waits for alone before the turn ends', () => {
    const { stream, writes } = recording();
    const writer = new LineWriter(stream);
    writer.write('{"id":1}\n', true);
    expect(writes).toEqual(['{"id":1}\n']);
    writer.writeMessage([Buffer.from('{"id":2,'), '"result":{}}'], 20, true);
    expect(writes.join('')).toBe('{"id":1}\n{"id":2,"result":{}}\n');
  });

  it("gathers the lines of a turn into one write, at the turn's end", async () => {
    const { stream, writes } = recording();
    const writer = new LineWriter(stream);
    for (let i = 0; i < 5; i++) writer.write(`{"id":${i}}\n`);
    expect(writes).toEqual([]);
    await endOfTurn();
    expect(writes).toEqual(['{"id":0}\n{"id":1}\n{"id":2}\n{"id":3}\n{"id":4}\n']);
  });

  it('a waited-for line behind lines of the same turn waits for them', async () => {
    const { stream, writes } = recording();
    const writer = new LineWriter(stream);
    writer.write('{"id":1}\n');
    writer.write('{"id":2}\n', true);
    expect(writes).toEqual([]);
    await endOfTurn();
    expect(writes).toEqual(['{"id":1}\n{"id":2}\n']);
  });

  it('keeps every message in order and whole, whichever are waited for (property)', async () => {
    const op = fc.record({
      now: fc.boolean(),
      bytes: fc.boolean(),
      text: fc.string({ maxLength: 40 }).map((t) => t.replace(/\n/g, ' ')),
      endTurn: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
        const out = new PassThrough();
        const parts: Buffer[] = [];
        out.on('data', (c: Buffer) => parts.push(c));
        const writer = new LineWriter(out);
        for (const o of ops) {
          if (o.bytes) writer.writeMessage([Buffer.from(o.text, 'utf8')], Buffer.byteLength(o.text), o.now);
          else writer.write(`${o.text}\n`, o.now);
          if (o.endTurn) await endOfTurn();
        }
        await endOfTurn();
        expect(Buffer.concat(parts).toString('utf8')).toBe(ops.map((o) => `${o.text}\n`).join(''));
      }),
      { numRuns: 200 },
    );
  });
});
