// Where the model-visible strings of an item or result are, and how each may be treated: text that
// is cleaned and cut, data that is cleaned but never cut, and strings that must pass verbatim (names,
// enum values, URIs). Iterative, with a node budget: a hostile, deeply nested value cannot overflow the stack.

import { escapeInvisible } from './injection.js';
import { isJsonObject, type JsonObject } from '../protocol/json.js';

export type Key = string | number;

/** How the strings under a node are treated. `_meta` is never walked (MCP Apps and extensions live there). */
export type Rule =
  /** Descriptions, titles: cleaned and cut to the cap. */
  | 'text'
  /** Data shown as is (examples, defaults, result text): cleaned, never cut. Object keys inside are verbatim. */
  | 'value'
  /** A JSON Schema. */
  | 'schema'
  /** An MCP content block, or a list of them. */
  | 'block'
  | 'skip'
  /** Must reach the server unchanged, so it is checked, never rewritten; `verbatim` says what it is. */
  | { verbatim: string }
  /** A protocol object: its known fields, and what the other fields (and their names) are. */
  | { object: Record<string, Rule>; rest: Rule }
  | { each: Rule }
  /** name → value, where each name is verbatim (`names` says what it is: "property name"). */
  | { map: Rule; names: string };

export type SlotKind = 'text' | 'value' | 'verbatim';
/** One model-visible string. Its path is built only on demand (see VisibleStrings.path). */
export interface Slot {
  /** The node holding it. */
  at: number;
  key: Key;
  value: string;
  kind: SlotKind;
  /** For verbatim strings: "property name", "enum value", "URI", … */
  what: string;
  /** The string is the key itself (a property name), not the value under it. */
  isKey: boolean;
}

