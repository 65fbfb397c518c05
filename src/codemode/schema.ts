// The JSON Schema shape tools use, read defensively: a server's schema is data from outside, so
// every keyword is checked for its type before use, and $ref is followed only within the schema.

export type JsonSchema = boolean | { [keyword: string]: unknown };
export type SchemaObject = { [keyword: string]: unknown };

export function isSchemaObject(s: unknown): s is SchemaObject {
  return typeof s === 'object' && s !== null && !Array.isArray(s);
}

export function asSchema(s: unknown): JsonSchema | undefined {
  return typeof s === 'boolean' || isSchemaObject(s) ? s : undefined;
}

/** The schemas of a keyword that holds a list of them (anyOf, oneOf, allOf, prefixItems). */
export function schemaList(s: SchemaObject, keyword: string): JsonSchema[] | undefined {
  const v = s[keyword];
  if (!Array.isArray(v) || v.length === 0) return undefined;
  return v.map((x) => asSchema(x) ?? true);
}

/** The schemas of a keyword that maps names to schemas (properties, $defs). */
export function schemaMap(s: SchemaObject, keyword: string): [string, JsonSchema][] {
  const v = s[keyword];
  if (!isSchemaObject(v)) return [];
  return Object.keys(v).map((k) => [k, asSchema(v[k]) ?? true]);
}

export function stringList(s: SchemaObject, keyword: string): string[] {
  const v = s[keyword];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

export function numberOf(s: SchemaObject, keyword: string): number | undefined {
  const v = s[keyword];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** The declared types: `type: "x"` or `type: ["x", "y"]`; undefined when not said. */
export function typesOf(s: SchemaObject): string[] | undefined {
  const t = s.type;
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) {
    const list = t.filter((x): x is string => typeof x === 'string');
    return list.length > 0 ? list : undefined;
  }
  return undefined;
}

/**
 * Resolves a local $ref ("#", "#/$defs/x", "#/definitions/x", any JSON pointer into the root).
 * Remote references resolve to nothing: the gateway fetches no schema from anywhere.
 */
export function resolveRef(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodePointer(raw);
    if (!isSchemaObject(node) && !Array.isArray(node)) return undefined;
    if (!Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return asSchema(node);
}

function decodePointer(segment: string): string {
  let s = segment;
  try {
    s = decodeURIComponent(segment);
  } catch {
    // not percent-encoded after all: use as it is
  }
  return s.replace(/~1/g, '/').replace(/~0/g, '~');
}
