// What the store keeps of an SSE event too large to keep: an error for the same id in place of an
// answer, an empty event in place of a notification or request; the size counted in UTF-8 bytes.
import { describe, expect, it } from 'vitest';
import { keptForm, standIn } from '../../../src/state/stand-in.js';

const answer = (id: number | string, text: string) => JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });

describe('stand-ins', () => {
  it('an answer becomes an ANSWER_NOT_KEPT error for its id, saying how large it was', () => {
    for (const id of [7, 'req-7']) {
      const data = answer(id, 'é'.repeat(100));
      const error = JSON.parse(standIn(data)) as { id: unknown; error: { code: number; message: string; data: unknown } };
      expect(error.id).toBe(id);
      expect(error.error.code).toBe(-32603);
      expect(error.error.data).toEqual({ code: 'ANSWER_NOT_KEPT', bytes: Buffer.byteLength(data) });
      expect(error.error.message).toContain(`the answer (${Buffer.byteLength(data)} bytes) was sent once on the original stream and was too large to keep for resumption (state.maxEventBytes)`);
    }
    // An error answer too.
    expect(JSON.parse(standIn(JSON.stringify({ jsonrpc: '2.0', id: 3, error: { code: 1, message: 'x'.repeat(50) } }))).error.data.code).toBe('ANSWER_NOT_KEPT');
  });

  it('a notification, a request, an answer without an id, or no JSON at all becomes an empty event', () => {
    expect(standIn(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } }))).toBe('');
    expect(standIn(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'sampling/createMessage', params: {} }))).toBe('');
    expect(standIn(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse' } }))).toBe('');
    expect(standIn('not json')).toBe('');
    expect(standIn('null')).toBe('');
  });

  it('keeps an event of up to maxEventBytes UTF-8 bytes as it is, and one byte more as its stand-in', () => {
    const shell = answer(1, '');
    const fits = answer(1, 'x'.repeat(1000 - shell.length));
    expect(fits.length).toBe(1000);
    expect(keptForm(fits, 1000)).toBe(fits);
    expect(JSON.parse(keptForm(answer(1, 'x'.repeat(1001 - shell.length)), 1000)).error.data.bytes).toBe(1001);
    // 500 two-byte characters are 1000 bytes in 500 UTF-16 units.
    const wide = answer(2, 'é'.repeat(500));
    expect(Buffer.byteLength(wide)).toBeGreaterThan(1000);
    expect(JSON.parse(keptForm(wide, 1000)).error.data.bytes).toBe(Buffer.byteLength(wide));
    expect(keptForm('', 1000)).toBe('');
  });
});
