// A server's answer that is not JSON but reads as an answer to one of our requests (its head has
// the id before the result) fails that request at once, on every transport's parsed path, instead
// of leaving it to its timeout (issue 28 item 8: what the raw pass-through refuses lands here).

import { describe, expect, it } from 'vitest';
import { parseMessages } from '../../../src/outbound/http-common.js';

function refusals() {
  const seen = { errors: [] as string[], failed: [] as unknown[], refused: [] as unknown[] };
  return {
    seen,
    r: {
      onerror: (e: Error) => seen.errors.push(e.message),
      failRequest: (id: unknown) => seen.failed.push(id),
      refuseRequest: (id: unknown) => seen.refused.push(id),
    },
  };
}

describe('an answer that is not JSON', () => {
  it.each([
    ['a bare word', '{"jsonrpc":"2.0","id":4,"result":{"ok":tru}}'],
    ['two commas', '{"jsonrpc":"2.0","id":4,"result":{"n":[1,,2]}}'],
    ['a raw control byte', '{"jsonrpc":"2.0","id":4,"result":{"text":"a\u0001"}}'],
  ])('with %s fails the request it answers', (_why, text) => {
    const { seen, r } = refusals();
    expect(parseMessages(text, 64, r)).toEqual([]);
    expect(seen.errors).toEqual(['malformed JSON from server']);
    expect(seen.failed).toEqual([4]);
  });

  it('that answers nothing fails nothing', () => {
    const { seen, r } = refusals();
    expect(parseMessages('{"jsonrpc":"2.0","method":"x","params":{,}}', 64, r)).toEqual([]);
    expect(seen.failed).toEqual([]);
    expect(seen.refused).toEqual([]);
  });
});
