// mayNameUri: the byte scan that lets a tool's answer pass unparsed under resource rules. It must
// never miss a member that could name a URI (`uri`, `resourceUri`, however spelled in JSON, and
// across the chunks the bytes came in); it may say yes to answers that name none.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayNameUri } from '../../../src/jsonrpc/raw.js';

/** A member name spelled in JSON with the characters at `escaped` written as \uXXXX. */
function spell(name: string, escaped: boolean[]): string {
  return `"${[...name].map((c, i) => (escaped[i % escaped.length] ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join('')}"`;
}

/** `text` as Buffers cut at `cuts` (fractions of its length). */
function chunked(text: string, cuts: number[]): Buffer[] {
  const bytes = Buffer.from(text);
  const at = [...new Set(cuts.map((f) => Math.floor(f * bytes.length)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const c of at) {
    if (c > from) out.push(bytes.subarray(from, c));
    from = Math.max(from, c);
  }
  out.push(bytes.subarray(from));
  return out;
}

describe('mayNameUri', () => {
  it('finds every member named uri or resourceUri, escaped or not, wherever the chunks are cut', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('uri', 'resourceUri', 'ui/resourceUri'),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        fc.string(),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
        (name, escaped, filler, cuts) => {
          const text = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":${JSON.stringify(filler)}},{"type":"resource_link",${spell(name, escaped)} : "file:///x"}]}}`;
          expect(JSON.parse(text).result.content[1][name]).toBe('file:///x');
          expect(mayNameUri(chunked(text, cuts))).toBe(true);
        },
      ),
    );
  });

  it('says no to an answer of plain text', () => {
    const text = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'The weather in Paris: 21 °C, dry.' }], isError: false } });
    expect(mayNameUri(chunked(text, [0.3, 0.6]))).toBe(false);
  });
});
