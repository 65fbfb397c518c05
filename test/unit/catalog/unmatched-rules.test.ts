// check's warnings about filter rules that match nothing: each glob judged alone against the
// names of its subject (a server's own, or the exposed ones), `*` never reported, resource rules
// judging URIs in canonical form and templates by their text.

import { describe, expect, it } from 'vitest';
import { describeUnmatched, unmatchedRules, type RuleSubject } from '../../../src/catalog/unmatched-rules.js';

const all = { allow: ['*'], deny: [] as string[] };
function subject(rules: Partial<RuleSubject['rules']>, names: Partial<RuleSubject['names']> = {}): RuleSubject {
  return {
    who: 'server memory',
    rules: { tools: all, prompts: all, resources: { ...all, fileCase: 'sensitive' }, ...rules },
    names: { tools: [], prompts: [], resources: [], resourceTemplates: [], ...names },
  };
}

describe('unmatchedRules', () => {
  it('reports each allow and deny glob that matches no name, with the closest one', () => {
    const s = subject({ tools: { allow: ['create_entitys', 'read_*'], deny: ['drop_*'] } }, { tools: ['create_entities', 'read_graph'] });
    const found = unmatchedRules(s);
    expect(found).toEqual([
      { who: 'server memory', kind: 'tools', list: 'allow', glob: 'create_entitys', closest: 'create_entities' },
      { who: 'server memory', kind: 'tools', list: 'deny', glob: 'drop_*' },
    ]);
    expect(describeUnmatched(found[0]!, 'its')).toBe('tools.allow "create_entitys" matches none of its tools; did you mean create_entities?');
    expect(describeUnmatched(found[1]!, 'the exposed')).toBe('tools.deny "drop_*" matches no exposed tool');
  });

  it('never reports a lone * (the default), even on a server with nothing of that kind', () => {
    expect(unmatchedRules(subject({ prompts: { allow: ['**'], deny: [] } }))).toEqual([]);
  });

  it('judges resource rules against URIs in canonical form and templates as written', () => {
    const names = { resources: ['file:///srv/docs/a.md'], resourceTemplates: ['demo://item/{id}'] };
    const rules = { allow: ['FILE:///srv/docs/*', 'demo://item/*', 'memory://graph'], deny: [], fileCase: 'sensitive' as const };
    expect(unmatchedRules(subject({ resources: rules }, names)).map((r) => r.glob)).toEqual(['memory://graph']);
  });

  it('reports a profile rule aimed at a server that is not there, with no suggestion', () => {
    const s = { ...subject({ tools: { allow: ['github__*'], deny: [] } }, { tools: ['everything__echo', 'files__read_file'] }), who: 'client me' };
    expect(unmatchedRules(s)).toEqual([{ who: 'client me', kind: 'tools', list: 'allow', glob: 'github__*' }]);
  });
});
