import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Families } from '../../../src/search/families.js';
import { spreadServers } from '../../../src/search/crowding.js';
import { DEFAULT_RANKING, ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';

const split = (name: string): string[] => name.split('_');

function families(tools: readonly [string, string][]): Families {
  const f = new Families();
  for (const [server, name] of tools) f.add(`${server}__${name}`, server, split(name));
  return f;
}

describe('tool families', () => {
  it('puts a name and its extensions by trailing words in one family', () => {
    const f = families([
      ['lib', 'get_shelf'],
      ['lib', 'get_shelf_by_date'],
      ['lib', 'get_shelf_v2'],
      ['lib', 'get_loan'],
    ]);
    expect(f.of('lib__get_shelf_by_date')).toBe(f.of('lib__get_shelf'));
    expect(f.of('lib__get_shelf_v2')).toBe(f.of('lib__get_shelf'));
    expect(f.of('lib__get_loan')).not.toBe(f.of('lib__get_shelf'));
  });

  it('does not join names that only share leading words (a namespace or a verb), however many', () => {
    const f = families([
      ['n', 'n8n_list_workflows'],
      ['n', 'n8n_list_catalog'],
      ['n', 'n8n_get_workflow'],
      ['t', 'api_v2010_create_call'],
      ['t', 'api_v2010_create_message'],
    ]);
    expect(new Set(['n__n8n_list_workflows', 'n__n8n_list_catalog', 'n__n8n_get_workflow'].map((k) => f.of(k))).size).toBe(3);
    expect(f.of('t__api_v2010_create_call')).not.toBe(f.of('t__api_v2010_create_message'));
  });

  it('never joins tools of different servers, nor on a shared verb alone', () => {
    const f = families([
      ['a', 'get_shelf'],
      ['b', 'get_shelf_by_date'],
      ['a', 'get'],
      ['a', 'get_loan'],
    ]);
    expect(f.of('b__get_shelf_by_date')).not.toBe(f.of('a__get_shelf'));
    expect(f.of('a__get_loan')).not.toBe(f.of('a__get_shelf'));
  });

  it('does not depend on the order tools were added or on tools added and removed since', () => {
    const name = fc.array(fc.constantFrom('get', 'list', 'shelf', 'loan', 'by', 'date', 'v2'), { minLength: 1, maxLength: 5 }).map((w) => w.join('_'));
    const tool = fc.tuple(fc.constantFrom('a', 'b'), name);
    fc.assert(
      fc.property(fc.uniqueArray(tool, { selector: ([s, n]) => `${s}__${n}` }), fc.uniqueArray(tool, { selector: ([s, n]) => `${s}__${n}` }), (tools, extra) => {
        const plain = families(tools);
        const churned = new Families();
        const keys = new Set(tools.map(([s, n]) => `${s}__${n}`));
        const passing = extra.filter(([s, n]) => !keys.has(`${s}__${n}`));
        for (const [s, n] of [...passing, ...[...tools].reverse()]) churned.add(`${s}__${n}`, s, split(n));
        for (const [s, n] of passing) churned.delete(`${s}__${n}`);
        for (const [s, n] of tools) expect(churned.of(`${s}__${n}`)).toBe(plain.of(`${s}__${n}`));
      }),
    );
  });

  it('answers from what the tools are now, when asked between every change (its memo never goes stale)', () => {
    const name = fc.array(fc.constantFrom('get', 'list', 'shelf', 'by', 'date'), { minLength: 1, maxLength: 4 }).map((w) => w.join('_'));
    const step = fc.tuple(fc.boolean(), fc.constantFrom('a', 'b'), name);
    fc.assert(
      fc.property(fc.array(step, { maxLength: 24 }), (steps) => {
        const asked = new Families();
        const now = new Map<string, [string, string]>();
        for (const [add, s, n] of steps) {
          const key = `${s}__${n}`;
          if (add && !now.has(key)) {
            asked.add(key, s, split(n));
            now.set(key, [s, n]);
          } else if (!add && now.has(key)) {
            asked.delete(key);
            now.delete(key);
          }
          const fresh = families([...now.values()]);
          for (const k of now.keys()) expect(asked.of(k)).toBe(fresh.of(k));
        }
      }),
    );
  });

  it("damps each further member of a family, whatever its server's place", () => {
    const hits = [
      { key: 'a__x1', score: 4 },
      { key: 'b__y', score: 3 },
      { key: 'a__x2', score: 2 },
      { key: 'a__x3', score: 1 },
    ];
    const out = spreadServers(
      hits,
      (k) => k.split('__')[0]!,
      1,
      3,
      new Map(),
      (k) => k.slice(0, 4),
      0.5,
    );
    expect(out.map((c) => [c.key, c.score])).toEqual([
      ['a__x1', 4],
      ['b__y', 3],
      ['a__x2', 1],
      ['a__x3', 0.25],
    ]);
  });

  it("lets another server's tool past the near-copies of one operation", () => {
    const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];
    const docs: ToolDoc[] = [];
    for (let i = 0; i < 144; i++) docs.push(tool(`s${i % 12}`, `${words[i % 12]}_${words[Math.floor(i / 12)]}`, `Handles ${words[i % 12]} ${words[Math.floor(i / 12)]} records.`));
    // Three generated servers, each with the same three variants of one listing.
    for (const s of ['c1', 'c2', 'c3']) for (const q of ['', '_by_date', '_v2']) docs.push(tool(s, `list_shipments${q}`, 'List shipments by date.'));
    docs.push(tool('post', 'list_parcels_by_date', 'List parcels by date.'));
    const kin = new ToolSearchIndex();
    const flat = new ToolSearchIndex({ ...DEFAULT_RANKING, familyDecay: 1 });
    for (const d of docs) {
      kin.upsert(d);
      flat.upsert(d);
    }
    const rank = (index: ToolSearchIndex): number => index.search('list shipments by date', { limit: 10 }).findIndex((h) => h.key === 'post__list_parcels_by_date') + 1;
    expect(rank(flat)).toBe(10);
    expect(rank(kin)).toBeLessThan(5);
  });
});
