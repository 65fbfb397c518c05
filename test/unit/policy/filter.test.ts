import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { compileFilter } from '../../../src/policy/filter.js';

const allows = (glob: string, name: string): boolean => compileFilter({ allow: [glob], deny: [] })(name);

/** Makes any string a glob that matches exactly that string. */
const literal = (s: string): string => s.replace(/[*?[\]{}()\\!]/g, '\\$&');

describe('compileFilter examples', () => {
  it('matches tool names with prefixes and suffixes', () => {
    const f = compileFilter({ allow: ['*'], deny: ['delete_*', '*__delete_*'] });
    expect(f('delete_file')).toBe(false);
    expect(f('delete_')).toBe(false);
    expect(f('fs__delete_file')).toBe(false);
    expect(f('undelete_file')).toBe(true);
    expect(f('read_file')).toBe(true);
  });

  it('lets * cross dots and slashes, including path-like dot segments', () => {
    expect(allows('*', 'file:///a/b/c')).toBe(true);
    expect(allows('*', 'a.b.c')).toBe(true);
    expect(allows('file://*', 'file:///a/b/c')).toBe(true);
    expect(allows('file:///home/*/secret*', 'file:///home/../x/secret')).toBe(true);
    expect(allows('x*', 'x/../y')).toBe(true);
    expect(allows('repo.*', 'repo.search.issues')).toBe(true);
    expect(allows('*.txt', 'file:///docs/.hidden/a.txt')).toBe(true);
    expect(allows('*.txt', 'a.txt/')).toBe(false);
    for (const s of ['', '.', '..', './a', '../a', '/', '//', 'a\nb', '\u2028', '😀']) expect(allows('*', s)).toBe(true);
    expect(allows('**', 'a/b/c')).toBe(true);
    expect(allows('a/**/b', 'a/b')).toBe(false); // `**` is just `*`: needs the two slashes
    expect(allows('a/**/b', 'a/x/y/b')).toBe(true);
  });

  it('supports ?, classes, braces and escapes; everything else is literal', () => {
    expect(allows('a?c', 'abc')).toBe(true);
    expect(allows('a?c', 'a/c')).toBe(true);
    expect(allows('a?c', 'ac')).toBe(false);
    expect(allows('[abc]x', 'bx')).toBe(true);
    expect(allows('[abc]x', 'dx')).toBe(false);
    expect(allows('[a-c]x', 'cx')).toBe(true);
    expect(allows('[^a]x', 'bx')).toBe(true);
    expect(allows('[!a]x', 'bx')).toBe(true);
    expect(allows('[!a]x', 'ax')).toBe(false);
    expect(allows('{get,list}_*', 'list_issues')).toBe(true);
    expect(allows('{get,list}_*', 'delete_issues')).toBe(false);
    expect(allows('{a,b}', '{a,b}')).toBe(false);
    expect(allows('file:///{docs,notes}/*.md', 'file:///notes/x/y.md')).toBe(true);
    expect(allows('v{1..3,x}', 'v1..3')).toBe(true); // no ranges: `..` in braces is literal
    expect(allows('v{1..3,x}', 'v2')).toBe(false);
    expect(allows('{a,{b,c}.d}x', 'c.dx')).toBe(true);
    expect(allows('{a\\,b,c}', 'a,b')).toBe(true);
    expect(allows('{[.a],b}', '.')).toBe(true);
    expect(allows('[[:alpha:]', ':')).toBe(true); // no POSIX classes: `[` is literal in a class
    expect(allows('[\\]a]', ']')).toBe(true);
    expect(allows('[]a]', ']')).toBe(true);
    expect(allows('[!]a]', ']')).toBe(false);
    expect(allows('[!]a]', 'b')).toBe(true);
    expect(allows('a\\*', 'a*')).toBe(true);
    expect(allows('a\\*', 'ab')).toBe(false);
    expect(allows('(a)', '(a)')).toBe(true);
    expect(allows('(a)', 'a')).toBe(false);
    expect(allows('file:///a (copy)/*', 'file:///a (copy)/b')).toBe(true);
    expect(allows('*(1)', 'x(1)')).toBe(true);
    expect(allows('a|b', 'a')).toBe(false);
    expect(allows('!x', '!x')).toBe(true);
    expect(allows('!x', 'y')).toBe(false);
    expect(allows('$^.+', '$^.+')).toBe(true);
    expect(allows('', '')).toBe(true);
    expect(allows('', 'a')).toBe(false);
  });

  it('handles literal backslashes (escaped as \\\\) anywhere, also in classes', () => {
    expect(allows('a\\\\.b', 'a\\.b')).toBe(true);
    expect(allows('a\\\\.b', 'a.b')).toBe(false);
    expect(allows('\\\\\\\\', '\\\\')).toBe(true);
    expect(allows('C:\\\\*', 'C:\\Users\\x')).toBe(true);
    expect(allows('[\\\\/]x', '\\x')).toBe(true);
    expect(allows('[\\\\/]x', '/x')).toBe(true);
    expect(allows('[\\\\/]x', 'ax')).toBe(false);
    expect(allows('a\\/b', 'a/b')).toBe(true);
    expect(allows('a\\', 'a\\')).toBe(true); // trailing backslash: literal
  });

  it('treats escaped letters and digits as themselves, not as regex escapes', () => {
    expect(allows('a\\d', 'ad')).toBe(true);
    expect(allows('a\\d', 'a5')).toBe(false);
    expect(allows('[\\d]', '5')).toBe(false);
    expect(allows('a\\n', 'a\n')).toBe(false);
    expect(allows('[abc]x', '[abc]x')).toBe(false);
  });

  it('matches / and \\ only with themselves (no stand-in characters)', () => {
    expect(allows('a/b', 'a\uE000b')).toBe(false);
    expect(allows('a\\\\b', 'a\uE001b')).toBe(false);
    expect(allows('a?b', 'a\uE000b')).toBe(true);
  });

  it('reads braces without a top-level comma as literal text, as bash does', () => {
    expect(allows('{a}', '{a}')).toBe(true);
    expect(allows('{a}', 'a')).toBe(false);
    expect(allows('{}', '{}')).toBe(true);
    expect(allows('{a*}', '{abc}')).toBe(true);
    expect(allows('{[a,b]}', '{a}')).toBe(true); // the comma is a class member
    expect(allows('{a,b}}', 'a}')).toBe(true);
    expect(allows('a}', 'a}')).toBe(true);
    expect(allows('a,b', 'a,b')).toBe(true);
    expect(allows('{a,}', '')).toBe(true);
  });

  it('allows ranges across / and - at either end of a class', () => {
    expect(allows('[/-}]', 'a')).toBe(true);
    expect(allows('[--/]', '.')).toBe(true);
    expect(allows('[a-]', '-')).toBe(true);
    expect(allows('[a-c-e]', '-')).toBe(true);
    expect(allows('[a-c-e]', 'd')).toBe(false); // a `-` right after a range is a member
  });

  it('is case-sensitive', () => {
    expect(allows('Search*', 'search_issues')).toBe(false);
    expect(allows('search*', 'search_issues')).toBe(true);
  });

  it('denies win over allows', () => {
    const f = compileFilter({ allow: ['get_*', 'list_*'], deny: ['*_secret'] });
    expect(f('get_issue')).toBe(true);
    expect(f('get_secret')).toBe(false);
    expect(f('delete_issue')).toBe(false);
  });

  it('allows nothing with an empty allow list', () => {
    const f = compileFilter({ allow: [], deny: [] });
    expect(f('anything')).toBe(false);
    expect(f('')).toBe(false);
  });

  it('throws on invalid globs, even when a shortcut would skip them', () => {
    expect(() => compileFilter({ allow: ['{a,b'], deny: [] })).toThrow(/invalid glob "\{a,b"/);
    expect(() => compileFilter({ allow: ['*'], deny: ['x{'] })).toThrow(/invalid glob/);
    expect(() => compileFilter({ allow: [], deny: ['{'] })).toThrow(/invalid glob/);
    expect(() => compileFilter({ allow: ['a[b'], deny: [] })).toThrow(/Missing closing/);
    expect(() => compileFilter({ allow: ['a]'], deny: [] })).toThrow(/invalid glob "a\]"/);
    expect(() => compileFilter({ allow: ['[z-a]'], deny: [] })).toThrow(/invalid range/);
    expect(() => compileFilter({ allow: ['[]'], deny: [] })).toThrow(/Missing closing/);
    expect(() => compileFilter({ allow: ['{a\\}'], deny: [] })).toThrow(/Missing closing/);
  });

  it('does no glob work per call on the default allow ["*"], deny []', () => {
    const f = compileFilter({ allow: ['*'], deny: [] });
    const test = vi.spyOn(RegExp.prototype, 'test');
    const replaceAll = vi.spyOn(String.prototype, 'replaceAll');
    try {
      for (let i = 0; i < 1000; i++) expect(f(`file:///x/${i}`)).toBe(true);
      expect(test).not.toHaveBeenCalled();
      expect(replaceAll).not.toHaveBeenCalled();
    } finally {
      test.mockRestore();
      replaceAll.mockRestore();
    }
  });
});

