import { describe, expect, it } from 'vitest';
import { analyzeText, term } from '../../../src/search/analyze.js';
import { encodeStemSplits, parseStemSplits, stemSplits } from '../../../src/search/stem-splits-table.js';
import { ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';

const same = (...words: string[]): void => {
  const terms = new Set(words.map(term));
  expect(terms.size, `${words.join('/')} → ${[...terms].join(', ')}`).toBe(1);
};
const apart = (a: string, b: string): void => expect(term(a), `${a} / ${b}`).not.toBe(term(b));

describe('stem splits derived from general word vectors', () => {
  it('gives words the stemmer joins to a word of another meaning their own term', () => {
    apart('paste', 'past');
    apart('generate', 'general');
    apart('initiative', 'initial');
    apart('customer', 'custom');
    apart('terminate', 'terminal');
    apart('execute', 'executive');
    apart('formation', 'format');
    apart('audition', 'audit');
  });

  it('keeps a split word joined to its own inflections', () => {
    same('paste', 'pasted', 'pastes');
    same('generate', 'generated', 'generates', 'generating');
    same('initiative', 'initiatives');
    same('customer', 'customers');
    same('terminate', 'terminated', 'terminating');
  });

  it('never splits the regular inflections of one word', () => {
    same('run', 'running', 'runs');
    same('file', 'files', 'filed', 'filing');
    same('deploy', 'deployed', 'deploying', 'deploys');
    same('book', 'booked', 'booking', 'books');
    same('flag', 'flagged', 'flagging');
    same('general', 'generally');
    same('day', 'days');
  });

  it('keeps related derivations together', () => {
    same('remind', 'reminder', 'reminders');
    same('manage', 'management');
    same('connect', 'connection');
    same('organize', 'organization', 'organizations');
  });

  it('reads its table back, and refuses one it would not have written', () => {
    const text = encodeStemSplits([{ term: 'paste', words: ['pastes', 'paste'] }], 20000, 0.3);
    expect([...parseStemSplits(text)]).toEqual([['paste', 'paste'], ['pastes', 'paste']]);
    expect(() => parseStemSplits(text.replace('terms=1', 'terms=2'))).toThrow();
    expect(() => encodeStemSplits([{ term: 'a', words: ['x'] }, { term: 'b', words: ['x'] }], 1, 0.3)).toThrow();
    expect(stemSplits().get('paste')).toBe('paste');
  });
});

describe('stem splits in the ranking', () => {
  const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
  const index = new ToolSearchIndex();
  for (const d of [
    tool('editor', 'paste_text', 'Paste text at the cursor.'),
    tool('activity', 'list_activity', 'List what happened in the past week or month.'),
    tool('workspace', 'update_general_settings', 'Update the general settings of the workspace.'),
    tool('images', 'create_image', 'Generate an image from a prompt.'),
    tool('shell', 'start_terminal', 'Open a terminal session.'),
    tool('shell', 'kill_process', 'Terminate a running process by its id.'),
    tool('calendar', 'get_freebusy', 'Find when calendars are free or busy.'),
    tool('places', 'search_places', 'Search for businesses and places nearby.'),
  ]) index.upsert(d);
  const keys = (q: string): string[] => index.search(q, { limit: 10 }).map((h) => h.key);

  it('reads "the past week" as time, not as pasting', () => {
    expect(keys('what happened in the past week')).toEqual(['activity__list_activity']);
    expect(keys('paste this into the file')[0]).toBe('editor__paste_text');
  });

  it('does not take generating for general', () => {
    expect(keys('update the general settings')).not.toContain('images__create_image');
    expect(keys('generate an image of a cat')).not.toContain('workspace__update_general_settings');
  });

  it('does not take being busy for a business', () => {
    expect(term('busy')).not.toBe(term('business'));
    expect(keys('am I busy friday')).not.toContain('places__search_places');
  });

  it('does not take terminating for the terminal', () => {
    expect(keys('terminate process 4242')).not.toContain('shell__start_terminal');
  });

  it('gives the same terms to a request and a tool that say one word in two forms', () => {
    expect(analyzeText('deployed files running')).toEqual(analyzeText('deploy file run'));
  });
});
