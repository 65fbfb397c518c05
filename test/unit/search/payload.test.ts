// What a request hands over after an instruction's colon ("file in linear: signup email not
// sent") is the thing's text, a value: it must not pick the tool. A label before the colon
// ("redis:", "github actions:") is no instruction, and what follows it is the ask.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { payloadTerms } from '../../../src/search/payload.js';
import { analyzeText } from '../../../src/search/analyze.js';
import { ToolSearchIndex, DEFAULT_RANKING, type ToolDoc } from '../../../src/search/index.js';

const terms = (q: string): string[] => [...payloadTerms(q)].sort();

describe('payloadTerms', () => {
  it('finds the words after the colon of an instruction', () => {
    expect(terms('file in linear: signup email not sent')).toEqual(['email', 'not', 'send', 'signup']);
    expect(terms('add a row to the Leads table: Initech, warm')).toEqual(['initech', 'warm']);
    expect(terms('put a new task: pay the electricity bill')).toEqual(['bill', 'electr', 'pai']);
  });

  it('leaves a label before the colon alone: what follows is the ask', () => {
    expect(terms('redis: what is stored under the session key')).toEqual([]);
    expect(terms('github actions: why did the deploy workflow fail')).toEqual([]);
    expect(terms('todo: buy milk')).toEqual([]);
  });

  it('ends at the sentence, ignores colons with no space after, keeps words also said before', () => {
    expect(terms('post in #deploys: v2 is out. then close the ticket')).toEqual(['2', 'out', 'v2']);
    expect(terms('get the value of session:8812 from the cache')).toEqual([]);
    expect(terms('comment on the issue: the issue is fixed')).toEqual(['fix']);
  });

  it('returns only terms of the request, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (text) => {
        const all = new Set(analyzeText(text));
        for (const t of payloadTerms(text)) expect(all.has(t)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('ToolSearchIndex and an instruction\'s colon', () => {
  const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
  const docs = [
    tool('linear', 'createIssue', 'Create a new issue in Linear.'),
    tool('linear', 'getIssues', 'Get a list of recent issues.'),
    tool('mail', 'send_email', 'Sends a new email.'),
    tool('mail', 'draft_email', 'Draft a new email.'),
  ];
  const build = (payloadWeight: number): ToolSearchIndex => {
    const index = new ToolSearchIndex({ ...DEFAULT_RANKING, payloadWeight });
    for (const d of docs) index.upsert(d);
    return index;
  };

  it('files the bug in the tracker, not as a mail, when the bug is about a mail', () => {
    const q = 'file in linear: signup email not sent, with steps to reproduce';
    expect(build(DEFAULT_RANKING.payloadWeight).search(q)[0]?.key).toBe('linear__createIssue');
    expect(build(1).search(q)[0]?.key).toMatch(/^mail__/);
  });
});
