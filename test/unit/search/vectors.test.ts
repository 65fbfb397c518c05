import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_RANKING, ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';
import { commonWord, encodeWordChecks, parseWordChecks, plausibleForm, wordChecks } from '../../../src/search/vectors.js';

const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
describe('word checks: the shipped table', () => {
  const table = wordChecks()!;

  it('is read once, with the thresholds it was derived with, and holds index terms', () => {
    expect(table).not.toBeNull();
    expect(wordChecks()).toBe(table);
    expect(table.commonRank).toBe(10_000);
    expect(table.minCosine).toBe(0.3);
    expect(table.size).toBe(10_000);
    // Stems, not words: "country" is held as its term; stop words and rare words are not common.
    expect(table.common('countri')).toBe(true);
    expect(table.common('country')).toBe(false);
    expect(table.common('the')).toBe(false);
    expect(table.common('repositori')).toBe(false);
  });

  it('turns away look-alikes general text does not relate, and keeps real forms', () => {
    expect(table.implausible('countri', 'count')).toBe(true);
    expect(table.implausible('back', 'backend')).toBe(true);
    expect(table.implausible('mani', 'manifest')).toBe(true);
    expect(table.implausible('read', 'reader')).toBe(false);
    expect(table.implausible('fail', 'failur')).toBe(false);
    // Only a common word gets a verdict: "repo" is rare, and keeps "repository".
    expect(table.implausible('repo', 'repositori')).toBe(false);
  });
});

describe('word checks: encoding', () => {
  const letters = fc.stringMatching(/^[a-z]{1,8}$/);
  const entry = fc.tuple(letters, fc.array(fc.tuple(fc.boolean(), letters), { maxLength: 4 }));

  it('round-trips: every common term and implausible pair reads back, and nothing else', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 30 }), fc.integer({ min: 0, max: 100_000 }), fc.double({ min: -1, max: 1, noNaN: true }), (entries, rank, cosine) => {
        // Forms are made longer than the word (word + tail) or shorter (a prefix of it), never equal.
        const seen = new Set<string>();
        const terms = entries
          .filter(([w]) => !seen.has(w) && seen.add(w))
          .map(([word, tails]) => ({
            word,
            implausible: [...new Set(tails.map(([longer, tail]) => (longer || word.length < 2 ? word + tail : word.slice(0, Math.max(1, word.length - tail.length)))))].filter((f) => f !== word),
          }));
        const t = parseWordChecks(encodeWordChecks(terms, rank, cosine));
        expect([t.size, t.commonRank, t.minCosine]).toEqual([terms.length, rank, cosine + 0]); // −0 is written as 0
        for (const { word, implausible } of terms) {
          expect(t.common(word)).toBe(true);
          for (const f of implausible) expect(t.implausible(word, f)).toBe(true);
          expect(t.implausible(word, word)).toBe(false);
          expect(t.implausible(word, `${word}zz9`)).toBe(implausible.includes(`${word}zz9`));
        }
        expect(t.common('zz9')).toBe(false);
      }),
    );
  });

  it('rejects what it did not write', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        try {
          const t = parseWordChecks(text);
          // Only a well-formed header and body get this far.
          expect(t.size).toBeGreaterThanOrEqual(0);
        } catch (e) {
          expect(e).toBeInstanceOf(Error);
        }
      }),
    );
    const good = encodeWordChecks([{ word: 'back', implausible: ['backend'] }, { word: 'time', implausible: [] }], 10, 0.3);
    expect(parseWordChecks(good).implausible('back', 'backend')).toBe(true);
    expect(() => parseWordChecks(good.slice(0, -1))).toThrow();
    expect(() => parseWordChecks(good.replace('terms=2', 'terms=3'))).toThrow();
    expect(() => parseWordChecks(good.replace('backend', 'frontend'))).toThrow();
    expect(() => parseWordChecks(good.replace('time', 'back'))).toThrow();
    expect(() => parseWordChecks(good.replace('back backend', 'back  backend'))).toThrow();
    expect(() => parseWordChecks(good.replace('1 common', '2 common'))).toThrow();
    expect(() => encodeWordChecks([{ word: 'a b', implausible: [] }], 10, 0.3)).toThrow();
    expect(() => encodeWordChecks([{ word: 'back', implausible: ['front'] }], 10, 0.3)).toThrow();
    expect(() => encodeWordChecks([{ word: 'back', implausible: [] }, { word: 'back', implausible: [] }], 10, 0.3)).toThrow();
  });
});

