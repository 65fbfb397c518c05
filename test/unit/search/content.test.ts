// Dictated and quoted content: words a request gives the tool as a value ("… saying the deploy
// is done", "called web", "ping #eng that standup is cancelled") do not choose the tool; the
// same word said outside still does.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { contentTerms } from '../../../src/search/content.js';
import { analyzeText } from '../../../src/search/analyze.js';
import { ToolSearchIndex, DEFAULT_RANKING, type ToolDoc } from '../../../src/search/index.js';

const terms = (q: string): string[] => [...contentTerms(q)].sort();

describe('contentTerms', () => {
  it('finds the words after "saying", inside double quotes, and the name after called/named/titled', () => {
    expect(terms('post in #general saying the deploy is done')).toEqual(['deploi']);
    expect(terms('wait until the text "Order confirmed" shows up')).toEqual(['confirm', 'order']);
    expect(terms('get the yaml for the ingress called web')).toEqual(['web']);
    expect(terms('create a repo named dotfiles')).toEqual(['dotfil']);
  });

  it('takes a name of a few words, to a preposition (round 12)', () => {
    expect(terms('make a new notion page under Projects called Q4 goals')).toEqual(['4', 'goal', 'q4']);
    expect(terms('create a label called urgent in gmail')).toEqual(['urgent']);
    expect(terms('a channel named release train for the launch')).toEqual(['releas', 'train']);
    expect(terms('make a branch called fix-login off main')).toEqual(['fix', 'login']);
  });

  it('ends "saying" at the sentence and leaves reported talk and plain requests alone', () => {
    expect(terms('reply saying approved. then archive the thread')).toEqual(['approv']);
    expect(terms('what have people been saying in #random today')).toEqual([]);
    expect(terms('post a message to the team')).toEqual([]);
  });

  it('finds a clause told to someone after "that" (a subject and its verb follow)', () => {
    expect(terms('ping #eng that standup is cancelled today')).toEqual(['cancel', 'standup', 'todai']);
    expect(terms('answer in that thread that I\'ll look after lunch')).toEqual(['after', 'look', 'lunch']);
    expect(terms('tell the team that the deploy is done')).toEqual(['deploi']);
    // A determiner "that", or a relative clause with no telling verb, is no content.
    expect(terms('find the thread that mentions pricing')).toEqual([]);
    expect(terms('close that issue')).toEqual([]);
  });

  it('keeps a word that is also said outside the content', () => {
    expect(terms('post a message saying the message is late')).toEqual(['late']);
  });

  it('returns only terms of the request, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (text) => {
        const all = new Set(analyzeText(text));
        for (const t of contentTerms(text)) expect(all.has(t)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('ToolSearchIndex and dictated content', () => {
  const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
  const docs = [
    tool('cluster', 'resources_get', 'Get a Kubernetes resource (deployment, ingress, pod) as YAML.'),
    tool('web', 'web_search', 'Search the web.'),
    tool('web', 'web_fetch', 'Fetch a web page.'),
  ];
  const build = (contentWeight: number): ToolSearchIndex => {
    const index = new ToolSearchIndex({ ...DEFAULT_RANKING, contentWeight });
    for (const d of docs) index.upsert(d);
    return index;
  };

  it('does not let a resource named "web" pick the web tools', () => {
    const q = 'show the ingress called web';
    expect(build(DEFAULT_RANKING.contentWeight).search(q)[0]?.key).toBe('cluster__resources_get');
    expect(build(1).search(q)[0]?.key).toMatch(/^web__/);
  });
});