describe('compileFilter properties', () => {
  const anyString = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom('.', '/', 'a', '\n', '*', '\\', '(', ')', '{', '}', '[', ']', '!', '?', ','), maxLength: 12 }));

  it('allow ["*"] accepts every string; deny ["*"] rejects every string', () => {
    const allowAll = compileFilter({ allow: ['*'], deny: [] });
    const denyAll = compileFilter({ allow: ['*'], deny: ['*'] });
    fc.assert(
      fc.property(anyString, (s) => {
        expect(allowAll(s)).toBe(true);
        expect(denyAll(s)).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it('the general matcher agrees: a lone * among other globs matches every string', () => {
    const allowSome = compileFilter({ allow: ['zz', '*'], deny: ['never?matches[x]'] });
    const denySome = compileFilter({ allow: ['*'], deny: ['zz', '**'] });
    const viaRegex = compileFilter({ allow: ['zz', '*x*', 'x*', '*x', '*'], deny: ['zz'] });
    fc.assert(
      fc.property(anyString, (s) => {
        expect(allowSome(s)).toBe(true);
        expect(denySome(s)).toBe(false);
        expect(viaRegex(s)).toBe(s !== 'zz');
      }),
      { numRuns: 1000 },
    );
  });

  it('a literal head and tail around * match exactly the strings with that head and tail', () => {
    fc.assert(
      fc.property(anyString, anyString, anyString, anyString, (head, middle, tail, other) => {
        const f = compileFilter({ allow: [`${literal(head)}*${literal(tail)}`], deny: [] });
        expect(f(head + middle + tail)).toBe(true);
        const expected = other.length >= head.length + tail.length && other.startsWith(head) && other.endsWith(tail);
        expect(f(other)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('? and negated classes match any single character, including / \\ and newlines', () => {
    const unit = fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 }).filter((c) => c !== 'q');
    const anyChar = compileFilter({ allow: ['x?y'], deny: [] });
    const notQ = compileFilter({ allow: ['x[!q]y'], deny: [] });
    const notQCaret = compileFilter({ allow: ['x[^q]y'], deny: [] });
    fc.assert(
      fc.property(unit, (c) => {
        expect(anyChar(`x${c}y`)).toBe(true);
        expect(notQ(`x${c}y`)).toBe(true);
        expect(notQCaret(`x${c}y`)).toBe(true);
        expect(notQ('xqy')).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('a class of one escaped character matches that character only', () => {
    const unit = fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 });
    fc.assert(
      fc.property(unit, unit, (c, d) => {
        const f = compileFilter({ allow: [`[\\${c}]`], deny: [] });
        expect(f(c)).toBe(true);
        expect(f(d)).toBe(c === d);
      }),
      { numRuns: 500 },
    );
  });

  it('an escaped string matches itself only, and deny of it wins', () => {
    fc.assert(
      fc.property(anyString, anyString, (s, t) => {
        expect(allows(literal(s), s)).toBe(true);
        expect(allows(literal(s), t)).toBe(s === t);
        expect(compileFilter({ allow: [literal(s)], deny: [literal(s)] })(s)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});

// Differential fuzzing: random globs in our documented syntax, each built alongside an
// equivalent JS regex and a generator of strings it should match.
describe('compileFilter against a reference regex', () => {
  const CHARS = [...'ab1.,/\\\n\r\t\0()[]{}!^-*?|$+@"\'#%&:;<=>~` _', 'é', '😀', '\u2028'];
  const char = fc.constantFrom(...CHARS);
  const reEsc = (s: string): string => s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
  const escapeAll = (s: string): string => s.replace(/[*?[\]{}()\\!,^.-]/g, '\\$&');
  const escapeSyntax = (s: string): string => s.replace(/[*?[\]{}\\,]/g, '\\$&');
  interface Piece {
    glob: string;
    re: string;
    sample: fc.Arbitrary<string>;
  }
  const text = fc.string({ unit: char, maxLength: 4 });
  const join = (ps: Piece[]): Piece => ({
    glob: ps.map((p) => p.glob).join(''),
    re: ps.map((p) => p.re).join(''),
    sample: ps.length ? fc.tuple(...ps.map((p) => p.sample)).map((xs) => xs.join('')) : fc.constant(''),
  });
  const alternatives = (ps: Piece[]): Piece => ({
    glob: `{${ps.map((p) => p.glob).join(',')}}`,
    re: `(?:${ps.map((p) => p.re).join('|')})`,
    sample: fc.oneof(...ps.map((p) => p.sample)),
  });
  const member = fc.oneof(
    fc.constantFrom(...CHARS.filter((c) => c.length === 1)).map((c) => ({ glob: /[a-z0-9]/.test(c) ? c : `\\${c}`, re: reEsc(c) })),
    fc.constant({ glob: 'a-c', re: 'a-c' }),
  );
  const charClass = fc.tuple(fc.constantFrom('', '!', '^'), fc.array(member, { minLength: 1, maxLength: 3 })).map(([neg, ms]): Piece => {
    const re = `[${neg ? '^' : ''}${ms.map((m) => m.re).join('')}]`;
    const members = ms.map((m) => m.glob).join('');
    const matches = new RegExp(`^${re}$`, 's');
    return {
      glob: `[${neg}${members.startsWith('\\]') ? members.slice(1) : members}]`,
      re,
      sample: fc.constantFrom(...CHARS, 'c', 'z').filter((c) => matches.test(c)),
    };
  });
  const simple: fc.Arbitrary<Piece> = fc.oneof(
    text.map((s) => ({ glob: escapeAll(s), re: reEsc(s), sample: fc.constant(s) })),
    text.filter((s) => !s.includes('..')).map((s) => ({ glob: escapeSyntax(s), re: reEsc(s), sample: fc.constant(s) })),
    fc.constant({ glob: '*', re: '[\\s\\S]*', sample: text }),
    fc.constant({ glob: '?', re: '[\\s\\S]', sample: char }),
    charClass,
  );
  const run = (n: number) => fc.array(simple, { maxLength: n }).map(join);
  const brace = fc.array(run(3), { minLength: 2, maxLength: 3 }).map(alternatives);
  const nestedBrace = fc.array(fc.oneof(run(2), fc.tuple(run(2), brace, run(2)).map(join)), { minLength: 2, maxLength: 2 }).map(alternatives);
  const glob = fc.array(fc.oneof(simple, brace, nestedBrace), { maxLength: 4 }).map(join);

  it('matches exactly what the reference regex matches', () => {
    fc.assert(
      fc.property(
        glob.chain((g) => fc.tuple(fc.constant(g), fc.array(fc.oneof(g.sample, fc.string({ unit: char, maxLength: 8 })), { minLength: 1, maxLength: 6 }))),
        ([g, samples]) => {
          const reference = new RegExp(`^${g.re}$`, 's');
          const f = compileFilter({ allow: [g.glob], deny: [] });
          for (const s of samples) expect([g.glob, s, f(s)]).toEqual([g.glob, s, reference.test(s)]);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
