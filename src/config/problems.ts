// Turns zod issues into short, user-facing ConfigProblems with paths in the user's shape
// (`servers[2].url`, `mcpServers.github.command`). Messages never quote input values: after
// `${VAR}` substitution any value may be a secret.

import type { z } from 'zod';
import { knownKeysAt } from './schema-walk.js';

export type Segment = string | number;

/** A problem before its path is formatted (the loader sorts problems by position in the file). */
export interface Found {
  path: Segment[];
  message: string;
}

/** `servers[2].url`, `mcpServers.github.env.TOKEN`, `mcpServers["my.server"]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else {
      const key = String(seg);
      if (/^[A-Za-z0-9_$-]+$/.test(key)) out += out ? `.${key}` : key;
      else out += `[${JSON.stringify(key)}]`;
    }
  }
  return out;
}

/** Edits (insert, delete, substitute, swap neighbours) turning a into b. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** Keys people write out of habit from other tools, and what to write instead. */
const aliases: Record<string, string> = {
  cmd: 'command',
  arguments: 'args',
  environment: 'env',
  disabled: 'enabled',
  type: 'transport',
  endpoint: 'url',
  workingDirectory: 'cwd',
};

/** The closest known key, if it is close enough to be a likely typo. */
export function didYouMean(key: string, known: readonly string[]): string | undefined {
  const alias = Object.hasOwn(aliases, key) ? aliases[key] : undefined;
  if (alias && known.includes(alias)) return alias;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  const limit = Math.max(key.length, best?.length ?? 0) >= 6 ? 2 : 1;
  return bestDistance <= limit ? best : undefined;
}

const typeNames: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping',
  record: 'a mapping',
  null: 'nothing',
};

function kindOf(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  return typeof input;
}

/** Marks a union failure whose schema gave no message of its own: translate() picks a branch. */
const UNION = '\u0000union';

/** Per-parse error map: plain English for every issue a schema did not word itself. */
export const errorMap: z.core.$ZodErrorMap = (iss) => {
  switch (iss.code) {
    case 'invalid_type': {
      if (iss.input === undefined) return 'required';
      const expected = typeNames[iss.expected] ?? iss.expected;
      const got = kindOf(iss.input);
      if (iss.expected === 'int' && got === 'number') return 'expected an integer';
      let hint = '';
      if (iss.expected === 'string' && (got === 'number' || got === 'boolean')) hint = ' (put it in quotes)';
      const text = typeof iss.input === 'string' ? iss.input.trim() : undefined;
      if ((iss.expected === 'number' || iss.expected === 'int') && text && /^-?\d+(\.\d+)?$/.test(text)) hint = ' (remove the quotes)';
      if (iss.expected === 'boolean' && (text === 'true' || text === 'false')) hint = ' (remove the quotes)';
      return `expected ${expected}, got ${typeNames[got] ?? got}${hint}`;
    }
    case 'too_small': {
      const min = Number(iss.minimum);
      if (iss.origin === 'string') return min <= 1 ? 'must not be empty' : `must be at least ${min} characters`;
      if (iss.origin === 'array') return `must have at least ${min} item${min === 1 ? '' : 's'}`;
      return iss.inclusive ? `must be at least ${min}` : `must be greater than ${min}`;
    }
    case 'too_big': {
      const max = Number(iss.maximum);
      if (iss.origin === 'string') return `must be at most ${max} characters`;
      if (iss.origin === 'array') return `must have at most ${max} items`;
      return iss.inclusive ? `must be at most ${max}` : `must be less than ${max}`;
    }
    case 'invalid_value':
      return iss.values.length === 1 ? `must be ${String(iss.values[0])}` : `must be one of ${iss.values.map(String).join(', ')}`;
    case 'invalid_format':
      return 'has an invalid format';
    case 'invalid_union':
      return UNION;
    case 'invalid_key':
      return 'invalid key';
    default:
      return 'is invalid';
  }
};

/** All problems for a failed parse, in document order of the issues zod reported. */
export function translateIssues(issues: readonly z.core.$ZodIssue[], base: readonly Segment[] = []): Found[] {
  const problems: Found[] = [];
  for (const issue of issues) {
    const path = [...base, ...(issue.path as Segment[])];
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeysAt(path);
      for (const key of issue.keys) {
        const suggestion = didYouMean(key, known);
        const hint = key === 'name' && path[0] === 'mcpServers' ? ' (under mcpServers, the key of the entry is its name)' : suggestion ? ` (did you mean ${suggestion}?)` : '';
        problems.push({ path: [...path, key], message: `unknown key${hint}` });
      }
    } else if (issue.code === 'invalid_union' && issue.message === UNION) {
      problems.push(...translateUnion(issue, path));
    } else {
      problems.push({ path, message: issue.message });
    }
  }
  return problems;
}

/**
 * A union where no branch matched: when a branch got past the type check (say, the input is a
 * mapping and one branch is a mapping), its problems are the useful ones; otherwise say which
 * types would do.
 */
function translateUnion(issue: z.core.$ZodIssueInvalidUnion, path: Segment[]): Found[] {
  const typeOnly = (branch: z.core.$ZodIssue[]) => branch.every((i) => i.path.length === 0 && i.code === 'invalid_type');
  const promising = issue.errors.find((branch) => branch.length > 0 && !typeOnly(branch));
  if (promising) return translateIssues(promising, path);
  const expected = [...new Set(issue.errors.flat().flatMap((i) => (i.code === 'invalid_type' ? [typeNames[i.expected] ?? i.expected] : [])))];
  const message = expected.length ? `expected ${expected.join(' or ')}` : 'is invalid';
  return [{ path, message }];
}
