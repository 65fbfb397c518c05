// Phrasal verbs: a clause's verb followed by a particle loses its literal sense, and the particle
// says nothing alone; the verb of the same request said without a particle keeps both.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { phrasalVerbs } from '../../../src/search/phrasal.js';
import { analyzeText } from '../../../src/search/analyze.js';
import { ToolSearchIndex, DEFAULT_RANKING, type ToolDoc } from '../../../src/search/index.js';

const verbs = (q: string, gap = 2): string[] => [...phrasalVerbs(q, gap).verbs];

describe('phrasalVerbs', () => {
  it('finds a verb with a particle right after it, after a held pronoun, or a few words on', () => {
    expect(verbs('pull up src/index.js from the repo')).toEqual(['pull']);
    expect(verbs('catch me up on the incident channel', 0)).toEqual(['catch']);
    expect(verbs('push the sync back to 4pm')).toEqual(['push']);
    expect(verbs('push the sync back to 4pm', 0)).toEqual([]);
    expect(phrasalVerbs('block out three focus sessions', 0).particles).toEqual(new Set(['out']));
  });

  it('takes the verb where a clause starts, after its subject or after "to"', () => {
    expect(verbs("what's the newest version we put out")).toEqual(['put']);
    expect(verbs('get sarah and mike to look over my pull request')).toEqual(['look']);
    expect(verbs('list the files, then hand them over')).toEqual(['hand']);
  });

  it('leaves requests without a particle alone', () => {
    expect(verbs('push my local commits to the main branch')).toEqual([]);
    expect(verbs('delete the old branch')).toEqual([]);
  });

  it('returns index terms of the request\'s own words, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.nat(4), (text, gap) => {
        const { verbs: v, particles } = phrasalVerbs(text, gap);
        const terms = new Set(analyzeText(text.toLowerCase()));
        for (const t of [...v, ...particles]) expect(terms.has(t)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('ToolSearchIndex and phrasal verbs', () => {
  const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
  const catalog = [
    tool('code', 'push_files', 'Push several files to a repository branch in one commit.'),
    tool('code', 'get_file_contents', 'Get the contents of a file from a repository.'),
    tool('calendar', 'update_event', 'Update an event: change its time, title or attendees.'),
    tool('calendar', 'list_events', 'List the events of a calendar.'),
  ];
  const build = (params = DEFAULT_RANKING): ToolSearchIndex => {
    const index = new ToolSearchIndex(params);
    for (const d of catalog) index.upsert(d);
    return index;
  };

  it('does not read "push … back" as pushing files', () => {
    const on = build().search('push the standup back an hour').map((h) => h.key);
    expect(on[0]).toMatch(/^calendar__/);
    const off = build({ ...DEFAULT_RANKING, phrasalWeight: 1 }).search('push the standup back an hour').map((h) => h.key);
    expect(off[0]).toBe('code__push_files');
  });

  it('keeps the verb when no particle follows it', () => {
    expect(build().search('push these files to the repo')[0]?.key).toBe('code__push_files');
  });
});

describe('clauses', () => {
  it('breaks clauses at punctuation before a space, not inside "1:1" or a file name', () => {
    expect(verbs('push my 1:1 back', 0)).toEqual([]);
    expect(verbs('push my 1:1 back', 2)).toEqual(['push']);
    expect(verbs('open index.js. pull up the log')).toEqual(['pull']);
  });
});
