// CountedFiling (search/filing.ts): a term added by two sources stays filed until both delete it,
// and a key's list always holds exactly the terms that are filed under it (property, against a model).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CountedFiling } from '../../../src/search/filing.js';

const keysOf = (term: string) => () => new Set([term[0] ?? '', term.slice(0, 2)]);

describe('CountedFiling', () => {
  it('keeps a term added twice until it is deleted twice', () => {
    const f = new CountedFiling();
    expect(f.add('deploy', keysOf('deploy'))).toBe(true);
    expect(f.add('deploy', keysOf('deploy'))).toBe(false);
    expect(f.delete('deploy', keysOf('deploy'))).toBe(false);
    expect(f.under('de')).toEqual(['deploy']);
    expect(f.delete('deploy', keysOf('deploy'))).toBe(true);
    expect([f.has('deploy'), f.under('de')]).toEqual([false, []]);
    expect(f.delete('deploy', keysOf('deploy'))).toBe(false);
  });

  it('files exactly the terms counted above zero (property)', () => {
    const op = fc.tuple(fc.boolean(), fc.constantFrom('pull', 'push', 'post', 'page', 'p'));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const f = new CountedFiling();
        const model = new Map<string, number>();
        for (const [adding, term] of ops) {
          if (adding) {
            f.add(term, keysOf(term));
            model.set(term, (model.get(term) ?? 0) + 1);
          } else {
            f.delete(term, keysOf(term));
            const c = model.get(term) ?? 0;
            if (c <= 1) model.delete(term);
            else model.set(term, c - 1);
          }
        }
        for (const key of ['p', 'pu', 'po', 'pa']) {
          const expected = [...model.keys()].filter((t) => keysOf(t)().has(key)).sort();
          expect([...f.under(key)].sort()).toEqual(expected);
        }
        for (const t of ['pull', 'push', 'post', 'page', 'p']) expect(f.has(t)).toBe(model.has(t));
      }),
      { numRuns: 300 },
    );
  });
});