const V = (what: string): Rule => ({ verbatim: what });
const SCHEMA_MAP = (names: string): Rule => ({ map: 'schema', names });
const SCHEMA_KEYWORDS: Record<string, Rule> = {
  description: 'text',
  title: 'text',
  $comment: 'text',
  examples: 'value',
  default: 'value',
  enum: V('enum value'),
  const: V('const value'),
  properties: SCHEMA_MAP('property name'),
  patternProperties: SCHEMA_MAP('property pattern'),
  dependentSchemas: SCHEMA_MAP('property name'),
  $defs: SCHEMA_MAP('definition name'),
  definitions: SCHEMA_MAP('definition name'),
  dependencies: SCHEMA_MAP('property name'),
  dependentRequired: { map: V('property name'), names: 'property name' },
  required: V('property name'),
};
for (const k of ['items', 'additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'contentSchema']) {
  SCHEMA_KEYWORDS[k] = 'schema';
}
for (const k of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) SCHEMA_KEYWORDS[k] = { each: 'schema' };
// Keywords whose values are names, numbers or patterns: their names need no check, their strings do.
for (const k of [
  'type',
  'format',
  'pattern',
  '$ref',
  '$schema',
  '$id',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
  '$vocabulary',
  'contentMediaType',
  'contentEncoding',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minContains',
  'maxContains',
  'minProperties',
  'maxProperties',
  'readOnly',
  'writeOnly',
  'deprecated',
  'nullable',
]) {
  SCHEMA_KEYWORDS[k] = V(`"${k}" value`);
}

const only = (fields: Record<string, Rule>): Rule => ({ object: fields, rest: 'skip' });
const BLOCKS: Record<string, Rule> = {
  text: only({ text: 'value' }),
  resource: only({ resource: only({ text: 'value' }) }),
  resource_link: only({ name: 'value', title: 'value', description: 'value' }),
};

const hasOwn = (o: object, k: string) => Object.hasOwn(o, k);

interface Entry {
  node: object;
  parent: number;
  key: Key;
  rule: Rule;
}

/** Every model-visible string under `root`, breadth first, within `budget` nodes and strings. */
export class VisibleStrings {
  readonly slots: Slot[] = [];
  /** True when the budget ran out: strings past it were not visited. */
  exhausted = false;
  private readonly entries: Entry[] = [];
  private spent = 0;

  constructor(
    root: object,
    rule: Rule,
    private readonly budget: number,
  ) {
    this.entries.push({ node: root, parent: -1, key: '', rule });
    for (let i = 0; i < this.entries.length && !this.exhausted; i++) this.expand(i);
  }

  /** Keys from the root to the slot's string (to the key itself for a name). */
  path(slot: Slot): Key[] {
    const path: Key[] = [slot.key];
    for (let at = slot.at; at > 0; at = this.entries[at]!.parent) path.push(this.entries[at]!.key);
    return path.reverse();
  }

  private spend(): boolean {
    if (++this.spent > this.budget) this.exhausted = true;
    return !this.exhausted;
  }

  private visit(value: unknown, at: number, key: Key, rule: Rule): void {
    if (rule === 'skip' || value === null || this.exhausted) return;
    if (typeof value === 'string') {
      if (!this.spend()) return;
      const kind: SlotKind = rule === 'text' || rule === 'value' ? rule : 'verbatim';
      const what = typeof rule === 'object' && 'verbatim' in rule ? rule.verbatim : rule === 'schema' ? 'schema' : 'value';
      this.slots.push({ at, key, value, kind, what, isKey: false });
    } else if (typeof value === 'object' && this.spend()) {
      this.entries.push({ node: value, parent: at, key, rule });
    }
  }

  private name(at: number, key: string, what: string): void {
    if (this.spend()) this.slots.push({ at, key, value: key, kind: 'verbatim', what, isKey: true });
  }

  private expand(i: number): void {
    const { node } = this.entries[i]!;
    let rule = this.entries[i]!.rule;
    if (rule === 'block' && isJsonObject(node)) rule = BLOCKS[String(node.type)] ?? 'skip';
    if (Array.isArray(node)) {
      const each = typeof rule !== 'object' || 'verbatim' in rule ? rule : 'each' in rule ? rule.each : V('value');
      node.forEach((child, j) => {
        this.visit(child, i, j, each);
      });
      return;
    }
    if (!isJsonObject(node)) return;
    if (typeof rule === 'object' && 'object' in rule) {
      for (const [k, v] of Object.entries(node)) {
        if (k === '_meta') continue;
        const known = hasOwn(rule.object, k);
        if (!known && rule.rest !== 'skip') this.name(i, k, 'field name');
        this.visit(v, i, k, known ? rule.object[k]! : rule.rest);
      }
    } else if (typeof rule === 'object' && 'map' in rule) {
      for (const [k, v] of Object.entries(node)) {
        this.name(i, k, rule.names);
        this.visit(v, i, k, rule.map);
      }
    } else if (rule === 'schema') {
      for (const [k, v] of Object.entries(node)) {
        const known = hasOwn(SCHEMA_KEYWORDS, k) ? SCHEMA_KEYWORDS[k] : undefined;
        if (!known) this.name(i, k, 'schema keyword');
        this.visit(v, i, k, known ?? V('schema value'));
      }
    } else {
      // Data (text, value, verbatim, or a shape that does not fit its rule): names are verbatim.
      const inner = rule === 'text' || rule === 'value' || (typeof rule === 'object' && 'verbatim' in rule) ? rule : V('value');
      for (const [k, v] of Object.entries(node)) {
        this.name(i, k, 'key');
        this.visit(v, i, k, inner);
      }
    }
  }
}

export type Change = { keys: Key[]; value: string } | { keys: Key[]; remove: true };

/** Copy-on-write: a copy of `root` with each change applied, sharing every untouched branch. */
export function applyChanges<T extends JsonObject>(root: T, changes: readonly Change[]): T {
  if (changes.length === 0) return root;
  // An object or an array on a change's path (the walk that made the changes went through it).
  type Node = Record<Key, unknown>;
  const copy: Node = { ...root };
  const copies = new Set<unknown>([copy]);
  // defineProperty, not assignment: a key such as "__proto__" must stay a plain property.
  const set = (obj: Node, key: Key, value: unknown) => Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  for (const change of changes) {
    const { keys } = change;
    let parent = copy;
    for (let i = 0; i < keys.length - 1; i++) {
      let child = parent[keys[i]!] as Node;
      if (!copies.has(child)) {
        // (An object shared by two paths gets one copy per path: each path is patched in full.)
        child = Array.isArray(child) ? (child.slice() as unknown as Node) : { ...child };
        set(parent, keys[i]!, child);
        copies.add(child);
      }
      parent = child;
    }
    const last = keys[keys.length - 1]!;
    if ('remove' in change) delete parent[last];
    else set(parent, last, change.value);
  }
  return copy as T;
}

const fieldKey = (key: Key): string => (typeof key === 'number' ? `[${key}]` : /^[A-Za-z_$][\w$-]*$/.test(key) ? `.${key}` : `[${escapeInvisible(JSON.stringify(key))}]`);

/** "inputSchema.properties.path.description", "arguments[0].title". */
export const slotField = (keys: readonly Key[]): string => keys.map(fieldKey).join('').replace(/^\./, '');
