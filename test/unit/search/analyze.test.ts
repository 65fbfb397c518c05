import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { analyzeName, analyzeText, isStopWord } from '../../../src/search/analyze.js';

describe('analyzeText', () => {
  it('drops stop words and stems English words', () => {
    expect(analyzeText('Could you create the issues for me?')).toEqual(['creat', 'issu']);
    expect(analyzeText("what's on my calendar tomorrow")).toEqual(['calendar', 'tomorrow']);
  });

  it('keeps the verbs and quantifiers tool names are made of', () => {
    expect(analyzeText('get all new')).toEqual(['get', 'all', 'new']);
    for (const w of ['get', 'all', 'make', 'up']) expect(isStopWord(w)).toBe(false);
  });

  it('leaves words of other scripts unstemmed', () => {
    expect(analyzeText('Создать задачу')).toEqual(['создать', 'задачу']);
    expect(analyzeText('文件')).toEqual(['文件']);
  });

  it('gives a query word and a document word the same term when they share a stem', () => {
    expect(analyzeText('deleting repositories')).toEqual(analyzeText('delete repository'));
    expect(analyzeName('listPullRequests')).toEqual(analyzeText('list pull requests'));
  });

  it('never throws and never returns an empty term', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 100 }), (s) => {
        for (const t of analyzeText(s)) expect(t.length).toBeGreaterThan(0);
      }),
    );
  });

  it('returns a fresh array from analyzeName (the cache is not exposed)', () => {
    const a = analyzeName('create_issue');
    a.push('x');
    expect(analyzeName('create_issue')).toEqual(['creat', 'issu']);
  });
});
