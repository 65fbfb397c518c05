import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileAlternatives, compileGlobList, expandGlob, MAX_ALTERNATIVES } from '../../../src/policy/glob.js';

const matches = (glob: string, text: string): boolean => compileGlobList([glob])(text);

// A backtracking matcher needs on the order of n^(stars-1) steps for these; ours needs about
// n x pattern length. At n = 100 000 and eight stars the former would not finish in the lifetime
// of the test run (the suite's 30 s timeout is the generous bound), the latter takes milliseconds.
describe('glob matching stays linear', () => {
  const n = 100_000;
  const as = 'a'.repeat(n);

  it('*a*a*a*a*a*a*a*b on long runs of a', () => {
    expect(matches('*a*a*a*a*a*a*a*b', as)).toBe(false);
    expect(matches('*a*a*a*a*a*a*a*b', `${as}b`)).toBe(true);
    expect(matches('*a*a*a*a*a*a*a*b', `${'a'.repeat(6)}b`)).toBe(false);
    expect(matches('*a*a*a*a*a*a*a*b', `${'a'.repeat(7)}b`)).toBe(true);
  });

  it('with classes, ? and braces between the stars', () => {
    expect(matches('*[ab]*?a*{a,aa}*a?*{b,c}d', as)).toBe(false);
    expect(matches('*[ab]*?a*{a,aa}*a?*{b,c}d', `${as}cd`)).toBe(true);
    expect(matches('{*a,*aa*}{*a*,a*a}*b', as)).toBe(false);
    expect(matches('{*a,*aa*}{*a*,a*a}*b', `${as}b`)).toBe(true);
  });

  it('for a whole deny list at once', () => {
    const list = compileGlobList(['*a*a*a*a*c', '*a*b*a*b*a*b*', '?*?*?*?*?*?*x', '*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*z']);
    expect(list(as)).toBe(false);
    expect(list(`${as}z`)).toBe(true);
  });

  it('for random star-heavy globs against long adversarial strings', () => {
    const piece = fc.constantFrom('a', 'aa', 'b', '?', '[ab]', '{a,ab}', '{*a,b}');
    const glob = fc.array(piece, { minLength: 1, maxLength: 8 }).map((ps) => `*${ps.join('*')}*`);
    const text = fc.tuple(fc.constantFrom('a', 'ab', 'ba'), fc.nat({ max: 20_000 }), fc.constantFrom('', 'c', 'b')).map(([u, k, end]) => u.repeat(k) + end);
    fc.assert(
      fc.property(glob, text, (g, t) => {
        const f = compileGlobList([g]);
        expect(typeof f(t)).toBe('boolean');
      }),
      { numRuns: 200 },
    );
  });
});

describe('glob alternatives', () => {
  it('leftmost commitment is still exact when brace alternatives differ in length', () => {
    // `*{abcd,b}*c*` on "abcd": committing to "abcd" at 0 would leave no "c"; "b" at 1 does.
    expect(matches('*{abcd,b}*c*', 'abcd')).toBe(true);
    expect(matches('x*{ab,a}c*', 'xabc')).toBe(true);
    expect(matches('x*{ab,a}c*', 'xab')).toBe(false);
  });

  it('agrees with a plain backtracking regex on star- and brace-heavy globs', () => {
    // Small alphabet, short strings: the plain translation is fast here and obviously right.
    const pieces: [string, string][] = [
      ['a', 'a'],
      ['b', 'b'],
      ['?', '[\\s\\S]'],
      ['*', '[\\s\\S]*'],
      ['[ab]', '[ab]'],
      ['[!a]', '[^a]'],
      ['{a,ab}', '(?:a|ab)'],
      ['{ab,a}', '(?:ab|a)'],
      ['{b?,?}', '(?:b[\\s\\S]|[\\s\\S])'],
      ['{*a,b}', '(?:[\\s\\S]*a|b)'],
      ['{,b*}', '(?:|b[\\s\\S]*)'],
      ['{a{b,bb},?}', '(?:a(?:b|bb)|[\\s\\S])'],
    ];
    const glob = fc.array(fc.constantFrom(...pieces), { maxLength: 7 });
    const text = fc.string({ unit: fc.constantFrom('a', 'b'), maxLength: 8 });
    fc.assert(
      fc.property(glob, fc.array(text, { minLength: 1, maxLength: 8 }), (ps, texts) => {
        const g = ps.map((p) => p[0]).join('');
        const reference = new RegExp(`^${ps.map((p) => p[1]).join('')}$`);
        const f = compileGlobList([g]);
        for (const t of texts) expect([g, t, f(t)]).toEqual([g, t, reference.test(t)]);
      }),
      { numRuns: 2000 },
    );
  });

  it('expands braces and drops duplicates', () => {
    expect(expandGlob('{a,b}{c,d}').length).toBe(4);
    expect(expandGlob('{a,a}{b,b}').length).toBe(1);
    expect(expandGlob('{*,**}x').length).toBe(1);
  });

  it(`refuses a glob with more than ${MAX_ALTERNATIVES} alternatives`, () => {
    expect(expandGlob('{a,b}'.repeat(10)).length).toBe(MAX_ALTERNATIVES);
    expect(() => compileGlobList(['{a,b}'.repeat(11)])).toThrow(/invalid glob .*more than 1024 alternatives/);
  });

  it('splits a list into several regexes past the capture-group limit, and still matches every glob', () => {
    const alternatives = ['*a*b*c', '*x*y*', 'plain', '{p,q}*r*s'].flatMap(expandGlob);
    const regexes = compileAlternatives(alternatives, 2);
    expect(regexes.length).toBeGreaterThan(1);
    const any = (t: string): boolean => regexes.some((re) => re.test(t));
    for (const t of ['1a2b3c', '-x-y-', 'plain', 'q-r-s', 'pxrs']) expect(any(t)).toBe(true);
    for (const t of ['1a2c3b', 'x', 'plai', 'r-r-s']) expect(any(t)).toBe(false);
  });
});
