// Keeps a refetched list's unchanged items the same objects they were: an item equal (as JSON) to
// the previous fetch's item of the same name is replaced by that item. What the catalog derives
// from an item (sanitized copy, pins, exposed entry, digest, tokens, search terms) is cached by the
// item's identity, so a refetch costs in proportion to what changed. Pure.

import type { JsonObject } from '../protocol/json.js';

/** Whether two parsed JSON values are equal (key order ignored; stops at the first difference). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(b, k) || !jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** Looks up the previous fetch's items by name; built on first use. */
export class Interner {
  private byName?: Map<unknown, JsonObject>;

  constructor(
    private readonly previous: readonly JsonObject[] | undefined,
    private readonly nameField: string,
  ) {}

  /** `item`, or the previous item of its name when they are equal. */
  intern(item: JsonObject): JsonObject {
    if (!this.previous || this.previous.length === 0) return item;
    if (!this.byName) {
      this.byName = new Map();
      for (const p of this.previous) if (!this.byName.has(p[this.nameField])) this.byName.set(p[this.nameField], p);
    }
    const old = this.byName.get(item[this.nameField]);
    return old !== undefined && jsonEqual(item, old) ? old : item;
  }
}
