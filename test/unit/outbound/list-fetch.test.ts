// fetchAll: every page within bounds (items, bytes as read, time for the whole fetch); over a
// bound it stops at once, asks for no further page and returns nothing; an unchanged page (same
// bytes but for the id) keeps the previous fetch's items, and an unchanged item keeps its object.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { scanResponse } from '../../../src/jsonrpc/raw.js';
import { DEFAULT_LIST_LIMITS, ListLimitError, boundsFor, fetchAll, type ListBounds, type Requester } from '../../../src/outbound/list-fetch.js';
import { jsonEqual } from '../../../src/outbound/list-intern.js';

const tool = (name: string, description = `the ${name} tool`) => ({ name, description, inputSchema: { type: 'object' } });

const bounds = (over: Partial<ListBounds> = {}): ListBounds => ({
  maxItems: 1000,
  maxBytes: 1 << 20,
  timeoutMs: 60_000,
  pageTimeoutMs: 10_000,
  keys: { items: 'limits.maxListItems', bytes: 'limits.maxListBytes', time: 'limits.listFetchTimeout' },
  ...over,
});

/**
 * A server of pages: page i answers `pages[i]` (cursor "i+1" when there is a next page), as the raw
 * bytes a transport hands over (or parsed, with `parsed`). Records each request.
 */
