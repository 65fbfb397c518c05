// A stateless-revision (2026-07-28) client gets a server's tools/call answer dressed (resultType,
// the gateway's serverInfo) without a parse: the splice must give exactly the JSON that parsing,
// dressResult and serialising give — for any result, id, key order, spacing and cut into reads —
// and must decline whatever splicing cannot do the same (a result's own _meta or resultType, a
// member name spelled with escapes, an error, a result that is not an object).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanResponse, type RawResponse } from '../../../src/jsonrpc/raw.js';
import { textOf } from '../../../src/jsonrpc/ndjson.js';
import { dressRaw, dressResult } from '../../../src/inbound/stateless-request.js';

const scan = (chunks: Buffer | Buffer[]) => {
  const r = scanResponse(chunks, 512);
  if (r === undefined || r === 'too-deep') throw new Error('not scanned');
  return r as RawResponse;
};
/** `bytes` cut at the given offsets, as the reads of a pipe would cut them. */
const cutAt = (bytes: Buffer, cuts: number[]) => {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  return [0, ...at].map((from, i) => bytes.subarray(from, [...at, bytes.length][i])).filter((c) => c.length > 0);
};
const dressedByParse = (text: string, id: string | number) => ({ jsonrpc: '2.0', id, result: dressResult('tools/call', JSON.parse(text).result, false) });

const id = fc.oneof(fc.integer(), fc.string());
// Names JSON writes without escapes (one with an escape is declined: see below).
const memberName = fc.string({ unit: 'binary' }).filter((k) => k !== '_meta' && k !== 'resultType' && k !== '__proto__' && !/[\u0000-\u001f"\\]/.test(k));
const plainResult = fc.dictionary(memberName, fc.jsonValue({ stringUnit: 'binary' }));

describe('dressing a raw answer for a stateless client', () => {
  it('gives the same JSON as parse, dressResult, stringify (property)', () => {
    fc.assert(
      fc.property(id, id, plainResult, fc.boolean(), fc.boolean(), (serverId, clientId, result, idFirst, spaced) => {
        const message = idFirst ? { jsonrpc: '2.0', id: serverId, result } : { result, jsonrpc: '2.0', id: serverId };
        const text = spaced ? JSON.stringify(message, null, 1).replace(/\n/g, ' ') : JSON.stringify(message);
        const dressed = dressRaw('tools/call', scan(Buffer.from(text)), clientId);
        expect(dressed).toBeDefined();
        expect(JSON.parse(textOf(dressed!.chunks))).toEqual(dressedByParse(text, clientId));
        expect(dressed!.byteLength).toBe(Buffer.byteLength(textOf(dressed!.chunks)));
      }),
      { numRuns: 400 },
    );
  });

  it('gives the same JSON for a large answer cut into reads anywhere, copying none of its bytes (property)', () => {
    fc.assert(
      fc.property(id, fc.string({ unit: 'binary' }), fc.array(fc.nat(), { maxLength: 8 }), (clientId, t, cuts) => {
        const text = JSON.stringify({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: t + 'x'.repeat(20_000) }] } });
        const bytes = Buffer.from(text);
        const dressed = dressRaw('tools/call', scan(cutAt(bytes, cuts)), clientId)!;
        expect(JSON.parse(textOf(dressed.chunks))).toEqual(dressedByParse(text, clientId));
        expect(dressed.byteLength).toBe(dressed.chunks.reduce((n, c) => n + Buffer.byteLength(c), 0));
        expect(dressed.chunks.filter((c) => Buffer.isBuffer(c) && c.buffer === bytes.buffer).length).toBeGreaterThan(0);
      }),
      { numRuns: 100 },
    );
  });

  it('dresses an empty result', () => {
    const dressed = dressRaw('tools/call', scan(Buffer.from('{"jsonrpc":"2.0","id":1,"result":{ }}')), 'c')!;
    expect(JSON.parse(textOf(dressed.chunks))).toEqual({ jsonrpc: '2.0', id: 'c', result: dressResult('tools/call', {}, false) });
  });

  it.each([
    ['a result with _meta of its own (merged by the parse)', '{"jsonrpc":"2.0","id":1,"result":{"content":[],"_meta":{"a":1}}}'],
    ['a result with its own resultType', '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]}}'],
    ['a member name spelled with escapes (it could be _meta)', '{"jsonrpc":"2.0","id":1,"result":{"\\u005fmeta":{},"content":[]}}'],
    ['an error (its code may change in this revision)', '{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"x"}}'],
  ])('declines %s: the caller parses', (_why, text) => {
    expect(dressRaw('tools/call', scan(Buffer.from(text)), 'c')).toBeUndefined();
  });

  it('never sees a result that is not an object: the scan leaves it to the parser', () => {
    expect(scanResponse(Buffer.from('{"jsonrpc":"2.0","id":1,"result":[1,2]}'), 512)).toBeUndefined();
  });

  it("reads only the result object's own members: a nested _meta does not count", () => {
    const text = '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"x","_meta":{"resultType":1}}],"structuredContent":{"_meta":2}}}';
    expect(JSON.parse(textOf(dressRaw('tools/call', scan(Buffer.from(text)), 9)!.chunks))).toEqual(dressedByParse(text, 9));
  });

  it('declines a cacheable method (its hints are added by the parse)', () => {
    expect(dressRaw('resources/read', scan(Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"contents":[]}}')), 'c')).toBeUndefined();
  });
});
