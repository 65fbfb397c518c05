// Filter rules that match nothing: each allow/deny glob judged alone, a server's against its own
// names (before any policy), a client profile's against the exposed names. Such a rule is most
// often a typo or a server that is not there; `switchboard check` warns about each, with the
// closest name when one is near (policy/glob-distance.ts). A lone `*` is never reported.

import type { FilterRules, UriFilterRules } from '../policy/rules.js';
import { compileFilter, matchesAll } from '../policy/filter.js';
import { closestName } from '../policy/glob-distance.js';
import { compileUriFilter } from '../policy/uri-filter.js';

export type RuleKind = 'tools' | 'prompts' | 'resources';

/** The rules of a server (or a profile) and the names they are matched against. */
export interface RuleSubject {
  /** `server files`, `client me`. */
  who: string;
  rules: { tools: FilterRules; prompts: FilterRules; resources: UriFilterRules };
  /** Tool and prompt names; resource URIs and template texts (resource rules judge both). */
  names: { tools: readonly string[]; prompts: readonly string[]; resources: readonly string[]; resourceTemplates: readonly string[] };
}

export interface UnmatchedRule {
  who: string;
  kind: RuleKind;
  list: 'allow' | 'deny';
  glob: string;
  /** The name nearest to matching, when it is near enough to be what was meant. */
  closest?: string;
}

const KIND_NAMES: Record<RuleKind, [one: string, many: string]> = { tools: ['tool', 'tools'], prompts: ['prompt', 'prompts'], resources: ['resource or template', 'resources or templates'] };

/** Every allow/deny glob of `subject` that matches none of its names, in config order. */
export function unmatchedRules(subject: RuleSubject): UnmatchedRule[] {
  const out: UnmatchedRule[] = [];
  for (const kind of ['tools', 'prompts', 'resources'] as const) {
    const rules = subject.rules[kind];
    const names = kind === 'resources' ? [...subject.names.resources, ...subject.names.resourceTemplates] : subject.names[kind];
    for (const list of ['allow', 'deny'] as const) {
      for (const glob of rules[list]) {
        if (matchesAll(glob) || matchesSome(kind, glob, subject, rules)) continue;
        const closest = closestName(glob, names);
        out.push({ who: subject.who, kind, list, glob, ...(closest !== undefined ? { closest } : {}) });
      }
    }
  }
  return out;
}

function matchesSome(kind: RuleKind, glob: string, subject: RuleSubject, rules: FilterRules | UriFilterRules): boolean {
  const alone = { allow: [glob], deny: [] };
  if (kind !== 'resources') return subject.names[kind].some(compileFilter(alone));
  // URIs in canonical form (as the catalog judges them); templates by their text.
  const uri = compileUriFilter({ ...alone, fileCase: (rules as UriFilterRules).fileCase });
  const text = compileFilter(alone);
  return subject.names.resources.some(uri) || subject.names.resourceTemplates.some(text);
}

/** `tools.allow "create_entitys" matches none of its tools; did you mean create_entities?` */
export function describeUnmatched(r: UnmatchedRule, whose: 'its' | 'the exposed'): string {
  const [one, many] = KIND_NAMES[r.kind];
  const what = whose === 'its' ? `none of its ${many}` : `no exposed ${one}`;
  return `${r.kind}.${r.list} "${r.glob}" matches ${what}${r.closest !== undefined ? `; did you mean ${r.closest}?` : ''}`;
}
