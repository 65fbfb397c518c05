// The raw pass-through (jsonrpc/raw.ts): an answer spliced with the client's id is the same JSON
// as the answer parsed, re-addressed and serialised again — for any result, any id, any key
// order and spacing — and the scan refuses what it cannot vouch for.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanResponse, spliceId } from '../../../src/jsonrpc/raw.js';

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

  it('reports a text nested deeper than the bound', () => {
    const deep = '{"a":'.repeat(600) + '0' + '}'.repeat(600);
    expect(scanResponse(`{"jsonrpc":"2.0","id":1,"result":${deep}}`, 512)).toBe('too-deep');
  });

  it('never throws, whatever the text (property)', () => {
    fc.assert(fc.property(fc.string(), (s) => void scanResponse(s, 64)));
    fc.assert(fc.property(fc.json(), (s) => void scanResponse(s, 64)));
  });
});
