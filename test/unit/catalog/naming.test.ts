import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MODEL_API_NAME_RULES, SPEC_NAME_PATTERN, SPEC_NAME_RULES, assignNames, fitName, type NameRequest, type NameRules, type NamingOptions } from '../../../src/catalog/naming.js';

const MODEL_API_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const HASH = '[a-z2-7]{8}';
const always: NamingOptions = { separator: '__', mode: 'always' };
const onConflict: NamingOptions = { separator: '__', mode: 'on-conflict' };
const req = (server: string, name: string, prefix = server): NameRequest => ({ server, prefix, name });

describe('fitName', () => {
  it('keeps valid candidates exactly', () => {
    expect(fitName('gh__search')).toBe('gh__search');
    expect(fitName('a.b-c_d')).toBe('a.b-c_d');
    expect(fitName('x'.repeat(128))).toBe('x'.repeat(128));
  });

  it('replaces disallowed characters and adds a hash, so a/b and a_b never collide', () => {
    const fitted = fitName('x__a/b');
    expect(fitted).toMatch(new RegExp(`^x__a_b-${HASH}$`));
    expect(fitted).not.toBe(fitName('x__a_b'));
    expect(fitName('x__a b')).toMatch(new RegExp(`^x__a_b-${HASH}$`));
    expect(fitName('x__a b')).not.toBe(fitted);
    expect(fitName('données')).toMatch(new RegExp(`^donn_es-${HASH}$`));
    expect(fitName('😀')).toMatch(new RegExp(`^_-${HASH}$`)); // one code point, one `_`
  });

  it('cuts long candidates, keeping the readable head, and tells them apart by hash', () => {
    const head = 'n'.repeat(200);
    const a = fitName(`${head}a`);
    const b = fitName(`${head}b`);
    expect(a).toHaveLength(128);
    expect(a).toMatch(new RegExp(`^n{119}-${HASH}$`));
    expect(a).not.toBe(b);
    expect(fitName('x'.repeat(129))).toHaveLength(128);
  });

  it('replaces dots under the model API rules', () => {
    expect(fitName('gh__repo.search', MODEL_API_NAME_RULES)).toMatch(new RegExp(`^gh__repo_search-${HASH}$`));
    expect(fitName('gh__repo_search', MODEL_API_NAME_RULES)).toBe('gh__repo_search');
    const long = fitName('y'.repeat(65), MODEL_API_NAME_RULES);
    expect(long).toMatch(new RegExp(`^y{55}-${HASH}$`));
  });

  it('produces a valid name for the empty string', () => {
    expect(fitName('')).toMatch(new RegExp(`^_${HASH}$`));
    expect(fitName('')).toBe(fitName(''));
  });

  it('is deterministic across calls (and processes: the hash is sha256)', () => {
    expect(fitName('a/b')).toBe(fitName('a/b'));
    expect(fitName('a/b')).not.toBe(fitName('a\\b'));
  });

  it('rejects rules that leave no room for a hash suffix or lack its alphabet', () => {
    expect(() => fitName('a', { allowed: /[a-z]/, maxLength: 5 })).toThrow(RangeError);
    expect(() => fitName('a', { allowed: /[A-Z_]/, maxLength: 64 })).toThrow(/must allow/);
  });

  it('ignores a g flag on the allowed class', () => {
    const rules: NameRules = { allowed: /[a-z0-9_]/g, maxLength: 20 };
    expect(fitName('abc', rules)).toBe('abc');
    expect(fitName('abc', rules)).toBe('abc');
    expect(fitName('a-b', rules)).toMatch(new RegExp(`^a_b_${HASH}$`)); // no `-`: marker falls back to `_`
  });
});

