// Chatty requests: the context told before the asking ("so the team argued … could you pull up what
// was said") counts less than the task; a short lead-in ("hey can you") and a word also said in
// the task keep their weight.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { contextTerms } from '../../../src/search/preamble.js';
import { analyzeText } from '../../../src/search/analyze.js';
import { ToolSearchIndex, DEFAULT_RANKING, type ToolDoc } from '../../../src/search/index.js';

const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 200 }), fc.string({ maxLength: 200 }));

describe('contextTerms', () => {
  it('returns the words of the story told before the request asks', () => {
    const t = contextTerms('so the team had a whole argument yesterday about the logo, could you pull up what was said in #design');
    expect(t).toEqual(new Set(analyzeText('team whole argument yesterday logo')));
  });

  it('takes the last ask that follows enough context, and keeps words the task also says', () => {
    const t = contextTerms('my manager wants a summary of the merged prs, long story, anyway can you list the prs merged this week');
    expect(t.has('manag')).toBe(true);
    expect(t.has('pr')).toBe(false);
    expect(t.has('merg')).toBe(false);
  });

  it('leaves a short lead-in and a request without an ask alone', () => {
    expect(contextTerms('hey can you list my open pull requests')).toEqual(new Set());
    expect(contextTerms('list every open pull request in the main repo of our team please')).toEqual(new Set(analyzeText('list every open pull request main repo team')));
    expect(contextTerms('list every open pull request in the main repo of our team')).toEqual(new Set());
  });

  it('never throws, and returns only non-empty index terms of the request', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const terms = new Set(analyzeText(text));
        for (const t of contextTerms(text)) {
          expect(t.length).toBeGreaterThan(0);
          expect(terms.has(t)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('ToolSearchIndex and chatty requests', () => {
  const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
  const catalog = [
    tool('chat', 'get_channel_history', 'Get the recent messages of a channel.'),
    tool('art', 'generate_image', 'Generate an image or logo from a text prompt.'),
    tool('art', 'list_styles', 'List the styles an image can be generated in.'),
  ];
  const q = 'so the design team argued all week about the new logo image and its style, could you get what was said in the channel';
  const top = (params = DEFAULT_RANKING): string | undefined => {
    const index = new ToolSearchIndex(params);
    for (const d of catalog) index.upsert(d);
    return index.search(q)[0]?.key;
  };

  it('ranks what the request asks for above what its story mentions', () => {
    expect(top()).toBe('chat__get_channel_history');
  });

  it('does not without the rule', () => {
    expect(top({ ...DEFAULT_RANKING, preambleWeight: 1 })).toBe('art__list_styles');
  });
});
