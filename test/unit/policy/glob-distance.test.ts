// "Did you mean": the edit distance from a glob to a name (stars and ? free), and the closest name
// within a third of the glob's literal characters.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closestName, globDistance } from '../../../src/policy/glob-distance.js';
import { compileFilter } from '../../../src/policy/filter.js';

/** Plain Levenshtein, to compare against on star-free globs. */
function levenshtein(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) d[i]![j] = Math.min(d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1), d[i - 1]![j]! + 1, d[i]![j - 1]! + 1);
  return d[a.length]![b.length]!;
}

const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '_', '-', 'x'), maxLength: 10 });

describe('globDistance', () => {
  it('is the edit distance for a glob without wildcards', () => {
    expect(globDistance('create_entitys', 'create_entities')).toBe(2);
    fc.assert(fc.property(word, word, (a, b) => globDistance(a, b) === levenshtein(a, b)));
  });

  it('lets * match any run and ? any one character for free', () => {
    expect(globDistance('memory__*', 'memory__read_graph')).toBe(0);
    expect(globDistance('githb__*', 'github__create_issue')).toBe(1);
    expect(globDistance('read_?raph', 'read_graph')).toBe(0);
    expect(globDistance('*', '')).toBe(0);
  });

  it('is 0 exactly when the glob matches (for globs of letters, * and ?)', () => {
    const glob = fc.string({ unit: fc.constantFrom('a', 'b', '*', '?'), maxLength: 8 });
    const name = fc.string({ unit: fc.constantFrom('a', 'b'), maxLength: 8 });
    fc.assert(fc.property(glob, name, (g, n) => (globDistance(g, n) === 0) === compileFilter({ allow: [g], deny: [] })(n)));
  });
});

describe('closestName', () => {
  const names = ['create_entities', 'create_relations', 'read_graph', 'search_nodes'];
  it('names the nearest name when it is a likely typo', () => {
    expect(closestName('create_entitys', names)).toBe('create_entities');
    expect(closestName('read_grahp', names)).toBe('read_graph');
  });
  it('names none when nothing is near, or when the glob matches already', () => {
    expect(closestName('github__*', ['everything__echo', 'files__read_file'])).toBeUndefined();
    expect(closestName('delete_*', names)).toBeUndefined();
    expect(closestName('read_graph', names)).toBeUndefined();
  });
  it('allows one edit for a short name', () => {
    expect(closestName('ecko', ['echo', 'add'])).toBe('echo');
    expect(closestName('ad', ['echo', 'add'])).toBe('add');
  });
});
