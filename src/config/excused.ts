// The one way a file whose validation failed still loads: every failing value is that of an unset
// variable in a disabled server, or in a setting only the HTTP face reads when it is not opened
// (load.ts excuses those). The values (an item of a list: the whole
// list) are taken out so that the schema's defaults apply, and put back where the schema has none
// (command, url), so that the entry keeps its kind. The result is what a successful parse returns.

import type { z } from 'zod';
import { errorMap, type Segment } from './problems.js';
import { configSchema, type UserConfig } from './schema.js';
import { isRecord } from './server-entries.js';

/** The mapping that holds the value at `path`, if any. */
function parentOf(tree: unknown, path: readonly Segment[]): Record<string, unknown> | undefined {
  let node = tree;
  for (const seg of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[seg];
  }
  return isRecord(node) ? node : undefined;
}

/** `path` up to its last mapping key: an item of a list (`inheritEnv[0]`) is taken out with its list. */
function toMappingKey(tree: unknown, path: readonly Segment[]): readonly Segment[] {
  for (let n = path.length; n > 0; n--) {
    const sub = path.slice(0, n);
    if (typeof sub.at(-1) === 'string' && parentOf(tree, sub)) return sub;
  }
  return [];
}

/**
 * Parses `tree` without the values at `paths`, then puts back those the schema did not fill in
 * (but where `dropped` says the setting goes: one only the HTTP face reads, when it is not opened).
 */
export function parseWithout(tree: unknown, paths: readonly (readonly Segment[])[], dropped: (path: readonly Segment[]) => boolean = () => false): z.ZodSafeParseResult<UserConfig> {
  const copy = structuredClone(tree);
  const removed: { path: readonly Segment[]; key: string; value: unknown }[] = [];
  for (const path of paths.map((p) => toMappingKey(copy, p))) {
    const key = path.at(-1);
    const parent = parentOf(copy, path);
    if (typeof key !== 'string' || !parent || !Object.hasOwn(parent, key)) continue;
    removed.push({ path, key, value: parent[key] });
    delete parent[key];
  }
  const result = configSchema.safeParse(copy, { error: errorMap, reportInput: false, jitless: true });
  if (result.success) {
    for (const { path, key, value } of removed) {
      const parent = parentOf(result.data, path);
      if (parent && parent[key] === undefined && !dropped(path)) parent[key] = value;
    }
  }
  return result;
}
