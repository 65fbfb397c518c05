import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MIN_FORM, PrefixVocabulary } from '../../../src/search/morphology.js';
import { DEFAULT_RANKING, ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';

const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });

describe('PrefixVocabulary', () => {
  it('relates terms of which one starts the other, both long enough', () => {
    const v = new PrefixVocabulary();
    for (const t of ['repositori', 'repo', 'rep', 'relat', 'relationship', 'remov', 'config', 'configur']) v.add(t);
    expect(v.forms('repo')).toEqual(['repositori']);
    expect(v.forms('relationship')).toEqual(['relat']);
    expect(v.forms('configur')).toEqual(['config']);
    expect(v.forms('rep')).toEqual([]);
    expect(v.forms('remind')).toEqual([]);
    v.delete('repositori');
    expect(v.forms('repo')).toEqual([]);
  });

  it('always answers like a scan of the terms it holds, after any adds and deletes', () => {
    const word = fc.stringMatching(/^(?:ab|abc|abcd|abce|abcde|abcdef|abcx|abcxy|zz|zzzz|zzzzz)$/);
    const op = fc.record({ add: fc.boolean(), term: word });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), word, (ops, q) => {
        const v = new PrefixVocabulary();
        const live = new Set<string>();
        for (const o of ops) {
          if (o.add) {
            v.add(o.term);
            live.add(o.term);
          } else {
            v.delete(o.term);
            live.delete(o.term);
          }
        }
        const expected = [...live].filter((t) => t !== q && t.length >= MIN_FORM && q.length >= MIN_FORM && (t.startsWith(q) || q.startsWith(t))).sort();
        expect(v.forms(q)).toEqual(expected);
      }),
    );
  });
});

describe('ToolSearchIndex and word forms', () => {
  const catalog = [
    tool('memory', 'create_relations', 'Create relations between entities in the knowledge graph.'),
    tool('memory', 'create_entities', 'Create entities in the knowledge graph.'),
    tool('app', 'get_configuration', 'Return the current configuration of the application.'),
    tool('app', 'get_status', 'Return the current status of the application.'),
    tool('app', 'get_authorization', 'Return the authorization provider of the application.'),
    tool('code', 'list_repositories', 'List the repositories of an organization.'),
    tool('code', 'list_members', 'List the members of an organization.'),
  ];
  const index = new ToolSearchIndex();
  for (const d of catalog) index.upsert(d);
  const first = (q: string): string | undefined => index.search(q, { limit: 1 })[0]?.key;

  it('finds a tool through a derivation or an abbreviation of its word', () => {
    expect(first('show me the app config')).toBe('app__get_configuration');
    expect(first('who is the auth provider')).toBe('app__get_authorization');
  });

  it('corrects a misspelt word that no tool uses, and only such a word', () => {
    expect(first('lsit the repositries of the organisation')).toBe('code__list_repositories');
    expect(first('show the configuraton')).toBe('app__get_configuration');
    const off = new ToolSearchIndex({ ...DEFAULT_RANKING, typoWeight: 0, gramFallback: false });
    for (const d of catalog) off.upsert(d);
    expect(off.search('repositries')).toEqual([]);
    expect(first('repositries')).toBe('code__list_repositories');
    // A word some tool uses is taken as written, never as a typo of a neighbour.
    const near = new ToolSearchIndex();
    near.upsert(tool('x', 'search_items', 'Search the items.'));
    near.upsert(tool('x', 'starch_levels', 'Measure starch levels.'));
    const terms = (q: string): string[] => near.concepts(q)[0]!.map(([t]) => t);
    expect(terms('starch')).not.toContain('search');
    expect(terms('sarch')).toEqual(expect.arrayContaining(['search', 'starch']));
  });

  it('ranks the word itself above another form of it', () => {
    const twins = new ToolSearchIndex();
    twins.upsert(tool('a', 'relations', 'Relations.'));
    twins.upsert(tool('b', 'relationship', 'Relationship.'));
    expect(twins.search('relationship').map((h) => h.key)).toEqual(['b__relationship', 'a__relations']);
  });

  it('forgets the forms of removed tools', () => {
    const alone = new ToolSearchIndex();
    alone.upsert(catalog[0]!);
    alone.upsert(catalog[2]!);
    expect(alone.search('config')).toHaveLength(1);
    alone.remove(catalog[2]!.key);
    alone.upsert(catalog[3]!);
    expect(alone.search('config')).toEqual([]);
  });

  it('is off at formWeight 0', () => {
    const off = new ToolSearchIndex({ ...DEFAULT_RANKING, formWeight: 0, gramFallback: false });
    for (const d of catalog) off.upsert(d);
    expect(off.search('config')).toEqual([]);
    expect(index.search('config')[0]?.key).toBe('app__get_configuration');
  });
});
