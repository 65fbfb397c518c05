// validateArgs: a nested call's arguments checked against the tool's inputSchema before the
// server is called, with problems a model can act on ("args.limit: must be ≤ 100, got 500").
// The subset tools use; unknown keywords pass. Bounded: recursion depth, problem count, and
// regex patterns that could backtrack without end are not run (the server still judges).

import { type JsonSchema, type SchemaObject, isSchemaObject, numberOf, resolveRef, schemaList, schemaMap, stringList, typesOf } from './schema.js';

export type { JsonSchema } from './schema.js';

const MAX_PROBLEMS = 20;
const MAX_DEPTH = 64;
/** Longer strings are not matched against `pattern`: even a safe-looking regex can be quadratic. */
const MAX_PATTERN_INPUT = 2_000;

interface State {
  root: JsonSchema;
  problems: string[];
}

/** The problems of `args` against `schema`; empty when valid. */
export function validateArgs(schema: JsonSchema, args: unknown): string[] {
  const state: State = { root: schema, problems: [] };
  check(schema, args, 'args', state, 0);
  return state.problems;
}

function add(state: State, path: string, message: string): void {
  if (state.problems.length < MAX_PROBLEMS) state.problems.push(`${path}: ${message}`);
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function hasType(v: unknown, type: string): boolean {
  const t = typeOf(v);
  return t === type || (type === 'number' && t === 'integer');
}

function check(schema: JsonSchema, v: unknown, path: string, state: State, depth: number): void {
  if (schema === true || state.problems.length >= MAX_PROBLEMS) return;
  if (schema === false) return add(state, path, 'is not allowed here');
  if (depth > MAX_DEPTH) return;
  const s = schema as SchemaObject;
  if (typeof s.$ref === 'string') {
    const target = resolveRef(state.root, s.$ref);
    if (target !== undefined) check(target, v, path, state, depth + 1);
  }
  const types = typesOf(s);
  if (types && !types.some((t) => hasType(v, t))) {
    return add(state, path, `must be ${types.join(' or ')}, got ${typeOf(v)}`);
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => same(e, v))) {
    add(
      state,
      path,
      `must be one of ${s.enum
        .slice(0, 10)
        .map((e) => JSON.stringify(e))
        .join(', ')}${s.enum.length > 10 ? ', …' : ''}`,
    );
  }
  if ('const' in s && !same(s.const, v)) add(state, path, `must be ${JSON.stringify(s.const)}`);
  if (typeof v === 'string') checkString(s, v, path, state);
  else if (typeof v === 'number') checkNumber(s, v, path, state);
  else if (Array.isArray(v)) checkArray(s, v, path, state, depth);
  else if (isSchemaObject(v)) checkObject(s, v, path, state, depth);
  checkCombinators(s, v, path, state, depth);
}

function checkString(s: SchemaObject, v: string, path: string, state: State): void {
  const length = [...v].length;
  const min = numberOf(s, 'minLength');
  const max = numberOf(s, 'maxLength');
  if (min !== undefined && length < min) add(state, path, `must have at least ${min} characters, got ${length}`);
  if (max !== undefined && length > max) add(state, path, `must have at most ${max} characters, got ${length}`);
  if (typeof s.pattern === 'string' && v.length <= MAX_PATTERN_INPUT) {
    const re = safeRegex(s.pattern);
    if (re && !re.test(v)) add(state, path, `must match the pattern ${s.pattern}`);
  }
}

