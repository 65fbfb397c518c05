// Looks up what the config schema says about a place in the file, for the loader's messages and
// its coercion of substituted text. Walks the input side: defaults, pipes and transforms are
// looked through to the schema that judges what the user wrote.

import type { z } from 'zod';
import { configSchema } from './schema.js';

type Segment = string | number;
type AnySchema = z.core.$ZodType;
type Def = Record<string, unknown>;

const defOf = (s: AnySchema): Def => s._zod.def as unknown as Def;

/** The schemas that may describe the value at `path` (several where a union allows several). */
export function schemasAt(path: readonly Segment[], root: AnySchema = configSchema): AnySchema[] {
  let current: AnySchema[] = [root];
  for (const seg of path) {
    const next: AnySchema[] = [];
    for (const s of current.flatMap(expand)) {
      const def = defOf(s);
      if (def.type === 'object' && typeof seg === 'string') {
        const child = (def.shape as Record<string, AnySchema>)[seg];
        if (child) next.push(child);
      } else if (def.type === 'array' && typeof seg === 'number') next.push(def.element as AnySchema);
      else if (def.type === 'record' && typeof seg === 'string') next.push(def.valueType as AnySchema);
    }
    current = next;
  }
  return current.flatMap(expand);
}

/** Unwraps optional/nullable/defaults, follows a pipe to the schema that reads the input, spreads unions. */
function expand(s: AnySchema): AnySchema[] {
  const def = defOf(s);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
      return expand(def.innerType as AnySchema);
    case 'pipe': {
      // A preprocess step (a transform first) hands the input on to `out` unchanged in kind.
      const first = def.in as AnySchema;
      return expand(defOf(first).type === 'transform' ? (def.out as AnySchema) : first);
    }
    case 'union':
      return (def.options as AnySchema[]).flatMap(expand);
    default:
      return [s];
  }
}

/** The keys an object at `path` may have (for "did you mean" hints). */
export function knownKeysAt(path: readonly Segment[]): string[] {
  return schemasAt(path).flatMap((s) => {
    const def = defOf(s);
    return def.type === 'object' ? Object.keys(def.shape as object) : [];
  });
}

/** Whether the value at `path` may be a number / a boolean (to coerce substituted text). */
export function scalarKindsAt(path: readonly Segment[]): { number: boolean; boolean: boolean } {
  const types = new Set(schemasAt(path).map((s) => s._zod.def.type));
  return { number: types.has('number'), boolean: types.has('boolean') };
}
