import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { KIND, parameterKinds, valueKinds } from '../../../src/search/values.js';
import { DEFAULT_RANKING, ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';

const schema = (props: Record<string, object>) => ({ type: 'object', properties: props });

describe('values a request carries', () => {
  it('recognises URLs, addresses, paths, dates, numbers, channels, SQL and mentions', () => {
    expect(valueKinds('open https://example.org/a in the browser')).toBe(KIND.url);
    expect(valueKinds('go to example.com')).toBe(KIND.url);
    expect(valueKinds('mail bob@acme.io the notes')).toBe(KIND.email);
    expect(valueKinds('read ./src/index.ts')).toBe(KIND.path);
    expect(valueKinds('show config.yaml')).toBe(KIND.path);
    expect(valueKinds('what is on tomorrow')).toBe(KIND.date);
    expect(valueKinds('lunch at 4pm')).toBe(KIND.date);
    expect(valueKinds('comment on issue 17')).toBe(KIND.number);
    expect(valueKinds('close #12')).toBe(KIND.number);
    expect(valueKinds('post in #general')).toBe(KIND.channel);
    expect(valueKinds('run select name from users')).toBe(KIND.sql);
    expect(valueKinds('ask @tom about it')).toBe(KIND.user);
    expect(valueKinds('list my repositories')).toBe(0);
  });

  it('never throws and stays within the known kinds', () => {
    const all = Object.values(KIND).reduce((a, b) => a | b, 0);
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (q) => {
        expect(valueKinds(q) & ~all).toBe(0);
      }),
    );
  });
});

describe('parameters that take them', () => {
  it('reads parameter name words and JSON-Schema formats', () => {
    expect(parameterKinds(schema({ url: { type: 'string' } }))).toBe(KIND.url);
    expect(parameterKinds(schema({ filePaths: { type: 'array' } }))).toBe(KIND.path);
    expect(parameterKinds(schema({ when: { type: 'string', format: 'date-time' } }))).toBe(KIND.date);
    expect(parameterKinds(schema({ pull_number: { type: 'number' }, channel_id: { type: 'string' } }))).toBe(KIND.number | KIND.channel);
    expect(parameterKinds(schema({ query: { type: 'string' } }))).toBe(0);
  });

  it('takes anything as a schema without throwing', () => {
    fc.assert(
      fc.property(fc.anything(), (s) => {
        expect(typeof parameterKinds(s)).toBe('number');
      }),
    );
    expect(parameterKinds({ properties: [] })).toBe(0);
  });
});

describe('ranking by the values a request carries', () => {
  const tool = (name: string, description: string, inputSchema: object): ToolDoc => ({ key: `web__${name}`, server: 'web', name, description, inputSchema });
  const docs = [tool('open_page', 'Open a page in the browser.', schema({ url: { type: 'string' } })), tool('open_tab', 'Open a page in the browser tab list.', schema({ index: { type: 'number' } }))];

  it('puts the tool whose parameter takes the value first, and only with the value', () => {
    const index = new ToolSearchIndex();
    for (const d of docs) index.upsert(d);
    expect(index.search('open the page example.com in the browser')[0]!.key).toBe('web__open_page');
    const off = new ToolSearchIndex({ ...DEFAULT_RANKING, valueMatch: 0 });
    for (const d of docs) off.upsert(d);
    const on = index.search('open example.com')[0]!.score;
    expect(on).toBeGreaterThan(off.search('open example.com')[0]!.score);
  });
});
