// The byte-level SSE reader against eventsource-parser fed the decoded text: the same events,
// however the bytes are cut and whatever the line ends, and a large answer's data kept as the
// bytes it was read in.

import { createParser } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { consumeSse, sseText, type SseEvent } from '../../../src/outbound/http-sse-reader.js';

interface Seen {
  id?: string;
  event?: string;
  data: string;
}

async function read(chunks: readonly Buffer[], max: number): Promise<{ events: SseEvent[]; heads: (string | undefined)[] }> {
  const events: SseEvent[] = [];
  const heads: (string | undefined)[] = [];
  async function* body() {
    yield* chunks;
  }
  await consumeSse(body(), max, { onEvent: (e) => events.push(e), onerror: () => {}, onTooLarge: (_e, head) => heads.push(head) });
  return { events, heads };
}

const seen = (e: SseEvent): Seen => ({ id: e.id, event: e.event, data: sseText(e.data) });

/** What the library alone reads from the whole text. */
function reference(text: string): Seen[] {
  const out: Seen[] = [];
  const parser = createParser({ onEvent: (e) => out.push({ id: e.id, event: e.event, data: e.data }) });
  parser.feed(text);
  parser.feed('\n');
  return out;
}

function cut(bytes: Buffer, cuts: number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((x, y) => x - y);
  return [0, ...at].map((from, i, all) => bytes.subarray(from, all[i + 1] ?? bytes.length)).filter((c) => c.length > 0);
}

describe('SSE reader on bytes', () => {
  it('reads the same events as eventsource-parser on the decoded text, however the bytes are cut', async () => {
    const value = fc.string({ unit: 'grapheme', maxLength: 12 }).map((s) => s.replace(/[\r\n]/g, ' '));
    const field = fc.oneof(
      fc.record({ kind: fc.constant('data'), value, big: fc.boolean(), space: fc.boolean() }),
      fc.record({ kind: fc.constantFrom('id', 'event', 'retry', ':comment', 'other'), value, big: fc.constant(false), space: fc.boolean() }),
    );
    const event = fc.record({ fields: fc.array(field, { minLength: 1, maxLength: 4 }), eol: fc.constantFrom('\n', '\r\n', '\r') });
    await fc.assert(
      fc.asyncProperty(fc.array(event, { minLength: 1, maxLength: 4 }), fc.array(fc.nat(), { maxLength: 10 }), async (events, cuts) => {
        const text = events
          .map(({ fields, eol }) => {
            const lines = fields.map((f) => {
              const v = f.big ? `${f.value}${'é'.repeat(9000)}${f.value}` : f.value;
              return f.kind === ':comment' ? `:${v}` : `${f.kind}:${f.space ? ' ' : ''}${v}`;
            });
            return lines.join(eol) + eol + eol;
          })
          .join('');
        const got = await read(cut(Buffer.from(text), cuts), 1 << 20);
        expect(got.events.map(seen)).toEqual(reference(text));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a large answer as views of the bytes it was read in, without the "data: " before it', async () => {
    const answer = JSON.stringify({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'x'.repeat(200_000) }] } });
    const bytes = Buffer.from(`event: message\r\nid: 42\r\ndata: ${answer}\r\n\r\n`);
    // Cut inside "data", and between the CR and LF of a line end (after "event: message\r").
    const chunks = cut(bytes, [3, 15, 28, 65_536, 131_072, 190_000, bytes.length - 3]);
    const { events } = await read(chunks, 1 << 20);
    expect(events).toHaveLength(1);
    const ev = events[0]!;
    expect(ev.id).toBe('42');
    expect(ev.event).toBe('message');
    expect(typeof ev.data).not.toBe('string');
    const pieces = ev.data as readonly Buffer[];
    expect(pieces.every((p) => chunks.some((c) => c.buffer === p.buffer))).toBe(true);
    expect(sseText(pieces)).toBe(answer);
  });

  it('decodes a character whose bytes are split between reads', async () => {
    const bytes = Buffer.from('data: naïve ☃ 😀\n\n');
    for (let i = 1; i < bytes.length; i++) {
      const { events } = await read([bytes.subarray(0, i), bytes.subarray(i)], 1024);
      expect(events.map(seen)).toEqual([{ id: undefined, event: undefined, data: 'naïve ☃ 😀' }]);
    }
  });

  it('drops a large data line over the limit in bytes, reporting its head, and reads on', async () => {
    const big = `{"jsonrpc":"2.0","id":"r-9","result":{"text":"${'ü'.repeat(40_000)}"}}`;
    const { events, heads } = await read([Buffer.from(`data: ${big}\n\ndata: next\n\n`)], 70_000);
    expect(events.map(seen)).toEqual([{ id: undefined, event: undefined, data: 'next' }]);
    expect(heads).toHaveLength(1);
    expect(heads[0]).toMatch(/^\{"jsonrpc":"2.0","id":"r-9"/);
  });

  it('leaves a large event of several data lines to the parser, which joins them', async () => {
    const line = 'y'.repeat(20_000);
    const { events } = await read([Buffer.from(`data: ${line}\ndata: ${line}\n\n`)], 1 << 20);
    expect(events.map(seen)).toEqual([{ id: undefined, event: undefined, data: `${line}\n${line}` }]);
  });
});
