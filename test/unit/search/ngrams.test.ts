// The fallback for requests that match nothing: trigram similarity over the index's terms must
// answer like a scan of its live terms, and the ranking must use it only when nothing matched.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { GramIndex, MAX_GRAM_WORD, MIN_GRAM_WORD, trigrams } from '../../../src/search/ngrams.js';
import { DEFAULT_RANKING, ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';

const dice = (a: string, b: string): number => {
  const x = trigrams(a),
    y = trigrams(b);
  let n = 0;
  for (const g of x) if (y.has(g)) n++;
  return (2 * n) / (x.size + y.size);
};

describe('GramIndex', () => {
  it('finds terms by shared character trigrams, best first', () => {
    const g = new GramIndex();
    for (const t of ['process', 'processor', 'project', 'list']) g.add(t);
    const found = g.similar('xprocess', 0.4, 5).map(([t]) => t);
    expect(found[0]).toBe('process');
    expect(found).not.toContain('list');
    expect(g.similar('lst', 0, 5)).toEqual([]); // too short to compare
  });

  it('always answers like a scan of its live terms, after any adds and deletes', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), minLength: 3, maxLength: 8 });
    const op = fc.record({ add: fc.boolean(), term: word });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), word, fc.constantFrom(0.2, 0.4, 0.6), (ops, q, min) => {
        const g = new GramIndex();
        const live = new Map<string, number>();
        for (const o of ops) {
          const c = live.get(o.term) ?? 0;
          if (o.add) {
            g.add(o.term);
            live.set(o.term, c + 1);
          } else if (c > 0) {
            g.delete(o.term);
            if (c === 1) live.delete(o.term);
            else live.set(o.term, c - 1);
          }
        }
        const fits = (t: string): boolean => t.length >= MIN_GRAM_WORD && t.length <= MAX_GRAM_WORD;
        const expected = !fits(q)
          ? []
          : [...live.keys()]
              .filter((t) => t !== q && fits(t))
              .map((t) => [t, dice(q, t)] as [string, number])
              .filter(([, d]) => d >= min)
              .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
              .slice(0, 3);
        expect(g.similar(q, min, 3)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe('ToolSearchIndex fallback', () => {
  const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
  const catalog = [
    tool('os', 'list_processes', 'List the running processes with their CPU and memory use.'),
    tool('os', 'kill_process', 'Stop a process by its id.'),
    tool('files', 'read_file', 'Read a file.'),
  ];
  const build = (gramFallback: boolean): ToolSearchIndex => {
    const index = new ToolSearchIndex({ ...DEFAULT_RANKING, gramFallback });
    for (const d of catalog) index.upsert(d);
    return index;
  };

  it('answers a request whose words no tool knows with the tools of the most similar words', () => {
    // "brocesses": a first letter mistyped, which the typo rule does not correct.
    expect(build(false).search('the brocesses')).toEqual([]);
    expect(
      build(true)
        .search('the brocesses')
        .map((h) => h.key)
        .slice(0, 2)
        .sort(),
    ).toEqual(['os__kill_process', 'os__list_processes']);
  });

  it('leaves a request that matches something as it was', () => {
    expect(build(true).search('read the brocesses file')).toEqual(build(false).search('read the brocesses file'));
  });
});