function server(pages: () => Record<string, any>[][], options: { parsed?: boolean; key?: string; delayMs?: number; error?: { code: number; message: string } } = {}) {
  const asked: { cursor?: string; timeoutMs?: number }[] = [];
  let id = 0;
  const requester: Requester = {
    async requestRaw(_method, params, o) {
      asked.push({ cursor: params?.cursor, timeoutMs: o.timeoutMs });
      if (options.delayMs) vi.advanceTimersByTime(options.delayMs);
      const all = pages();
      const i = params?.cursor === undefined ? 0 : Number(params.cursor);
      const result: Record<string, any> = { [options.key ?? 'tools']: all[i] ?? [] };
      if (i + 1 < all.length) result.nextCursor = String(i + 1);
      const response = options.error ? { jsonrpc: '2.0' as const, id: ++id, error: options.error } : { jsonrpc: '2.0' as const, id: ++id, result };
      if (options.parsed) return response;
      const raw = scanResponse(Buffer.from(JSON.stringify(response)), 512);
      if (raw === undefined || raw === 'too-deep') throw new Error('unscannable');
      return raw;
    },
  };
  return { requester, asked };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('fetchAll', () => {
  it('follows every page and counts the bytes as read', async () => {
    const pages = [[tool('a'), tool('b')], [tool('c')]];
    const { requester, asked } = server(() => pages);
    const got = await fetchAll(requester, 'tools', bounds(), 'srv');
    expect(got.items.map((t) => t.name)).toEqual(['a', 'b', 'c']);
    expect(asked.map((a) => a.cursor)).toEqual([undefined, '1']);
    const expected = pages.map((p, i) => JSON.stringify({ jsonrpc: '2.0', id: i + 1, result: { tools: p, ...(i === 0 ? { nextCursor: '1' } : {}) } }).length);
    expect(got.bytes).toBe(expected[0]! + expected[1]!);
  });

  it('stops at the page that goes over maxItems, asks for no further page, and returns nothing', async () => {
    const page = Array.from({ length: 10 }, (_, i) => tool(`t${i}`));
    const { requester, asked } = server(() => Array.from({ length: 100 }, () => page));
    const err = await fetchAll(requester, 'tools', bounds({ maxItems: 25 }), 'srv').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ListLimitError);
    expect(err).toMatchObject({ code: 'LIST_TOO_LARGE', bound: 'items', kind: 'tools', server: 'srv', message: 'tools/list over limits.maxListItems (25)' });
    expect(asked).toHaveLength(3);
  });

  it('stops at the page that goes over maxBytes, parsed answers measured too', async () => {
    const page = Array.from({ length: 10 }, (_, i) => tool(`t${i}`, 'x'.repeat(100)));
    for (const parsed of [false, true]) {
      const { requester, asked } = server(() => Array.from({ length: 100 }, () => page), { parsed });
      const err = await fetchAll(requester, 'prompts', bounds({ maxBytes: 4000 }), 'srv').catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'LIST_TOO_LARGE', bound: 'bytes', message: 'prompts/list over limits.maxListBytes (4000 bytes)' });
      expect(asked.length).toBeLessThanOrEqual(4);
    }
  });

  it('bounds the whole fetch in time, each page within what is left', async () => {
    vi.useFakeTimers();
    const { requester, asked } = server(() => Array.from({ length: 100 }, (_, i) => [tool(`t${i}`)]), { delayMs: 400 });
    const err = await fetchAll(requester, 'tools', bounds({ timeoutMs: 1000, pageTimeoutMs: 700 }), 'srv').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SERVER_TIMEOUT', bound: 'time', message: 'tools/list took longer than limits.listFetchTimeout (1s)' });
    expect(asked.map((a) => a.timeoutMs)).toEqual([700, 600, 200]);
  });

  it('a page that times out inside the budget is the time bound; one that times out on its own timeout is not', async () => {
    const timesOut: Requester = { requestRaw: () => Promise.reject(new GatewayError('SERVER_TIMEOUT', 'no answer')) };
    await expect(fetchAll(timesOut, 'tools', bounds({ timeoutMs: 500, pageTimeoutMs: 1000 }), 'srv')).rejects.toMatchObject({ bound: 'time' });
    const err = await fetchAll(timesOut, 'tools', bounds({ timeoutMs: 5000, pageTimeoutMs: 1000 }), 'srv').catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(ListLimitError);
    expect(err).toMatchObject({ code: 'PROTOCOL_ERROR' });
  });

  it('ends endless empty pages (each counts as one item) and a repeated cursor', async () => {
    const empty = server(() => Array.from({ length: 10_000 }, () => []));
    await expect(fetchAll(empty.requester, 'tools', bounds({ maxItems: 50 }), 'srv')).rejects.toMatchObject({ bound: 'items' });
    expect(empty.asked).toHaveLength(51);
    let n = 0;
    const loop: Requester = {
      requestRaw: async () => ({ jsonrpc: '2.0', id: ++n, result: { tools: [tool(`t${n}`)], nextCursor: n % 2 === 0 ? 'a' : 'b' } }),
    };
    const got = await fetchAll(loop, 'tools', bounds(), 'srv');
    expect(got.items.map((t) => t.name)).toEqual(['t1', 't2', 't3']);
  });

  it('templates the server does not offer (an error) are an empty list; other lists fail', async () => {
    const { requester } = server(() => [[]], { error: { code: -32601, message: 'Method not found' } });
    expect((await fetchAll(requester, 'resourceTemplates', bounds(), 'srv')).items).toEqual([]);
    await expect(fetchAll(requester, 'tools', bounds(), 'srv')).rejects.toMatchObject({ code: 'PROTOCOL_ERROR', message: 'tools/list failed: Method not found' });
  });

  it('keeps the items of a page whose bytes did not change, and each unchanged item of a changed one', async () => {
    let pages = [
      [tool('a'), tool('b')],
      [tool('c'), tool('d')],
    ];
    const { requester } = server(() => pages);
    const first = await fetchAll(requester, 'tools', bounds(), 'srv');
    pages = [pages[0]!, [tool('c'), tool('d', 'changed')]];
    const second = await fetchAll(requester, 'tools', bounds(), 'srv', first);
    expect(second.items[0]).toBe(first.items[0]);
    expect(second.items[1]).toBe(first.items[1]);
    expect(second.items[2]).toBe(first.items[2]);
    expect(second.items[3]).not.toBe(first.items[3]);
    expect(second.items[3]!.description).toBe('changed');
  });

  it('either returns every item within bounds, or fails at the first page over one having asked for no page after it', async () => {
    const pageArb = fc.array(fc.record({ name: fc.string({ maxLength: 8 }), n: fc.integer() }), { maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(fc.array(pageArb, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 30 }), fc.integer({ min: 50, max: 3000 }), async (pages, maxItems, maxBytes) => {
        const { requester, asked } = server(() => pages);
        const sizes = pages.map((p, i) => JSON.stringify({ jsonrpc: '2.0', id: i + 1, result: { tools: p, ...(i + 1 < pages.length ? { nextCursor: String(i + 1) } : {}) } }).length);
        let items = 0;
        let bytes = 0;
        let overAt = -1;
        for (let i = 0; i < pages.length && overAt < 0; i++) {
          bytes += sizes[i]!;
          items += Math.max(1, pages[i]!.length);
          if (bytes > maxBytes || items > maxItems) overAt = i;
        }
        const outcome = await fetchAll(requester, 'tools', bounds({ maxItems, maxBytes }), 'srv').catch((e: unknown) => e);
        if (overAt < 0) expect((outcome as { items: unknown[] }).items).toEqual(pages.flat());
        else {
          expect(outcome).toBeInstanceOf(ListLimitError);
          expect(asked).toHaveLength(overAt + 1);
        }
      }),
    );
  });
});

describe('boundsFor', () => {
  it("takes a server's own listLimits over the gateway's, and names the key that set each", () => {
    const limits = { ...DEFAULT_LIST_LIMITS, maxListItems: 100 };
    expect(boundsFor({ listLimits: {} }, limits, 5000)).toMatchObject({ maxItems: 100, maxBytes: 32 * 1024 * 1024, timeoutMs: 60_000, pageTimeoutMs: 5000, keys: { items: 'limits.maxListItems' } });
    expect(boundsFor({ listLimits: { maxItems: 7, fetchTimeoutMs: 10 } }, limits, 5000)).toMatchObject({
      maxItems: 7,
      timeoutMs: 10,
      keys: { items: 'listLimits.maxItems', bytes: 'limits.maxListBytes', time: 'listLimits.fetchTimeout' },
    });
  });
});

describe('jsonEqual', () => {
  it('is equality of JSON values, key order aside', () => {
    const canonical = (v: unknown): string =>
      JSON.stringify(v, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x));
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        expect(jsonEqual(a, JSON.parse(JSON.stringify(a)))).toBe(true);
        expect(jsonEqual(a, b)).toBe(canonical(a) === canonical(b));
      }),
    );
  });
});
