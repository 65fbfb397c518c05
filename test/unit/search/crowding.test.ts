import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { spreadServers } from '../../../src/search/crowding.js';
import { DEFAULT_RANKING, ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';

const serverOf = (key: string): string => key.split('__')[0]!;

describe('spreading the results over servers', () => {
  it('damps each tool of a server past its first few, more the further down', () => {
    const hits = [5, 4, 3, 2, 1].map((score, i) => ({ key: `a__t${i}`, score }));
    const out = spreadServers(hits, serverOf, 0.5, 2, new Map());
    expect(out.map((c) => c.score)).toEqual([5, 4, 3 * 0.5, 2 * 0.25, 1 * 0.125]);
  });

  it('leaves a server the request names alone', () => {
    const hits = [3, 2, 1].map((score, i) => ({ key: `a__t${i}`, score }));
    expect(spreadServers(hits, serverOf, 0.5, 1, new Map([['a', 1]])).map((c) => c.score)).toEqual([3, 2, 1]);
  });

  it("keeps each server's own order and never raises a score", () => {
    const hit = fc.record({ server: fc.constantFrom('a', 'b', 'c'), n: fc.nat(50), score: fc.double({ min: 0.01, max: 100, noNaN: true }) });
    fc.assert(
      fc.property(fc.uniqueArray(hit, { selector: (h) => `${h.server}__${h.n}` }), fc.double({ min: 0, max: 1, noNaN: true }), fc.nat(4), (raw, decay, free) => {
        const hits = raw.map((h) => ({ key: `${h.server}__${h.n}`, score: h.score }));
        const out = spreadServers(hits, serverOf, decay, free, new Map());
        const before = new Map(hits.map((h) => [h.key, h.score]));
        expect(out).toHaveLength(hits.length);
        for (const c of out) expect(c.score).toBeLessThanOrEqual(before.get(c.key)!);
        const after = new Map(out.map((c) => [c.key, c.score]));
        for (const server of ['a', 'b', 'c']) {
          // In the order of the scores given, a server's tools keep their order.
          const mine = [...hits]
            .filter((c) => serverOf(c.key) === server)
            .sort((x, y) => y.score - x.score || (x.key < y.key ? -1 : 1))
            .map((c) => ({ key: c.key, score: after.get(c.key)! }));
          for (let i = 1; i < mine.length; i++) expect(mine[i]!.score).toBeLessThanOrEqual(mine[i - 1]!.score);
        }
      }),
    );
  });

  it("lifts another server's tool above the tail of one server's near-copies, unless that server is named", () => {
    const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];
    const docs: ToolDoc[] = [];
    // Unrelated tools, so that common words have a document frequency to speak of.
    for (let i = 0; i < 144; i++) docs.push(tool(`s${i % 12}`, `${words[i % 12]}_${words[Math.floor(i / 12)]}`, `Handles ${words[i % 12]} ${words[Math.floor(i / 12)]} records.`));
    for (let i = 0; i < 8; i++) docs.push(tool('cargo', `list_shipments_by_date_${i}`, 'List shipments by date.'));
    docs.push(tool('post', 'list_parcels_by_date', 'List parcels by date.'));
    // Server spreading alone: the near-copies are also one name family (families.ts), tested there.
    const spread = new ToolSearchIndex({ ...DEFAULT_RANKING, familyDecay: 1 });
    const unspread = new ToolSearchIndex({ ...DEFAULT_RANKING, crowdingDecay: 1, familyDecay: 1 });
    for (const d of docs) {
      spread.upsert(d);
      unspread.upsert(d);
    }
    const rank = (index: ToolSearchIndex, q: string): number => index.search(q, { limit: 10 }).findIndex((h) => h.key === 'post__list_parcels_by_date') + 1;
    expect(rank(unspread, 'list shipments by date')).toBe(9);
    expect(rank(spread, 'list shipments by date')).toBeLessThan(9);
    expect(spread.search('list shipments by date', { limit: 3 }).every((h) => h.key.startsWith('cargo__'))).toBe(true);
    // A request that names the server wants all of its tools first.
    expect(rank(spread, 'list cargo shipments by date')).toBe(rank(unspread, 'list cargo shipments by date'));
  });
});