describe('assignNames, always mode', () => {
  it('prefixes with the separator, or not at all for an empty prefix', () => {
    expect(assignNames([req('gh', 'search'), req('fs', 'read_file', '')], always)).toEqual(['gh__search', 'read_file']);
    expect(assignNames([req('gh', 'search')], { ...always, separator: '.' })).toEqual(['gh.search']);
    expect(assignNames([req('gh', 'search')], { ...always, separator: '.', rules: MODEL_API_NAME_RULES })[0]).toMatch(new RegExp(`^gh_search-${HASH}$`));
  });

  it('handles an empty name', () => {
    expect(assignNames([req('x', '')], always)).toEqual(['x__']);
    expect(assignNames([req('x', '', '')], always)[0]).toMatch(new RegExp(`^_${HASH}$`));
  });

  it('keeps the first of two equal names and suffixes the later one deterministically', () => {
    const items = [req('a', 'search', ''), req('b', 'search', '')];
    const names = assignNames(items, always);
    expect(names[0]).toBe('search');
    expect(names[1]).toMatch(new RegExp(`^search-${HASH}$`));
    expect(assignNames(items, always)).toEqual(names);
  });

  it('makes names unique when one server lists a name several times', () => {
    const names = assignNames([req('a', 'x'), req('a', 'x'), req('a', 'x')], always);
    expect(names[0]).toBe('a__x');
    expect(new Set(names).size).toBe(3);
  });

  it('never renames an item whose own name is unique because of another item’s clash suffix', () => {
    const [, clashed] = assignNames([req('a', 'search', ''), req('b', 'search', '')], always);
    // Now a third server really has a tool named exactly like that suffixed name, listed last.
    const names = assignNames([req('a', 'search', ''), req('b', 'search', ''), req('c', clashed!, '')], always);
    expect(names[2]).toBe(clashed);
    expect(names[1]).not.toBe(clashed);
    expect(new Set(names).size).toBe(3);
  });

  it('separates prefix/name splits that concatenate alike', () => {
    const names = assignNames([req('s1', 'b__c', 'a'), req('s2', 'c', 'a__b')], always);
    expect(names[0]).toBe('a__b__c');
    expect(names[1]).toMatch(new RegExp(`^a__b__c-${HASH}$`));
  });
});

describe('assignNames, on-conflict mode', () => {
  it('uses plain names unless two servers share one', () => {
    const names = assignNames([req('gh', 'search'), req('gl', 'search'), req('fs', 'read_file')], onConflict);
    expect(names).toEqual(['gh__search', 'gl__search', 'read_file']);
  });

  it('detects conflicts after fitting', () => {
    const names = assignNames([req('a', 'x/y'), req('b', 'x/y'), req('c', 'q.r')], onConflict);
    expect(names[0]).toMatch(new RegExp(`^a__x_y-${HASH}$`));
    expect(names[1]).toMatch(new RegExp(`^b__x_y-${HASH}$`));
    expect(names[2]).toBe('q.r');
  });

  it('does not treat same-server duplicates as a conflict, but still makes them unique', () => {
    const names = assignNames([req('a', 'search'), req('a', 'search')], onConflict);
    expect(names[0]).toBe('search');
    expect(names[1]).toMatch(new RegExp(`^search-${HASH}$`));
  });

  it('keeps conflicting servers with an empty prefix unique', () => {
    const names = assignNames([req('a', 'search', ''), req('b', 'search')], onConflict);
    expect(names).toEqual(['search', 'b__search']);
  });

  it('fits plain names to the model API rules', () => {
    expect(assignNames([req('a', 'repo.search')], { ...onConflict, rules: MODEL_API_NAME_RULES })[0]).toMatch(new RegExp(`^repo_search-${HASH}$`));
  });
});

// ---- properties ----

// Any code points (astral too), lone surrogates, and a small alphabet that makes clashes likely.
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: fc.constantFrom('a', 'b', '_', '-', '.', '/', ' ', '\uD800', '\uDC00', 'é', '😀'), maxLength: 8 }),
  fc.constantFrom('', 'search', 'x'.repeat(1000), '__', 'a__b'),
);
const request = fc.record({ server: fc.constantFrom('s1', 's2', 's3', ''), prefix: anyText, name: anyText });
const options = fc.record({
  separator: fc.constantFrom('__', '.', '-', '', '/', '::'),
  mode: fc.constantFrom('always' as const, 'on-conflict' as const),
  rules: fc.constantFrom(SPEC_NAME_RULES, MODEL_API_NAME_RULES),
});
const patternOf = (rules: NameRules) => (rules === SPEC_NAME_RULES ? SPEC_NAME_PATTERN : MODEL_API_PATTERN);