describe('word vectors: forms', () => {
  const table = wordChecks();

  it('turns a form away only for a common word whose vector disagrees', () => {
    expect(plausibleForm(table, 'countri', 'count')).toBe(false);
    expect(plausibleForm(table, 'fail', 'failur')).toBe(true);
    // Rare words' vectors are trained on little text: no verdict ("repo" is a finance word in the news).
    expect(plausibleForm(table, 'repo', 'repositori')).toBe(true);
    expect(plausibleForm(table, 'countri', 'zzqx')).toBe(true);
    expect(plausibleForm(null, 'countri', 'count')).toBe(true);
  });

  it('only ever takes forms away from a request, never adds a term', () => {
    const docs = [
      tool('db', 'count_rows', 'Count the rows of a table.'),
      tool('k8s', 'apply_manifest', 'Apply a manifest to the cluster.'),
      tool('api', 'get_backend_status', 'Status of the backend services.'),
      tool('ci', 'get_job_failures', 'Failures of a job, with their logs.'),
    ];
    const on = new ToolSearchIndex();
    const off = new ToolSearchIndex({ ...DEFAULT_RANKING, formCheck: false });
    for (const d of docs) {
      on.upsert(d);
      off.upsert(d);
    }
    fc.assert(
      fc.property(fc.array(fc.constantFrom('how', 'many', 'country', 'back', 'failed', 'jobs', 'rows', 'manifests', 'zzqx', 'the', '42'), { maxLength: 8 }), fc.string(), (words, noise) => {
        const q = `${words.join(' ')} ${noise}`;
        const terms = (index: ToolSearchIndex) => new Set(index.concepts(q).flatMap((c) => c.map(([t]) => t)));
        const withCheck = terms(on);
        const without = terms(off);
        for (const t of withCheck) expect(without.has(t)).toBe(true);
      }),
    );
  });

  it('keeps a look-alike word from ranking a tool for a request it does not serve', () => {
    const docs = [
      tool('db', 'query', 'Run a read-only SQL query and return how many rows match.'),
      tool('db', 'count_rows', 'Count the rows of a table.'),
      tool('k8s', 'apply_manifest', 'Apply a manifest to the cluster.'),
      tool('api', 'get_backend_status', 'Status of the backend services.'),
      tool('browser', 'navigate_back', 'Go to the previous page in the history.'),
      tool('ci', 'get_job_failures', 'Failures of a job, with their logs.'),
    ];
    const keys = (params = DEFAULT_RANKING, q: string) => {
      const index = new ToolSearchIndex(params);
      for (const d of docs) index.upsert(d);
      return index.search(q, { limit: 5 }).map((h) => h.key);
    };
    // "many" ↛ manifest, "back" ↛ backend: general usage does not relate them.
    expect(keys(undefined, 'how many signups did we get')).not.toContain('k8s__apply_manifest');
    expect(keys(undefined, 'go back a page')).not.toContain('api__get_backend_status');
    // With the check off, the look-alikes come back (this test would pass without the rule otherwise).
    const off = { ...DEFAULT_RANKING, formCheck: false };
    expect(keys(off, 'how many signups did we get')).toContain('k8s__apply_manifest');
    expect(keys(off, 'go back a page')).toContain('api__get_backend_status');
    // A real form stays: "failed" still finds the failures.
    expect(keys(undefined, 'which jobs failed')[0]).toBe('ci__get_job_failures');
  });
});

describe('word vectors: misspellings', () => {
  it('knows a common English word for a word', () => {
    const table = wordChecks();
    expect(commonWord(table, 'lunch')).toBe(true);
    expect(commonWord(table, 'stick')).toBe(true);
    expect(commonWord(table, 'weathr')).toBe(false);
    expect(commonWord(table, 'repositori')).toBe(false);
    expect(commonWord(null, 'lunch')).toBe(false);
  });

  it('does not read a common word that no tool uses as a misspelling of one that a tool does', () => {
    const docs = [
      tool('vm', 'push_stack', 'Push a value onto the stack.'),
      tool('tracker', 'create_issue', 'Create an issue to report a bug.'),
      tool('web', 'search', 'Search the web.'),
    ];
    const keys = (params = DEFAULT_RANKING, q: string) => {
      const index = new ToolSearchIndex(params);
      for (const d of docs) index.upsert(d);
      return index.search(q, { limit: 5 }).map((h) => h.key);
    };
    // "stick" is a word: it is not stack (nor stock, nor stuck).
    expect(keys(undefined, 'report that the toggle will not stick')).not.toContain('vm__push_stack');
    expect(keys({ ...DEFAULT_RANKING, typoCommonWords: false }, 'report that the toggle will not stick')).toContain('vm__push_stack');
    // A misspelling is still corrected.
    expect(keys(undefined, 'serch the web')[0]).toBe('web__search');
  });
});