function checkNumber(s: SchemaObject, v: number, path: string, state: State): void {
  const min = numberOf(s, 'minimum');
  const max = numberOf(s, 'maximum');
  // Draft 4 spells exclusive bounds as booleans beside minimum/maximum; later drafts as numbers.
  const exMin = s.exclusiveMinimum === true ? min : numberOf(s, 'exclusiveMinimum');
  const exMax = s.exclusiveMaximum === true ? max : numberOf(s, 'exclusiveMaximum');
  if (min !== undefined && s.exclusiveMinimum !== true && v < min) add(state, path, `must be ≥ ${min}, got ${v}`);
  if (max !== undefined && s.exclusiveMaximum !== true && v > max) add(state, path, `must be ≤ ${max}, got ${v}`);
  if (exMin !== undefined && v <= exMin) add(state, path, `must be > ${exMin}, got ${v}`);
  if (exMax !== undefined && v >= exMax) add(state, path, `must be < ${exMax}, got ${v}`);
  const step = numberOf(s, 'multipleOf');
  if (step !== undefined && step > 0) {
    const q = v / step;
    if (Math.abs(q - Math.round(q)) > 1e-9 * Math.max(1, Math.abs(q))) add(state, path, `must be a multiple of ${step}`);
  }
}

function checkArray(s: SchemaObject, v: unknown[], path: string, state: State, depth: number): void {
  const min = numberOf(s, 'minItems');
  const max = numberOf(s, 'maxItems');
  if (min !== undefined && v.length < min) add(state, path, `must have at least ${min} items, got ${v.length}`);
  if (max !== undefined && v.length > max) add(state, path, `must have at most ${max} items, got ${v.length}`);
  // 2020-12: prefixItems + items; draft 7: items as a list + additionalItems.
  const prefix = schemaList(s, 'prefixItems') ?? (Array.isArray(s.items) ? schemaList(s, 'items') : undefined) ?? [];
  const rest = Array.isArray(s.items) ? s.additionalItems : s.items;
  v.forEach((item, i) => {
    const itemSchema = i < prefix.length ? prefix[i] : rest;
    if (typeof itemSchema === 'boolean' || isSchemaObject(itemSchema)) check(itemSchema, item, `${path}[${i}]`, state, depth + 1);
  });
  if (s.uniqueItems === true && v.length <= 1_000) {
    for (let i = 1; i < v.length; i++) {
      if (v.slice(0, i).some((x) => same(x, v[i]))) {
        add(state, path, `items must be unique (item ${i} repeats an earlier one)`);
        break;
      }
    }
  }
}

function checkObject(s: SchemaObject, v: Record<string, unknown>, path: string, state: State, depth: number): void {
  for (const key of stringList(s, 'required')) {
    if (!Object.hasOwn(v, key)) add(state, path, `missing required property "${key}"`);
  }
  const props = new Map(schemaMap(s, 'properties'));
  const patterns = schemaMap(s, 'patternProperties');
  const keys = Object.keys(v);
  const minP = numberOf(s, 'minProperties');
  const maxP = numberOf(s, 'maxProperties');
  if (minP !== undefined && keys.length < minP) add(state, path, `must have at least ${minP} properties`);
  if (maxP !== undefined && keys.length > maxP) add(state, path, `must have at most ${maxP} properties`);
  const extra: string[] = [];
  for (const key of keys) {
    const child = `${path}${/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`;
    const own = props.get(key);
    let known = own !== undefined;
    if (own !== undefined) check(own, v[key], child, state, depth + 1);
    for (const [pattern, sub] of patterns) {
      const re = safeRegex(pattern);
      // A pattern we will not run counts as matching: we never refuse what we could not judge.
      if (re === null || (key.length <= MAX_PATTERN_INPUT && re.test(key))) {
        known = true;
        if (re !== null) check(sub, v[key], child, state, depth + 1);
      }
    }
    if (!known) {
      if (s.additionalProperties === false) extra.push(key);
      else if (isSchemaObject(s.additionalProperties)) check(s.additionalProperties, v[key], child, state, depth + 1);
    }
  }
  if (extra.length > 0) {
    const allowed = [...props.keys()];
    add(state, path, `unknown propert${extra.length > 1 ? 'ies' : 'y'} ${extra.map((k) => `"${k}"`).join(', ')}${allowed.length ? ` (allowed: ${allowed.join(', ')})` : ''}`);
  }
}

