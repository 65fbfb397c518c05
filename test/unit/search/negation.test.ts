// Negated instructions: the verb after "don't", "never", "without"... names what must not be done,
// so a tool named for it must not win; a described state ("doesn't stick") is not an instruction.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { negatedTerms } from '../../../src/search/negation.js';
import { analyzeText } from '../../../src/search/analyze.js';
import { DEFAULT_RANKING, ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';

const negated = (q: string): string[] => [...negatedTerms(q)];

describe('negatedTerms', () => {
  it('takes the verb after a negated instruction', () => {
    expect(negated("write a draft to the recruiter but don't send it yet")).toEqual(analyzeText('send'));
    expect(negated('archive the old branch without deleting it')).toEqual(analyzeText('deleting'));
    expect(negated('do not just merge it, review it first')).toEqual(analyzeText('merge'));
    expect(negated('never push to main')).toEqual(analyzeText('push'));
  });

  it('leaves described states and qualified things alone', () => {
    expect(negated("the dark mode toggle doesn't stick after reload")).toEqual([]);
    expect(negated('issues with no assignee')).toEqual([]);
    expect(negated('why are the tests not passing')).toEqual([]);
  });

  it('keeps a verb the request also says plainly', () => {
    expect(negated("send it to Ann but don't send it to Bob")).toEqual([]);
  });

  it('returns only index terms of the text\'s own words', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => {
        const text = `don't ${s}`;
        const terms = new Set(analyzeText(text));
        for (const t of negatedTerms(text)) expect(terms.has(t)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('ToolSearchIndex and negation', () => {
  const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
  const catalog = [
    tool('mail', 'send_email', 'Send an email message to recipients.'),
    tool('mail', 'draft_email', 'Save an email as a draft without sending it.'),
    tool('mail', 'search_emails', 'Search the mailbox.'),
  ];
  const build = (params = DEFAULT_RANKING): ToolSearchIndex => {
    const index = new ToolSearchIndex(params);
    for (const d of catalog) index.upsert(d);
    return index;
  };

  it('does not pick the tool named for what the user says not to do', () => {
    const q = "write the email to Ann but don't send it";
    expect(build().search(q)[0]?.key).toBe('mail__draft_email');
    expect(build({ ...DEFAULT_RANKING, negatedName: 0 }).search(q)[0]?.key).toBe('mail__send_email');
  });

  it('still reads the negated verb as what the request is about', () => {
    // "send" is the only mail word here: the mail tools must still be found.
    expect(build().search("write it up but don't send").map((h) => h.key)).toContain('mail__draft_email');
  });
});
