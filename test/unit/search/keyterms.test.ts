// Key-term selection (keyterms.ts): a verbose request keeps its rarest terms at full weight and
// the rest at a low weight; a short one is never changed.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Concept } from '../../../src/search/inverted.js';
import { selectKeyTerms } from '../../../src/search/keyterms.js';
import { DEFAULT_RANKING, ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';

const concept = (t: string): Concept => [[t, 1]];
const P = { above: 4, kept: 2, weight: 0.5 };

describe('selectKeyTerms', () => {
  it("keeps the rarest terms at full weight and scales the rest, in the request's order", () => {
    const df = (t: string): number => ({ list: 50, tool: 40, invoice: 2, kubernetes: 1, data: 30 })[t] ?? 0;
    const out = selectKeyTerms(['list', 'tool', 'invoice', 'kubernetes', 'data'].map(concept), df, P);
    expect(out).toEqual([[['list', 0.5]], [['tool', 0.5]], [['invoice', 1]], [['kubernetes', 1]], [['data', 0.5]]]);
    expect(selectKeyTerms(['list', 'tool', 'invoice', 'kubernetes', 'data'].map(concept), df, { ...P, weight: 0 })).toEqual([[['invoice', 1]], [['kubernetes', 1]]]);
  });

  it('never counts a term no tool uses among the key terms (its weight changes nothing)', () => {
    const df = (t: string): number => ({ list: 50, tool: 40, data: 30, file: 20 })[t] ?? 0;
    const out = selectKeyTerms(['zzyzx', 'list', 'tool', 'data', 'file'].map(concept), df, P);
    expect(out.filter((c) => c[0]![1] === 1).map((c) => c[0]![0])).toEqual(['data', 'file']);
  });

  it("scales a concept's other forms with its word", () => {
    const df = (t: string): number => ({ a: 9, b: 9, c: 9, d: 1, e: 2 })[t] ?? 0;
    const out = selectKeyTerms(
      [
        [
          ['a', 1],
          ['ab', 0.5],
        ],
        ...['b', 'c', 'd', 'e'].map(concept),
      ],
      df,
      P,
    );
    expect(out[0]).toEqual([
      ['a', 0.5],
      ['ab', 0.25],
    ]);
  });

  it('leaves a request of at most `above` terms as it is', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[a-z]{3,8}$/), { maxLength: 4 }), fc.func(fc.nat(100)), (terms, df) => {
        const concepts = terms.map(concept);
        expect(selectKeyTerms(concepts, df, P)).toBe(concepts);
      }),
    );
  });
});

describe('key terms in the ranking', () => {
  const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
  const common = ['project', 'team', 'status', 'report', 'summary', 'owner', 'deadline', 'budget', 'milestone', 'review', 'comment', 'label'];
  // One tool says every common word; the others two each; one tool alone says "invoice".
  const docs: ToolDoc[] = [
    tool('hub', 'get_overview', `Get the overview: ${common.join(', ')}.`),
    ...common.map((w, i) => tool(`work${i % 4}`, `get_${w}`, `Get the ${w} and the ${common[(i + 5) % common.length]}.`)),
    tool('billing', 'create_invoice', 'Create an invoice.'),
  ];
  const build = (params = DEFAULT_RANKING): ToolSearchIndex => {
    const index = new ToolSearchIndex(params);
    for (const d of docs) index.upsert(d);
    return index;
  };
  const verbose = `${common.join(' ')} invoice`;

  it("weighs a verbose request's rarest terms fully and the rest at the low weight", () => {
    const concepts = build().concepts(verbose);
    expect(concepts).toHaveLength(common.length + 1);
    const full = concepts.filter((c) => c[0]![1] === 1).map((c) => c[0]![0]);
    expect(full).toHaveLength(DEFAULT_RANKING.keyTermsKept);
    expect(full).toContain('invoic');
    expect(concepts.filter((c) => c[0]![1] !== 1).every((c) => c[0]![1] === DEFAULT_RANKING.keyTermsWeight)).toBe(true);
  });

  it('lets the rare word decide once the common ones weigh little', () => {
    expect(build({ ...DEFAULT_RANKING, keyTermsAbove: 1000 }).search(verbose)[0]?.key).toBe('hub__get_overview');
    expect(build({ ...DEFAULT_RANKING, keyTermsKept: 3, keyTermsWeight: 0 }).search(verbose)[0]?.key).toBe('billing__create_invoice');
  });

  it('ranks a request of up to keyTermsAbove terms exactly as without selection', () => {
    const index = build();
    const off = build({ ...DEFAULT_RANKING, keyTermsAbove: 1000 });
    for (const q of ['get the project status', 'create an invoice for the team report', common.slice(0, DEFAULT_RANKING.keyTermsAbove).join(' ')]) expect(index.search(q)).toEqual(off.search(q));
  });
});
