import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineDecoder, encodeLine, textOf } from '../../../src/jsonrpc/ndjson.js';

function decodeAll(chunks: Buffer[], max?: number) {
  const lines: string[] = [];
  const oversized: number[] = [];
  const d = new LineDecoder({ line: (l) => lines.push(textOf(l)), oversized: (n) => oversized.push(n) }, max);
  for (const c of chunks) d.push(c);
  d.end();
  return { lines, oversized };
}

/** Splits a buffer at arbitrary points, as a pipe may deliver it. */
function splitAt(buf: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (buf.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let last = 0;
  for (const p of points) {
    out.push(buf.subarray(last, p));
    last = p;
  }
  out.push(buf.subarray(last));
  return out;
}

describe('LineDecoder', () => {
  it('yields each message once, whatever the chunking (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 30 }), (values, cuts) => {
        const wire = Buffer.from(values.map((v) => encodeLine(v)).join(''), 'utf8');
        const { lines } = decodeAll(splitAt(wire, cuts));
        expect(lines.map((l) => JSON.parse(l))).toEqual(values.map((v) => JSON.parse(JSON.stringify(v))));
      }),
    );
  });

  it('keeps multi-byte characters intact across chunk boundaries', () => {
    const wire = Buffer.from(encodeLine({ text: 'héllo 🌍 wörld' }));
    for (let cut = 0; cut <= wire.length; cut++) {
      const { lines } = decodeAll([wire.subarray(0, cut), wire.subarray(cut)]);
      expect(JSON.parse(lines[0]!).text).toBe('héllo 🌍 wörld');
    }
  });

  it('drops an oversized line without keeping it and goes on with the next', () => {
    const big = 'x'.repeat(5000);
    const wire = Buffer.from(`{"a":1}\n"${big}"\n{"b":2}\n`);
    const { lines, oversized } = decodeAll(splitAt(wire, [10, 100, 3000, 5005]), 1024);
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    expect(oversized).toEqual([big.length + 2]);
  });

  it('tolerates CRLF, blank lines and a final line without newline', () => {
    const { lines } = decodeAll([Buffer.from('{"a":1}\r\n\n\n{"b":2}')]);
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('never throws on random bytes (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.array(fc.nat(), { maxLength: 10 }), (bytes, cuts) => {
        const { lines } = decodeAll(splitAt(Buffer.from(bytes), cuts), 256);
        for (const l of lines) expect(l.includes('\n')).toBe(false);
      }),
    );
  });

  it('encodeLine never embeds a raw newline (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const line = encodeLine(v);
        expect(line.indexOf('\n')).toBe(line.length - 1);
      }),
    );
  });
});

describe('responseIdInHead', () => {
  it('finds the id of a response from its first bytes', async () => {
    const { responseIdInHead } = await import('../../../src/jsonrpc/ndjson.js');
    expect(responseIdInHead('{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"xxxx')).toBe(42);
    expect(responseIdInHead('{"jsonrpc":"2.0","id":"a\\"b","error":{')).toBe('a"b');
    expect(responseIdInHead('{"id":-3,"result":')).toBe(-3);
    // Not a response, or the id comes after the payload: no guess.
    expect(responseIdInHead('{"jsonrpc":"2.0","method":"x","params":{"id":1,"result":')).toBeUndefined();
    expect(responseIdInHead('{"jsonrpc":"2.0","result":{"id":7},"id":1')).toBeUndefined();
  });
});
