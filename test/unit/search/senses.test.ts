// "open" by its sense: a state of the things to list ("my open issues", "open prs"), a view
// ("open the readme"), or a creation ("open a ticket"), which the synonym groups already read.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openSense } from '../../../src/search/senses.js';
import { ToolSearchIndex, DEFAULT_RANKING, type ToolDoc } from '../../../src/search/index.js';

describe('openSense', () => {
  it('reads a state after an owner, a quantifier or a copula, and before a plural', () => {
    for (const q of ['my open issues', 'all open PRs on the api repo', 'which tickets are still open?', 'gh open prs', 'open pull requests in main', 'how many open bugs do we have']) {
      expect(openSense(q)).toBe('state');
    }
  });

  it('reads "open the …" as a view, and leaves creation and other words alone', () => {
    expect(openSense('open the latest email from HR')).toBe('view');
    expect(openSense('pls open that file')).toBe('view');
    for (const q of ['open a ticket for the crash', 'open new tabs', 'open an issue', 'reopen the task', 'opening hours of the cafe', 'list the files']) {
      expect(openSense(q)).toBeUndefined();
    }
  });

  it('never throws on arbitrary text and answers one of its senses', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 200 })), (text) => {
        expect([undefined, 'state', 'view']).toContain(openSense(text));
      }),
      { numRuns: 500 },
    );
  });
});

describe('ToolSearchIndex and the senses of "open"', () => {
  const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
  const catalog = [
    tool('code', 'create_pull_request', 'Open a new pull request.'),
    tool('code', 'list_pull_requests', 'List the pull requests of a repository, by state (open, closed).'),
    tool('mail', 'read_email', 'Read the content of one email.'),
    tool('mail', 'send_email', 'Create and send a new email.'),
  ];
  const top = (q: string, params = DEFAULT_RANKING): string | undefined => {
    const index = new ToolSearchIndex(params);
    for (const d of catalog) index.upsert(d);
    return index.search(q)[0]?.key;
  };

  it('lists the open things, and views what it is told to open', () => {
    expect(top('open prs')).toBe('code__list_pull_requests');
    expect(top('open the latest email from HR')).toBe('mail__read_email');
  });

  it('does not without the rule', () => {
    const off = { ...DEFAULT_RANKING, openSense: false };
    expect(top('open prs', off)).toBe('code__create_pull_request');
    expect(top('open the latest email from HR', off)).toBe('mail__send_email');
  });

  it('still creates what it is told to open', () => {
    expect(top('open a pr from my branch')).toBe('code__create_pull_request');
  });
});