function checkCombinators(s: SchemaObject, v: unknown, path: string, state: State, depth: number): void {
  for (const sub of schemaList(s, 'allOf') ?? []) check(sub, v, path, state, depth + 1);
  const anyOf = schemaList(s, 'anyOf');
  if (anyOf) {
    const results = anyOf.map((sub) => trial(sub, v, path, state, depth));
    if (!results.some((r) => r.length === 0)) addBest(state, path, `must match at least one of ${anyOf.length} alternatives`, results);
  }
  const oneOf = schemaList(s, 'oneOf');
  if (oneOf) {
    const results = oneOf.map((sub) => trial(sub, v, path, state, depth));
    const matches = results.filter((r) => r.length === 0).length;
    if (matches === 0) addBest(state, path, `must match exactly one of ${oneOf.length} alternatives`, results);
    else if (matches > 1) add(state, path, `matches ${matches} of the alternatives; exactly one is allowed`);
  }
  const not = s.not;
  if ((typeof not === 'boolean' || isSchemaObject(not)) && trial(not, v, path, state, depth).length === 0) add(state, path, 'matches a schema it must not match');
  const cond = s.if;
  if (typeof cond === 'boolean' || isSchemaObject(cond)) {
    const branch = trial(cond, v, path, state, depth).length === 0 ? s.then : s.else;
    if (typeof branch === 'boolean' || isSchemaObject(branch)) check(branch, v, path, state, depth + 1);
  }
}

function trial(schema: JsonSchema, v: unknown, path: string, state: State, depth: number): string[] {
  const scratch: State = { root: state.root, problems: [] };
  check(schema, v, path, scratch, depth + 1);
  return scratch.problems;
}

/** Says which alternative came closest, since "matches none" alone gives a model nothing to fix. */
function addBest(state: State, path: string, message: string, results: string[][]): void {
  const best = results.reduce((a, b) => (b.length < a.length ? b : a));
  add(state, path, best.length > 0 ? `${message}; the closest: ${best.slice(0, 3).join('; ')}` : message);
}

/** Equality of JSON values (enum, const, uniqueItems). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => same(x, (b as unknown[])[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

const regexCache = new Map<string, RegExp | null>();

/**
 * The pattern as a RegExp, or null when it is invalid or could backtrack without end: a
 * backreference, or a group repeated without bound that itself repeats or alternates ("(a+)+").
 */
export function safeRegex(pattern: string): RegExp | null {
  let re = regexCache.get(pattern);
  if (re !== undefined) return re;
  re = null;
  if (pattern.length <= 1_000 && !/\\[1-9]|\\k</.test(pattern) && !nestedRepeat(pattern)) {
    try {
      re = new RegExp(pattern, 'u');
    } catch {
      try {
        re = new RegExp(pattern);
      } catch {
        re = null;
      }
    }
  }
  if (regexCache.size > 1_000) regexCache.clear();
  regexCache.set(pattern, re);
  return re;
}

function nestedRepeat(p: string): boolean {
  const groups: boolean[] = []; // per open group: does it repeat or alternate inside?
  let lastGroupInner = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      i++;
      lastGroupInner = false;
    } else if (c === '[') {
      while (i < p.length && p[i] !== ']') i += p[i] === '\\' ? 2 : 1;
      lastGroupInner = false;
    } else if (c === '(') groups.push(false);
    else if (c === ')') {
      lastGroupInner = groups.pop() ?? false;
      if (lastGroupInner && groups.length > 0) groups[groups.length - 1] = true;
    } else if (c === '|') {
      if (groups.length > 0) groups[groups.length - 1] = true;
    } else if (c === '*' || c === '+' || c === '{') {
      const unbounded = c !== '{' || /^\{\d+,\}/.test(p.slice(i));
      if (unbounded && lastGroupInner && p[i - 1] === ')') return true;
      if (groups.length > 0) groups[groups.length - 1] = true;
      lastGroupInner = false;
    } else lastGroupInner = false;
  }
  return false;
}
