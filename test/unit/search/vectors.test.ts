import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_RANKING, ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';
import { commonWord, encodeWordVectors, parseWordVectors, plausibleForm, wordVectors } from '../../../src/search/vectors.js';

const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
const cos = (a: readonly number[], b: ArrayLike<number>): number => {
  let dot = 0;
  for (let d = 0; d < a.length; d++) dot += a[d]! * b[d]!;
  return dot / Math.hypot(...a);
};

describe('word vectors: the shipped table', () => {
  const table = wordVectors()!;

  it('decodes, once, into unit vectors looked up by index term', () => {
    expect(table).not.toBeNull();
    expect(wordVectors()).toBe(table);
    expect(table.dims).toBe(100);
    expect(table.size).toBeGreaterThan(25_000);
    const v = table.vector('email')!;
    expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    // Stems, not words: "countries" and "country" are one row; stop words and non-words have none.
    expect(table.rank('countri')).toBeGreaterThanOrEqual(0);
    expect(table.rank('the')).toBe(-1);
    expect(table.vector('zzqx')).toBeUndefined();
    expect(table.cosine('zzqx', 'email')).toBeUndefined();
    // Frequency order: a common word ranks before a rare one.
    expect(table.rank('time')).toBeLessThan(table.rank('repositori'));
  });

  it('relates words general text relates, and not words that only share letters', () => {
    expect(table.cosine('email', 'mail')!).toBeGreaterThan(0.5);
    expect(table.cosine('read', 'reader')!).toBeGreaterThan(0.5);
    expect(table.cosine('countri', 'count')!).toBeLessThan(0.3);
    expect(table.cosine('back', 'backend')!).toBeLessThan(0.3);
    expect(table.cosine('email', 'email')).toBeCloseTo(1, 5);
  });
});

describe('word vectors: encoding', () => {
  const row = fc.array(fc.double({ min: -4, max: 4, noNaN: true }), { minLength: 3, maxLength: 3 }).filter((r) => Math.hypot(...r) > 0.1);

  it('round-trips: every word keeps its rank, and its vector within int8 error', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 30 }), (rows) => {
        // Words that are not plain letters are their own index term (no stemming joins them).
        const words = rows.map((_, i) => `w${i}x`);
        const t = parseWordVectors(encodeWordVectors(words, rows));
        expect(t.size).toBe(rows.length);
        rows.forEach((r, i) => {
          expect(t.rank(words[i]!)).toBe(i);
          // Half a step of 1/127 of the largest |value| per dimension: cosine within ~1e-3 of the original.
          expect(cos(r, t.vector(words[i]!)!)).toBeGreaterThan(0.995);
          expect(t.cosine(words[i]!, words[i]!)).toBeCloseTo(1, 6);
        });
      }),
    );
  });

  it('rejects what it did not write', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        try {
          const t = parseWordVectors(bytes);
          // Only a well-formed header and length get this far.
          expect(t.size).toBeGreaterThanOrEqual(0);
        } catch (e) {
          expect(e).toBeInstanceOf(Error);
        }
      }),
    );
    const good = encodeWordVectors(['w1x'], [[1, 0]]);
    expect(() => parseWordVectors(good.subarray(0, good.length - 1))).toThrow();
    expect(() => encodeWordVectors(['a\nb'], [[1]])).toThrow();
  });
});

describe('word vectors: forms', () => {
  const table = wordVectors();

  it('turns a form away only for a common word whose vector disagrees', () => {
    expect(plausibleForm(table, 'countri', 'count', 0.3, 10_000)).toBe(false);
    expect(plausibleForm(table, 'fail', 'failur', 0.3, 10_000)).toBe(true);
    // Rare words' vectors are trained on little text: no verdict ("repo" is a finance word in the news).
    expect(plausibleForm(table, 'repo', 'repositori', 0.3, 10_000)).toBe(true);
    expect(plausibleForm(table, 'countri', 'zzqx', 0.3, 10_000)).toBe(true);
    expect(plausibleForm(null, 'countri', 'count', 0.3, 10_000)).toBe(true);
  });

  it('only ever takes forms away from a request, never adds a term', () => {
    const docs = [
      tool('db', 'count_rows', 'Count the rows of a table.'),
      tool('k8s', 'apply_manifest', 'Apply a manifest to the cluster.'),
      tool('api', 'get_backend_status', 'Status of the backend services.'),
      tool('ci', 'get_job_failures', 'Failures of a job, with their logs.'),
    ];
    const on = new ToolSearchIndex();
    const off = new ToolSearchIndex({ ...DEFAULT_RANKING, formCosine: -1 });
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
    const off = { ...DEFAULT_RANKING, formCosine: -1 };
    expect(keys(off, 'how many signups did we get')).toContain('k8s__apply_manifest');
    expect(keys(off, 'go back a page')).toContain('api__get_backend_status');
    // A real form stays: "failed" still finds the failures.
    expect(keys(undefined, 'which jobs failed')[0]).toBe('ci__get_job_failures');
  });
});

describe('word vectors: misspellings', () => {
  it('knows a common English word for a word', () => {
    const table = wordVectors();
    expect(commonWord(table, 'lunch', 10_000)).toBe(true);
    expect(commonWord(table, 'stick', 10_000)).toBe(true);
    expect(commonWord(table, 'weathr', 10_000)).toBe(false);
    expect(commonWord(table, 'repositori', 10_000)).toBe(false);
    expect(commonWord(null, 'lunch', 10_000)).toBe(false);
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
    expect(keys({ ...DEFAULT_RANKING, typoCommonRank: 0 }, 'report that the toggle will not stick')).toContain('vm__push_stack');
    // A misspelling is still corrected.
    expect(keys(undefined, 'serch the web')[0]).toBe('web__search');
  });
});
