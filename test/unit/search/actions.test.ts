import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { actionsOf, askedActions, describingTerms, doneVerb } from '../../../src/search/actions.js';
import { DEFAULT_RANKING } from '../../../src/search/index.js';
import { analyzeText } from '../../../src/search/analyze.js';
import { ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';

const asked = (q: string): number => askedActions(q, analyzeText(q));
// Families are looked up by index term (stemmed), as the engine does.
const family = (verb: string): number => actionsOf(analyzeText(verb));
const FETCH = family('get');
const CHANGE = family('update');
const WRITE = family('create');

describe('the action a request asks for', () => {
  it('is the verb said in its base form', () => {
    expect(asked('assign the ticket to Sam')).toBe(CHANGE);
    expect(asked('create a page')).toBe(WRITE);
  });

  it('is writing for a reminder (round 12): "remind me to buy milk" adds one', () => {
    expect(asked('remind me to buy milk')).toBe(WRITE);
  });

  it('is not a participle, which only describes the objects', () => {
    expect([...describingTerms('tickets assigned to me')]).toEqual(['assign']);
    expect([...describingTerms('what programs are running')]).toContain('run');
    // Said in the base form too, the verb is the action after all.
    expect(describingTerms('assign the tickets assigned to Bob').has('assign')).toBe(false);
    expect(asked('list the tickets assigned to me')).toBe(FETCH);
  });

  it('is fetching for a question that names no action', () => {
    expect(asked('what tickets are assigned to me')).toBe(FETCH);
    expect(asked('which tasks did I finish last week?')).toBe(FETCH);
    expect(asked('tickets assigned to me')).toBe(0);
    expect(asked('can you create an issue')).toBe(WRITE);
  });

  it('is not an irregular participle either ("written", "sent")', () => {
    expect(describingTerms("what's written on that page").has(analyzeText('write')[0]!)).toBe(true);
    expect(asked("what's written on that page")).toBe(FETCH);
    expect(asked('write it down on that page')).toBe(WRITE);
  });

  it('is fetching for a question about what has been done, whatever its verbs', () => {
    expect(asked('what mail rules have I set up')).toBe(FETCH);
    expect(asked('which labels did we create last week?')).toBe(FETCH);
    expect(asked('how many pages has she added')).toBe(FETCH);
    // "How do I ..." asks how to do it, which usually means doing it.
    expect(asked('how do I create a webhook')).toBe(WRITE);
  });

  it('ranks the tool that reads above the one that assigns, for a question', () => {
    const tool = (name: string, description: string): ToolDoc => ({ key: `t__${name}`, server: 't', name, description });
    const index = new ToolSearchIndex();
    index.upsert(tool('assign_issue', 'Assign an issue to a user.'));
    // Both say "assign": only the action the question asks for tells them apart.
    index.upsert(tool('list_issues', 'List the issues assigned to a user.'));
    expect(index.search('what issues are assigned to me', { limit: 1 })[0]?.key).toBe('t__list_issues');
  });
});

describe('doneVerb', () => {
  it('finds the verb of a question about what was done', () => {
    expect(doneVerb('where did I put the tax spreadsheet')).toBe('put');
    expect(doneVerb('how many signups did we get yesterday?')).toBe('get');
    expect(doneVerb('what have I starred')).toBe('star');
    expect(doneVerb('which repos has she forked')).toBe('fork');
  });

  it('leaves a noun subject, owning, instructions and other questions alone', () => {
    expect(doneVerb('which files did PR 42 touch')).toBe('');
    expect(doneVerb('who has push access to this repo')).toBe('');
    expect(doneVerb('what have people been saying')).toBe('');
    expect(doneVerb('put the spreadsheet in the shared folder')).toBe('');
    expect(doneVerb('how do I put a file in the bucket')).toBe('');
  });

  it('returns nothing or a term of the text, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const v = doneVerb(text);
        if (v !== '') expect(analyzeText(text.toLowerCase())).toContain(v);
      }),
      { numRuns: 500 },
    );
    expect(doneVerb('where did I put')).toBe('put');
  });

  it('lets the thing asked about pick the tool, not the verb of how it came about', () => {
    const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
    const docs = [
      tool('jira', 'jira_put', 'PUT a JSON body to a Jira REST path.'),
      tool('drive', 'search', 'Search files in Google Drive.'),
      tool('drive', 'read_file', 'Read a file from Google Drive.'),
    ];
    const build = (phrasalWeight: number): ToolSearchIndex => {
      const index = new ToolSearchIndex({ ...DEFAULT_RANKING, phrasalWeight });
      for (const d of docs) index.upsert(d);
      return index;
    };
    const q = 'where did I put the tax spreadsheet file';
    expect(build(DEFAULT_RANKING.phrasalWeight).search(q)[0]?.key).toMatch(/^drive__/);
    expect(build(1).search(q)[0]?.key).toBe('jira__jira_put');
  });
});
