// Where the model-visible strings of a catalog item are (descriptions and titles, also deep inside
// JSON Schemas), and a copy-on-write update of some of them that shares every untouched branch.
// Iterative, so a hostile, deeply nested schema cannot overflow the stack.

import { escapeInvisible } from './injection.js';

export type Key = string | number;
/** One model-visible string: where it is (keys from the item's root), its display path, its value. */
export interface Slot {
  keys: Key[];
  field: string;
  value: string;
}

const isRecord = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);
const fieldKey = (key: Key): string =>
  typeof key === 'number' ? `[${key}]` : /^[A-Za-z_$][\w$-]*$/.test(key) ? `.${key}` : `[${escapeInvisible(JSON.stringify(key))}]`;

// JSON Schema keywords whose values are schemas (or maps / lists of schemas).
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_ONE = ['items', 'additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else'];
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items'];
/** Guards against in-memory cycles (JSON has none) and absurd schemas. */
const MAX_SCHEMA_NODES = 100_000;

/** Every `description` and `title` string in a schema, breadth first, without recursion. */
export function schemaSlots(schema: unknown, keys: Key[], field: string, out: Slot[]): void {
  // Each node links to its parent instead of carrying its whole path: paths are built only for
  // the strings found, so a 20000-level chain costs linear time, not quadratic.
  interface Entry {
    node: unknown;
    parent: number;
    key: Key;
  }
  const queue: Entry[] = [{ node: schema, parent: -1, key: '' }];
  const pathOf = (i: number): Key[] => {
    const path: Key[] = [];
    for (let at = i; at > 0; at = queue[at]!.parent) path.push(queue[at]!.key);
    return [...keys, ...path.reverse()];
  };
  for (let i = 0; i < queue.length && i < MAX_SCHEMA_NODES; i++) {
    const node = queue[i]!.node;
    if (!isRecord(node)) continue;
    for (const k of ['description', 'title']) {
      if (typeof node[k] !== 'string') continue;
      const path = [...pathOf(i), k];
      out.push({ keys: path, field: field + path.slice(keys.length).map(fieldKey).join(''), value: node[k] });
    }
    const add = (child: unknown, key: Key) => queue.push({ node: child, parent: i, key });
    // A keyword's value that holds several schemas becomes a pseudo-node, so paths keep every key.
    const group = (k: string): number => (queue.push({ node: undefined, parent: i, key: k }), queue.length - 1);
    for (const k of SCHEMA_MAPS) {
      if (!isRecord(node[k])) continue;
      const g = group(k);
      for (const [name, child] of Object.entries(node[k])) queue.push({ node: child, parent: g, key: name });
    }
    for (const k of SCHEMA_ONE) if (isRecord(node[k])) add(node[k], k);
    for (const k of SCHEMA_LISTS) {
      if (!Array.isArray(node[k])) continue;
      const g = group(k);
      node[k].forEach((child: unknown, j: number) => queue.push({ node: child, parent: g, key: j }));
    }
  }
}

/** Copy-on-write: a copy of `root` with each slot's new value, sharing every untouched branch. */
export function applyChanges<T extends Record<string, any>>(root: T, changes: { keys: Key[]; value: string }[]): T {
  if (changes.length === 0) return root;
  const copy: Record<string, any> = { ...root };
  const copies = new Set<object>([copy]);
  // defineProperty, not assignment: a key such as "__proto__" must stay a plain property.
  const set = (obj: any, key: Key, value: unknown) =>
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  for (const { keys, value } of changes) {
    let parent = copy;
    for (let i = 0; i < keys.length - 1; i++) {
      let child = parent[keys[i]!];
      if (!copies.has(child)) {
        // (An object shared by two paths gets one copy per path: each path is patched in full.)
        child = Array.isArray(child) ? child.slice() : { ...child };
        set(parent, keys[i]!, child);
        copies.add(child);
      }
      parent = child;
    }
    set(parent, keys[keys.length - 1]!, value);
  }
  return copy as T;
}

/** "inputSchema.properties.path.description", "arguments[0].title". */
export const slotField = (keys: readonly Key[]): string => keys.map(fieldKey).join('').replace(/^\./, '');