describe('assignNames properties', () => {
  it('every output matches the rules, for any input', () => {
    fc.assert(
      fc.property(fc.array(request, { maxLength: 12 }), options, (items, opts) => {
        const names = assignNames(items, opts);
        expect(names).toHaveLength(items.length);
        for (const n of names) expect(n).toMatch(patternOf(opts.rules));
      }),
      { numRuns: 300 },
    );
  });

  it('fitName output is valid and a fixed point', () => {
    fc.assert(
      fc.property(anyText, fc.constantFrom(SPEC_NAME_RULES, MODEL_API_NAME_RULES), (s, rules) => {
        const fitted = fitName(s, rules);
        expect(fitted).toMatch(patternOf(rules));
        expect(fitName(fitted, rules)).toBe(fitted);
      }),
      { numRuns: 500 },
    );
  });

  it('outputs are unique', () => {
    fc.assert(
      fc.property(fc.array(request, { maxLength: 20 }), options, (items, opts) => {
        const names = assignNames(items, opts);
        expect(new Set(names).size).toBe(names.length);
      }),
      { numRuns: 300 },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(fc.array(request, { maxLength: 12 }), options, (items, opts) => {
        expect(
          assignNames(
            items.map((i) => ({ ...i })),
            opts,
          ),
        ).toEqual(assignNames(items, opts));
      }),
      { numRuns: 200 },
    );
  });

  // Existing servers use prefixes from one alphabet and the new server a prefix outside it, so
  // no prefix/name split of a new item can spell an existing candidate (that would be a true clash).
  const existing = fc.array(fc.record({ server: fc.constantFrom('s1', 's2'), prefix: fc.constantFrom('', 'a', 'b', 'ab'), name: anyText }), { maxLength: 12 });
  const added = fc.array(fc.record({ server: fc.constant('new'), prefix: fc.constant('zz'), name: anyText }), {
    minLength: 1,
    maxLength: 6,
  });

  it('always mode: adding a server after the existing ones renames nothing', () => {
    fc.assert(
      fc.property(existing, added, options, (old, extra, opts) => {
        const o = { ...opts, mode: 'always' as const };
        const before = assignNames(old, o);
        expect(assignNames([...old, ...extra], o).slice(0, old.length)).toEqual(before);
      }),
      { numRuns: 300 },
    );
  });

  it('always mode: adding a server before the existing ones renames nothing', () => {
    fc.assert(
      fc.property(existing, added, fc.constantFrom(SPEC_NAME_RULES, MODEL_API_NAME_RULES), (old, extra, rules) => {
        const o: NamingOptions = { separator: '__', mode: 'always', rules };
        const before = assignNames(old, o);
        expect(assignNames([...extra, ...old], o).slice(extra.length)).toEqual(before);
      }),
      { numRuns: 300 },
    );
  });

  it('always mode: valid, distinct candidates come out unchanged', () => {
    const part = fc.string({ unit: fc.constantFrom(...'abcXYZ019_.-'), minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(part, part), { maxLength: 15, selector: ([p, n]) => `${p}__${n}` }), (pairs) => {
        const items = pairs.map(([prefix, name], i) => ({ server: `s${i % 3}`, prefix, name }));
        expect(assignNames(items, always)).toEqual(pairs.map(([p, n]) => `${p}__${n}`));
      }),
      { numRuns: 300 },
    );
  });
});

// ---- namespaces (issue 28.6: a name can be hijacked under naming.mode on-conflict) ----

const spaces = (...pairs: [string, string][]) => new Map(pairs);

