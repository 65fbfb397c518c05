// A request that is only a noun phrase ("my linear tickets", "linear roadmap") names things and no
// action: it asks to see them. An instruction whose verb the action families lack ("book a call",
// "restart the pod") is not one, and neither is a question or an instruction before a colon.

import { describe, expect, it } from 'vitest';
import { canBeVerb, isTerse } from '../../../src/search/terse.js';
import { ToolSearchIndex, DEFAULT_RANKING, type ToolDoc } from '../../../src/search/index.js';

describe('canBeVerb', () => {
  it('knows verbs, technical ones too, and not nouns only', () => {
    for (const w of ['book', 'restart', 'archive', 'apply', 'cancel', 'email', 'put']) expect(canBeVerb(w)).toBe(true);
    for (const w of ['roadmap', 'grocery', 'tickets', 'collection', 'redis', 'notion']) expect(canBeVerb(w)).toBe(false);
  });
});

describe('isTerse', () => {
  it('finds noun phrases', () => {
    for (const q of ['my linear tickets', 'linear roadmap', 'roadmap for Q3', 'redis keys starting with user:', 'the linear doc about onboarding', 'linear: issues assigned to me', 'hubspot contacts at google.com']) {
      expect(isTerse(q)).toBe(true);
    }
  });

  it('leaves instructions, however their verb, and questions alone', () => {
    for (const q of ['book a call with Globex thursday', 'restart the payments pod', 'apply this yaml to the cluster', 'password protect the staging site',
      'the meeting of tomorrow, please put it one hour later', 'open PR: hotfix -> main', 'todo: buy milk', 'what are my tickets?', 'which keys are there', '']) {
      expect(isTerse(q)).toBe(false);
    }
  });
});

describe('ToolSearchIndex and a noun phrase', () => {
  const tool = (name: string, description: string): ToolDoc => ({ key: `tracker__${name}`, server: 'tracker', name, description });
  const docs = [
    tool('createIssue', 'Create a new issue in the tracker.'),
    tool('searchIssues', 'Search for issues with various filters.'),
    tool('updateIssue', 'Update an existing issue.'),
    tool('createRoadmap', 'Create a new roadmap.'),
    tool('getRoadmaps', 'Get a list of roadmaps.'),
  ];
  const build = (terseListing: boolean): ToolSearchIndex => {
    const index = new ToolSearchIndex({ ...DEFAULT_RANKING, terseListing });
    for (const d of docs) index.upsert(d);
    return index;
  };

  it('lists the things it names rather than making one', () => {
    expect(build(true).search('my tracker tickets')[0]?.key).toBe('tracker__searchIssues');
    expect(build(true).search('roadmap for Q3')[0]?.key).toBe('tracker__getRoadmaps');
    expect(build(false).search('roadmap for Q3')[0]?.key).toBe('tracker__createRoadmap');
  });
});
