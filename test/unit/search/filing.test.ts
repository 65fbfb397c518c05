// Filing (search/filing.ts): a key's list always holds exactly the terms filed under it, each once,
// after any adds and deletes (property, against a model).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Filing } from '../../../src/search/filing.js';

const keysOf = (term: string) => () => new Set([term[0] ?? '', term.slice(0, 2)]);

describe('Filing', () => {
  it('files a term once, and unfiles it once', () => {
    const f = new Filing();
    expect(f.add('deploy', keysOf('deploy'))).toBe(true);
    expect(f.add('deploy', keysOf('deploy'))).toBe(false);
    expect(f.under('de')).toEqual(['deploy']);
    expect(f.delete('deploy', keysOf('deploy'))).toBe(true);
    expect([f.has('deploy'), f.under('de')]).toEqual([false, []]);
    expect(f.delete('deploy', keysOf('deploy'))).toBe(false);
  });

  it('files exactly the terms added and not deleted since (property)', () => {
    const op = fc.tuple(fc.boolean(), fc.constantFrom('pull', 'push', 'post', 'page', 'p'));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const f = new Filing();
        const model = new Set<string>();
        for (const [adding, term] of ops) {
          if (adding) {
            f.add(term, keysOf(term));
            model.add(term);
          } else {
            f.delete(term, keysOf(term));
            model.delete(term);
          }
        }
        for (const key of ['p', 'pu', 'po', 'pa']) {
          const expected = [...model].filter((t) => keysOf(t)().has(key)).sort();
          expect([...f.under(key)].sort()).toEqual(expected);
        }
        for (const t of ['pull', 'push', 'post', 'page', 'p']) expect(f.has(t)).toBe(model.has(t));
      }),
      { numRuns: 300 },
    );
  });
});