describe('assignNames with namespaces: no server holds a name in another server’s namespace', () => {
  const ns = spaces(['evil', 'evil'], ['gh', 'gh']);

  it('the finding: evil lists create_issue and gh__create_issue; gh keeps gh__create_issue, in either order', () => {
    const evil = [req('evil', 'create_issue'), req('evil', 'gh__create_issue')];
    const gh = [req('gh', 'create_issue')];
    const first = assignNames([...evil, ...gh], { ...onConflict, namespaces: ns });
    expect(first).toEqual(['evil__create_issue', 'evil__gh__create_issue', 'gh__create_issue']);
    const second = assignNames([...gh, ...evil], { ...onConflict, namespaces: ns });
    expect(second).toEqual(['gh__create_issue', 'evil__create_issue', 'evil__gh__create_issue']);
    // Without namespaces (main): evil took the name, the real tool got a hash suffix.
    expect(assignNames([...evil, ...gh], onConflict)[1]).toBe('gh__create_issue');
  });

  it('prefixes an unprefixed name in on-conflict mode even when nothing clashes', () => {
    expect(assignNames([req('evil', 'gh__x')], { ...onConflict, namespaces: ns })).toEqual(['evil__gh__x']);
    expect(assignNames([req('evil', 'gh__x')], onConflict)).toEqual(['gh__x']);
  });

  it('withholds the name of a server with prefix "" (it has no namespace of its own)', () => {
    const names = assignNames([req('bare', 'gh__create_issue', ''), req('bare', 'search', ''), req('gh', 'create_issue')], {
      ...always,
      namespaces: spaces(['bare', ''], ['gh', 'gh']),
    });
    expect(names).toEqual([undefined, 'search', 'gh__create_issue']);
  });

  it('lets a server hold names in its own namespace, also unprefixed ones', () => {
    expect(assignNames([req('gh', 'gh__x'), req('gh', 'x')], { ...onConflict, namespaces: ns })).toEqual(['gh__x', 'x']);
  });

  it('keeps a hash-suffixed clash out of other namespaces (separator -, prefix g)', () => {
    const opts: NamingOptions = { separator: '-', mode: 'always', namespaces: spaces(['a', ''], ['b', ''], ['g', 'g']) };
    const names = assignNames([req('a', 'g', ''), req('b', 'g', ''), req('g', 'x')], opts);
    expect(names[0]).toBe('g');
    expect(names[1]).toBeUndefined(); // `g-<hash>` would be in g's namespace
    expect(names[2]).toBe('g-x');
  });

  it('with overlapping prefixes (the config refuses them) the longest namespace owns the name', () => {
    const opts: NamingOptions = { ...always, namespaces: spaces(['a', 'a'], ['ab', 'a__b']) };
    expect(assignNames([req('a', 'b__x'), req('a', 'c'), req('ab', 'x', 'a__b')], opts)).toEqual([undefined, 'a__c', 'a__b__x']);
  });
});

describe('assignNames with namespaces, as properties', () => {
  // Prefixes that never overlap (as the config requires), some empty; names that often reach
  // into other namespaces, written with any server's prefix and either separator.
  const SERVERS = ['gh', 'gl', 'fs', 'bare', 'bare2'] as const;
  const PREFIX: Record<string, string> = { gh: 'gh', gl: 'GL.x', fs: 'fs', bare: '', bare2: '' };
  const sep = fc.constantFrom('__', '-', '.');
  const name = fc.oneof(
    fc.constantFrom('create_issue', 'search', 'x', 'a/b', ''),
    fc.tuple(fc.constantFrom('gh', 'GL.x', 'fs', 'bare', 'zz'), fc.constantFrom('__', '-', '.', '_'), fc.constantFrom('create_issue', 'search', 'x', '')).map(([p, s, n]) => p + s + n),
  );
  const items = fc.array(
    fc.record({ server: fc.constantFrom(...SERVERS), name }).map(({ server, name }) => req(server, name, PREFIX[server])),
    { maxLength: 14 },
  );
  const namespaces = new Map(SERVERS.map((s) => [s as string, PREFIX[s]!]));
  const mode = fc.constantFrom('always' as const, 'on-conflict' as const);

  it('no exposed name of a server starts with another server’s <prefix><separator>, and every name maps back to one item', () => {
    fc.assert(
      fc.property(items, sep, mode, (list, separator, m) => {
        const names = assignNames(list, { separator, mode: m, namespaces });
        names.forEach((n, i) => {
          if (n === undefined) {
            expect(list[i]!.prefix).toBe(''); // only a server without a namespace loses an item
            return;
          }
          for (const [other, prefix] of namespaces) {
            if (other !== list[i]!.server && prefix !== '') expect(n.startsWith(prefix + separator), `${n} of ${list[i]!.server}`).toBe(false);
          }
        });
        const given = names.filter((n) => n !== undefined);
        expect(new Set(given).size).toBe(given.length); // one (server, original) per exposed name
      }),
      { numRuns: 1000 },
    );
  });

  it('a server’s names in its own namespace do not depend on the order of the other servers’ items', () => {
    fc.assert(
      fc.property(items, sep, mode, (list, separator, m) => {
        const opts = { separator, mode: m, namespaces };
        const gh = list.filter((it) => it.server === 'gh');
        const others = list.filter((it) => it.server !== 'gh');
        // gh's names in its own namespace, item by item (gh's items keep their order).
        const mine = (names: (string | undefined)[]) => names.map((n) => (n?.startsWith(`gh${separator}`) ? n : null));
        const before = assignNames([...others, ...gh], opts).slice(others.length);
        const after = assignNames([...gh, ...[...others].reverse()], opts).slice(0, gh.length);
        expect(mine(after)).toEqual(mine(before));
      }),
      { numRuns: 500 },
    );
  });
});
