import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { GroupLengths } from '../../../src/search/lengths.js';
import { DEFAULT_RANKING, ToolSearchIndex, type RankingParams, type ToolDoc } from '../../../src/search/index.js';

const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });

describe('GroupLengths', () => {
  it('averages each field over the group, exactly back to empty after removes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b'), fc.nat(50), fc.nat(50)), { maxLength: 30 }), (docs) => {
        const g = new GroupLengths(2);
        for (const [group, x, y] of docs) g.add(group, [x, y]);
        for (const group of ['a', 'b']) {
          const mine = docs.filter((d) => d[0] === group);
          const avg = mine.length === 0 ? 0 : mine.reduce((s, d) => s + d[1], 0) / mine.length;
          expect(g.average(group, 0)).toBeCloseTo(avg, 9);
        }
        for (const [group, x, y] of docs) g.remove(group, [x, y]);
        expect(g.average('a', 1)).toBe(0);
        expect(g.average('b', 1)).toBe(0);
      }),
    );
  });
});

describe('description length against the server’s own style', () => {
  const filler = 'It accepts optional pagination, returns structured results with identifiers, and documents every field of the response in detail for the caller.';
  const docs = [
    tool('verbose', 'archive_item', `Archives an item from the store. Works on a widget too. ${filler}`),
    tool('verbose', 'rename_item', `Renames an item in the store. ${filler} ${filler}`),
    tool('verbose', 'copy_item', `Copies an item in the store. ${filler}`),
    tool('terse', 'purge_item', 'Purges an item from the store. Works on a widget too.'),
    tool('terse', 'list_items', 'Lists the items in the store.'),
  ];
  const ratio = (params: RankingParams): number => {
    const index = new ToolSearchIndex(params);
    for (const d of docs) index.upsert(d);
    const hits = index.search('widget');
    const score = (k: string): number => hits.find((h) => h.key === k)!.score;
    return score('verbose__archive_item') / score('terse__purge_item');
  };

  it('penalises a long description less when all its server’s descriptions are long', () => {
    const global = { ...DEFAULT_RANKING.fields.description, groupNorm: 0 };
    const own = { ...DEFAULT_RANKING.fields.description, groupNorm: 1 };
    const withGlobal = ratio({ ...DEFAULT_RANKING, fields: { ...DEFAULT_RANKING.fields, description: global } });
    const withOwn = ratio({ ...DEFAULT_RANKING, fields: { ...DEFAULT_RANKING.fields, description: own } });
    expect(withGlobal).toBeLessThan(withOwn);
    expect(withGlobal).toBeLessThan(1);
  });
});
