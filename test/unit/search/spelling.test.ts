// Corrections of misspelt words: the deletion-neighbourhood index must answer exactly like a scan of
// its terms by edit distance, after any adds and deletes, and the ranking must use it only for
// words that neither a tool nor the expansion tables know.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { distanceWithin, fileable, LONG_WORD, MAX_TYPO, MIN_TYPO, spellable, SpellingIndex } from '../../../src/search/spelling.js';
import { ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';
import { analyzeText } from '../../../src/search/analyze.js';

/** Optimal string alignment distance, the plain way: the reference the index must agree with. */
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** What nearest() must return: a scan of the live terms. */
function scan(live: Iterable<string>, q: string, long: number): string[] {
  if (!spellable(q)) return [];
  const reach = (w: string): number => (w.length >= long ? 2 : 1);
  const hits = [...live]
    .filter((t) => t !== q && (t[0] === q[0] || (t[0] === q[1] && t[1] === q[0])) && fileable(t))
    .map((t) => [t, osa(q, t)] as const)
    .filter(([t, d]) => d <= Math.min(reach(t), reach(q)));
  const best = Math.min(...hits.map(([, d]) => d));
  return hits
    .filter(([, d]) => d === best)
    .map(([t]) => t)
    .sort();
}

const letters = fc.constantFrom('a', 'b', 'c');
const small = fc.string({ unit: letters, minLength: 4, maxLength: 9 });

describe('distanceWithin', () => {
  it('is the edit distance when within the bound, and bound + 1 past it', () => {
    fc.assert(
      fc.property(small, small, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        expect(distanceWithin(a, b, max)).toBe(Math.min(osa(a, b), max + 1));
      }),
      { numRuns: 2000 },
    );
    expect(distanceWithin('serach', 'search', 1)).toBe(1);
    expect(distanceWithin('weathr', 'weather', 1)).toBe(1);
  });
});

describe('SpellingIndex', () => {
  it('finds the nearest terms with the same first letter: one edit, or two for long words', () => {
    const v = new SpellingIndex();
    for (const t of ['search', 'starch', 'batch', 'match', 'repositori', 'list', 'lost']) v.add(t);
    expect(v.nearest('serach')).toEqual(['search']);
    expect(v.nearest('sarch')).toEqual(['search', 'starch']);
    expect(v.nearest('catch')).toEqual([]); // batch, match: another first letter
    expect(v.nearest('repositry')).toEqual(['repositori']); // two edits, both long
    expect('repositry'.length).toBeGreaterThanOrEqual(LONG_WORD);
    expect(v.nearest('lsit')).toEqual([]); // too short to correct
    expect(v.nearest('search')).toEqual(['starch']); // never the word itself
  });

  it('files only words of Latin letters, and not past MAX_TYPO', () => {
    const v = new SpellingIndex();
    const long = 'a'.repeat(MAX_TYPO + 1);
    for (const t of [long, 'ab1cde', 'https://example.com/abc']) v.add(t);
    expect(v.has(long)).toBe(false);
    expect(v.nearest(`${long}b`)).toEqual([]);
    expect(v.nearest('ab1cdf')).toEqual([]);
  });

  it('files a term once, and forgets it when deleted', () => {
    const v = new SpellingIndex();
    v.add('weather');
    v.add('weather');
    expect(v.nearest('weathr')).toEqual(['weather']);
    v.delete('weather');
    expect(v.nearest('weathr')).toEqual([]);
    expect(v.has('weather')).toBe(false);
  });

  it('always answers like a scan of the terms it holds, after any adds and deletes', () => {
    const op = fc.record({ add: fc.boolean(), term: small });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), small, (ops, q) => {
        const long = 7;
        const v = new SpellingIndex(long);
        const live = new Map<string, number>();
        for (const o of ops) {
          const c = live.get(o.term) ?? 0;
          if (o.add) {
            v.add(o.term);
            live.set(o.term, c + 1);
          } else if (c > 0) {
            v.delete(o.term);
            if (c === 1) live.delete(o.term);
            else live.set(o.term, c - 1);
          }
        }
        expect(v.nearest(q)).toEqual(scan(live.keys(), q, long));
      }),
      { numRuns: 500 },
    );
  });

  it('finds a word of length ≥ 5 from any one-edit typo past its first letter', () => {
    const word = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: MIN_TYPO, maxLength: 12 });
    const edit = fc.record({ kind: fc.constantFrom('insert', 'delete', 'substitute', 'swap'), at: fc.nat(), c: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz') });
    fc.assert(
      fc.property(word, edit, fc.array(word, { maxLength: 20 }), (w, e, others) => {
        const i = 2 + (e.at % (w.length - 2)); // past the first two letters, which a swap may exchange
        const typo =
          e.kind === 'insert'
            ? w.slice(0, i) + e.c + w.slice(i)
            : e.kind === 'delete'
              ? w.slice(0, i) + w.slice(i + 1)
              : e.kind === 'substitute'
                ? w.slice(0, i) + e.c + w.slice(i + 1)
                : i + 1 < w.length
                  ? w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2)
                  : w;
        const v = new SpellingIndex();
        v.add(w);
        for (const o of others) v.add(o);
        fc.pre(typo !== w && typo.length >= MIN_TYPO && !others.includes(typo));
        expect(v.nearest(typo)).toContain(w);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('ToolSearchIndex and misspellings', () => {
  const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
  const catalog = [
    tool('web', 'web_search', 'Search the web for pages, news and facts.'),
    tool('files', 'read_file', 'Read the contents of a file.'),
    tool('files', 'search_files', 'Find files whose names match a pattern.'),
  ];
  const index = new ToolSearchIndex();
  for (const d of catalog) index.upsert(d);

  it('a shorthand the catalog says itself is its own word ("btn" finds btn_click, "cfg" a cfg tool)', () => {
    for (const [w, name] of [
      ['btn', 'btn_click'],
      ['cfg', 'cfg_read'],
      ['msg', 'msg_post'],
    ] as const) {
      const one = new ToolSearchIndex();
      one.upsert(tool('s', 'other_tool', 'Something else entirely.'));
      one.upsert(tool('s', name, `Works on the ${w}.`));
      expect(one.search(w)[0]?.key).toBe(`s__${name}`);
    }
  });

  it('a word always matches itself (a stop word, such as "pls", is no term at all)', () => {
    const word = fc.string({ unit: fc.constantFrom(...'bcdfghjklmnpqrstvwxz'), minLength: 3, maxLength: 10 });
    fc.assert(
      fc.property(word, (w) => {
        fc.pre(analyzeText(w).length > 0);
        const one = new ToolSearchIndex();
        one.upsert(tool('s', 'other_tool', 'Something else entirely.'));
        one.upsert(tool('s', `${w}_tool`, `The ${w} tool.`));
        expect(one.search(w)[0]?.key).toBe(`s__${w}_tool`);
      }),
      { numRuns: 200 },
    );
  });

  it('corrects a long word by two edits', () => {
    expect(index.search('the contnets of notes.txt')[0]?.key).toBe('files__read_file');
  });
});

describe('first letters', () => {
  it('accepts the first two letters swapped, and no other change of the first letter', () => {
    const v = new SpellingIndex();
    for (const t of ['search', 'remove']) v.add(t);
    expect(v.nearest('esarch')).toEqual(['search']);
    expect(v.nearest('xearch')).toEqual([]);
    expect(v.nearest('ermove')).toEqual(['remove']);
  });
});
