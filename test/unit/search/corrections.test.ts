// Typos read through the word as typed as well as its stem (corrections.ts): a stem too short to
// correct ("delte" → delt) is corrected through its surface, a sure correction stands for the
// word, and a word between two terms is read the same way whatever order they were filed in.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { correct } from '../../../src/search/corrections.js';
import { SpellingIndex } from '../../../src/search/spelling.js';
import { ToolSearchIndex, DEFAULT_RANKING, type ToolDoc } from '../../../src/search/index.js';
import { analyzeText } from '../../../src/search/analyze.js';

const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
const nearestOf = (terms: readonly string[]): ((w: string) => string[]) => {
  const v = new SpellingIndex();
  for (const t of terms) v.add(t);
  return (w) => v.nearest(w);
};

describe('correct', () => {
  it('corrects a word through its surface when its stem is too short to look up ("delte" → delet)', () => {
    expect(analyzeText('delte')).toEqual(['delt']);
    expect(correct('delt', 'delte', nearestOf(['delet', 'email']))).toEqual({ terms: ['delet'], sure: true });
  });

  it('reaches a four-letter term from a five-letter word by a dropped letter only ("darrk" → dark)', () => {
    expect(correct('darrk', 'darrk', nearestOf(['dark', 'draft']))).toEqual({ terms: ['dark'], sure: true });
    expect(correct('dirk', 'dirk', nearestOf(['dark', 'disk']))).toEqual({ terms: [], sure: false }); // 4-letter words are not corrected
  });

  it("keeps the stem's reading when it has one: the surface is not asked", () => {
    let asked = 0;
    const nearest = (w: string): string[] => (asked++, w === 'shedul' ? ['schedul'] : ['shell']);
    expect(correct('shedul', 'shedule', nearest)).toEqual({ terms: ['schedul'], sure: true });
    expect(asked).toBe(1);
  });

  it('a word one edit from two terms gets both, unsure, in the same order whatever order they were filed in', () => {
    const terms = ['delet', 'delta', 'email', 'deploy'];
    fc.assert(
      fc.property(fc.shuffledSubarray(terms, { minLength: terms.length }), (order) => {
        expect(correct('delte', 'delte', nearestOf(order))).toEqual({ terms: ['delet', 'delta'], sure: false });
      }),
    );
  });
});

describe('ToolSearchIndex and typos the stemmer cuts', () => {
  const catalog = [
    tool('mail', 'delete_email', 'Delete an email from the mailbox.'),
    tool('mail', 'send_email', 'Send an email to someone.'),
    tool('mail', 'list_emails', 'List the emails in the inbox.'),
    tool('mail', 'describe_email', 'Describe the headers of an email.'),
  ];
  const index = new ToolSearchIndex();
  for (const d of catalog) index.upsert(d);

  it('"delte the email" is a request to delete it', () => {
    expect(index.search('delte the email')[0]?.key).toBe('mail__delete_email');
    expect(index.search('pls delte that email')[0]?.key).toBe('mail__delete_email');
  });

  it('a sure correction heads its concept at the sure weight', () => {
    const [first] = index.concepts('delte');
    expect(first?.[0]).toEqual(['delet', DEFAULT_RANKING.typoSureWeight]);
  });

  it('a word one edit from two indexed terms keeps both at the typo weight, whatever the order tools came in', () => {
    const tools = [...catalog, tool('sync', 'apply_delta', 'Apply a delta of changes to the store.')];
    const ref = new ToolSearchIndex();
    for (const d of tools) ref.upsert(d);
    fc.assert(
      fc.property(fc.shuffledSubarray(tools, { minLength: tools.length }), (order) => {
        const one = new ToolSearchIndex();
        for (const d of order) one.upsert(d);
        const [first] = one.concepts('delte');
        const w = DEFAULT_RANKING.typoWeight;
        expect(first?.[0]).toEqual(['delt', 1]);
        expect(first).toContainEqual(['delet', w]);
        expect(first?.find(([t]) => t === 'delta')?.[1]).toBeGreaterThanOrEqual(w);
        expect(one.search('delte the email')).toEqual(ref.search('delte the email'));
      }),
      { numRuns: 30 },
    );
  });

  it('a correct word is never corrected away, even one edit from another indexed word', () => {
    const word = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: 5, maxLength: 10 });
    fc.assert(
      fc.property(word, fc.nat(), fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), (w, at, c) => {
        const [t] = analyzeText(w);
        fc.pre(t !== undefined && analyzeText(w).length === 1);
        const i = 1 + (at % (w.length - 1));
        const near = w.slice(0, i) + c + w.slice(i + 1); // one substitution away
        const one = new ToolSearchIndex();
        one.upsert(tool('s', 'first_tool', `Works with the ${w}.`));
        one.upsert(tool('s', 'second_tool', `Works with the ${near}.`));
        const [concept] = one.concepts(w);
        expect(concept?.[0]).toEqual([t, 1]);
        expect(one.search(w)[0]?.key).toBe('s__first_tool');
      }),
      { numRuns: 200 },
    );
  });
});
