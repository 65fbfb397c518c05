// The raw pass-through (jsonrpc/raw.ts): an answer spliced with the client's id is the same JSON
// as the answer parsed, re-addressed and serialised again — for any result, any id, any key
// order and spacing — and the scan refuses what it cannot vouch for.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunksInclude, scanResponse as scanBytes, type RawResponse } from '../../../src/jsonrpc/raw.js';
import { spliceId as spliceBytes } from '../../../src/jsonrpc/raw-splice.js';
import type { JsonRpcId } from '../../../src/protocol/jsonrpc.js';
import { textOf } from '../../../src/jsonrpc/ndjson.js';

// The scan reads bytes; these tests write texts.
const scanResponse = (text: string, maxDepth: number) => scanBytes(Buffer.from(text, 'utf8'), maxDepth);
const spliceId = (r: RawResponse, id: JsonRpcId) => textOf(spliceBytes(r, id).chunks);
/** `bytes` cut at the given offsets, as the reads of a pipe would cut them. */
const cutAt = (bytes: Buffer, cuts: number[]) => {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  return [0, ...at].map((from, i) => bytes.subarray(from, [...at, bytes.length][i])).filter((c) => c.length > 0);
};

const id = fc.oneof(fc.integer(), fc.string());
const body = fc.oneof(
  fc.record({ result: fc.dictionary(fc.string(), fc.jsonValue()) }),
  fc.record({ error: fc.record({ code: fc.integer(), message: fc.string(), data: fc.option(fc.jsonValue(), { nil: undefined }) }, { requiredKeys: ['code', 'message'] }) }),
);
/** The same message with its keys in any order, compact or spaced (always on one line). */
const text = (message: Record<string, unknown>, order: number, spaced: boolean) => {
  const keys = Object.keys(message);
  const rotated = [...keys.slice(order % keys.length), ...keys.slice(0, order % keys.length)];
  const ordered = Object.fromEntries(rotated.map((k) => [k, message[k]]));
  return spaced ? JSON.stringify(ordered, null, 1).replace(/\n/g, ' ') : JSON.stringify(ordered);
};

