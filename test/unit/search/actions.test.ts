import { describe, expect, it } from 'vitest';
import { actionsOf, askedActions, describingTerms } from '../../../src/search/actions.js';
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