describe('raw responses', () => {
  it('splicing an id gives the same JSON as parse, re-address, stringify (property)', () => {
    fc.assert(
      fc.property(id, id, body, fc.nat(), fc.boolean(), (serverId, clientId, b, order, spaced) => {
        const message = { jsonrpc: '2.0', id: serverId, ...b };
        const raw = text(message, order, spaced);
        const scanned = scanResponse(raw, 512);
        if (scanned === undefined || scanned === 'too-deep') throw new Error(`not scanned: ${raw}`);
        expect(scanned.id).toEqual(JSON.parse(JSON.stringify(serverId)));
        expect(scanned.isError).toBe('error' in b);
        expect(JSON.parse(spliceId(scanned, clientId))).toEqual({ ...JSON.parse(raw), id: clientId });
      }),
      { numRuns: 500 },
    );
  });

  it('finds the top-level id, not one nested in the result', () => {
    const raw = '{"result":{"id":5,"items":[{"id":6}]},"jsonrpc":"2.0","id":7}';
    const r = scanResponse(raw, 512);
    expect(r).toMatchObject({ id: 7 });
    expect(JSON.parse(spliceId(r as any, 'c1'))).toEqual({ result: { id: 5, items: [{ id: 6 }] }, jsonrpc: '2.0', id: 'c1' });
  });

  it.each([
    ['two ids (a parser keeps the last)', '{"jsonrpc":"2.0","id":1,"result":{},"id":2}'],
    ['an id spelled with escapes', '{"jsonrpc":"2.0","id":1,"result":{},"\\u0069d":2}'],
    ['a null id', '{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"x"}}'],
    ['an object as id', '{"jsonrpc":"2.0","id":{"a":1},"result":{}}'],
    ['no result or error', '{"jsonrpc":"2.0","id":1}'],
    ['both result and error', '{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}'],
    ['text after the object', '{"jsonrpc":"2.0","id":1,"result":{}} {"x":1}'],
    ['an unbalanced object', '{"jsonrpc":"2.0","id":1,"result":{"a":[1}'],
    ['an unterminated string', '{"jsonrpc":"2.0","id":1,"result":{"a":"b}}'],
    ['an array (a batch)', '[{"jsonrpc":"2.0","id":1,"result":{}}]'],
  ])('leaves %s to the parser', (_why, raw) => {
    expect(scanResponse(raw, 512)).toBeUndefined();
  });

  it('splices bytes of any Unicode text the same as the parsed path (property)', () => {
    const text = fc.string({ unit: 'binary' });
    fc.assert(
      fc.property(text, fc.oneof(fc.integer(), text), fc.dictionary(text, fc.jsonValue({ stringUnit: 'binary' })), (t, clientId, extra) => {
        const raw = JSON.stringify({ jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: t }], ...extra } });
        const scanned = scanResponse(raw, 512);
        if (scanned === undefined || scanned === 'too-deep') throw new Error(`not scanned: ${raw}`);
        expect(JSON.parse(spliceId(scanned, clientId))).toEqual({ ...JSON.parse(raw), id: clientId });
      }),
      { numRuns: 300 },
    );
  });

  it('scans a message cut into chunks anywhere exactly as whole, and splices it the same (property)', () => {
    const text = fc.string({ unit: 'binary' });
    fc.assert(
      fc.property(id, id, body, text, fc.array(fc.nat(), { maxLength: 12 }), (serverId, clientId, b, t, cuts) => {
        // The text inside the body: a top-level member of its own would not be a response.
        const inBody = 'result' in b ? { result: { ...b.result, extra: t } } : { error: { ...b.error, data: t } };
        const bytes = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: serverId, ...inBody }), 'utf8');
        const whole = scanBytes(bytes, 512);
        const chunks = cutAt(bytes, cuts);
        const cut = scanBytes(chunks, 512);
        if (whole === undefined || whole === 'too-deep' || cut === undefined || cut === 'too-deep') throw new Error(`not scanned: ${bytes}`);
        expect([cut.id, cut.idStart, cut.idEnd, cut.isError]).toEqual([whole.id, whole.idStart, whole.idEnd, whole.isError]);
        const spliced = spliceBytes(cut, clientId);
        expect(spliced.byteLength).toBe(spliced.chunks.reduce((n, c) => n + Buffer.byteLength(c), 0));
        expect(JSON.parse(textOf(spliced.chunks))).toEqual({ ...JSON.parse(bytes.toString()), id: clientId });
      }),
      { numRuns: 500 },
    );
  });

  it('splices a large answer without copying its bytes: its chunks are views of the reads', () => {
    const bytes = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 41, result: { content: [{ type: 'text', text: 'x'.repeat(100_000) }] } }));
    const reads = [bytes.subarray(0, 65_536), bytes.subarray(65_536)];
    const spliced = spliceBytes(scanBytes(reads, 512) as RawResponse, 'c-1');
    expect(spliced.chunks.map((c) => (typeof c === 'string' ? 'text' : c.buffer === bytes.buffer ? 'view' : 'id'))).toEqual(['view', 'id', 'view', 'view']);
    expect(JSON.parse(textOf(spliced.chunks)).id).toBe('c-1');
  });

  // Large answers pass as bytes, so the scan checks them; a small one is decoded when spliced.
  const filler = 'f'.repeat(20_000);

  it('refuses a large answer that is not UTF-8 however the chunks cut it, and accepts characters split across chunks', () => {
    const good = Buffer.from(`{"jsonrpc":"2.0","id":1,"result":{"pad":"${filler}","text":"é€😀"}}`);
    const at = good.length - 20;
    for (let a = at; a < good.length; a++) for (let c = a + 1; c < good.length; c++) expect(scanBytes([good.subarray(0, a), good.subarray(a, c), good.subarray(c)], 512)).toMatchObject({ id: 1 });
    const bad = Buffer.concat([good.subarray(0, at), Buffer.from([0xe2, 0x82]), good.subarray(at)]);
    for (let a = at - 4; a < bad.length; a++) expect(scanBytes([bad.subarray(0, a), bad.subarray(a)], 512)).toBeUndefined();
  });

  it('finds a needle across the seam of two chunks', () => {
    const b = Buffer.from('{"resultType":"input_required"}');
    for (let a = 1; a < b.length; a++) expect(chunksInclude([b.subarray(0, a), b.subarray(a)], '"input_required"')).toBe(true);
    expect(chunksInclude([b], '"complete"')).toBe(false);
  });

  it('never passes on bytes that are not UTF-8: a large answer goes to the parser, a small one is decoded as the parser would', () => {
    const head = Buffer.from(`{"jsonrpc":"2.0","id":1,"result":{"pad":"${filler}","text":"`);
    const invalid = Buffer.from([0xc0, 0xa2, 0xff]);
    expect(scanBytes(Buffer.concat([head, invalid, Buffer.from('"}}')]), 512)).toBeUndefined();
    expect(scanBytes(Buffer.concat([head, Buffer.from('é"}}')]), 512)).toMatchObject({ id: 1 });
    const small = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"text":"'), invalid, Buffer.from('"}}')]);
    const spliced = textOf(spliceBytes(scanBytes(small, 512) as RawResponse, 9).chunks);
    expect(JSON.parse(spliced)).toEqual({ ...JSON.parse(small.toString('utf8')), id: 9 });
  });

  it('reports a text nested deeper than the bound', () => {
    const deep = `${'{"a":'.repeat(600)}0${'}'.repeat(600)}`;
    expect(scanResponse(`{"jsonrpc":"2.0","id":1,"result":${deep}}`, 512)).toBe('too-deep');
  });

  it('never throws, whatever the text (property)', () => {
    fc.assert(fc.property(fc.string(), (s) => void scanResponse(s, 64)));
    fc.assert(fc.property(fc.json(), (s) => void scanResponse(s, 64)));
  });
});
