// The request headers of Streamable HTTP 2026-07-28 that mirror parts of the body: Mcp-Method,
// Mcp-Name, and Mcp-Param-<Name> for tool parameters annotated `x-mcp-header`. Pure. Invariant:
// every value this module returns is a safe header value (visible ASCII and inner spaces only);
// anything else travels in the spec's `=?base64?…?=` form, so no body text can inject a header.

import type { JsonObject } from '../protocol/json.js';

/** One annotated tool parameter: the header it goes in and where its value is in `arguments`. */
export interface ParamHeader {
  /** The name after `Mcp-Param-`, as the server wrote it. */
  readonly name: string;
  /** The chain of `properties` keys from the schema root to the parameter. */
  readonly path: readonly string[];
}

export type ToolHeaders = { ok: true; params: ParamHeader[] } | { ok: false; problem: string };

/** RFC 9110 `token` (1*tchar): what a header field name may be made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Printable ASCII and space, without a leading or trailing space: sent as it is. */
const PLAIN = /^(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?$/;
const SENTINEL = /^=\?base64\?.*\?=$/s;
const PRIMITIVE = new Set(['string', 'integer', 'boolean']);
/** Keywords whose values are data, not schemas: an `x-mcp-header` key inside them annotates nothing. */
const DATA_KEYWORDS = new Set(['const', 'default', 'enum', 'examples']);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = new Set(['$defs', 'definitions', 'patternProperties', 'dependentSchemas']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A header value for `value`: as it is when it is plain printable ASCII, else (non-ASCII, control
 * characters, leading or trailing whitespace, or a text that looks like the sentinel itself) the
 * Base64 of its UTF-8 bytes inside `=?base64?…?=`.
 */
export function encodeHeaderValue(value: string): string {
  if (PLAIN.test(value) && !SENTINEL.test(value)) return value;
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** Whether the parameter's declared type is one a header may carry (integer, string, boolean; not number). */
function primitiveType(type: unknown): boolean {
  if (typeof type === 'string') return PRIMITIVE.has(type);
  if (!Array.isArray(type) || type.length === 0) return false;
  return type.some((t) => PRIMITIVE.has(t)) && type.every((t) => PRIMITIVE.has(t) || t === 'null');
}

/**
 * The parameters of a tool's inputSchema annotated `x-mcp-header`, or why the tool is invalid
 * (an annotation that is empty, not a token, not unique ignoring case, on a non-primitive
 * parameter, or anywhere but at the end of a chain of `properties` keys from the root).
 */
export function toolParamHeaders(inputSchema: unknown): ToolHeaders {
  const params: ParamHeader[] = [];
  const problems: string[] = [];
  const visit = (node: unknown, path: string[], reachable: boolean, where: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        visit(item, path, false, `${where}[${i}]`);
      });
      return;
    }
    if (!isObject(node)) return;
    if ('x-mcp-header' in node) {
      const name = node['x-mcp-header'];
      const at = path.length > 0 ? `parameter "${path.join('.')}"` : where || 'the schema root';
      if (!reachable || path.length === 0) problems.push(`x-mcp-header at ${at} is not reachable through properties alone`);
      else if (typeof name !== 'string' || name === '') problems.push(`x-mcp-header of ${at} is empty or not a string`);
      else if (!TOKEN.test(name)) problems.push(`x-mcp-header ${JSON.stringify(name)} of ${at} is not an HTTP token`);
      else if (!primitiveType(node.type)) problems.push(`x-mcp-header ${JSON.stringify(name)} is on ${at}, whose type is not integer, string or boolean`);
      else params.push({ name, path: [...path] });
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'x-mcp-header' || DATA_KEYWORDS.has(key) || typeof value !== 'object' || value === null) continue;
      if (key === 'properties' && isObject(value)) {
        for (const [prop, schema] of Object.entries(value)) visit(schema, [...path, prop], reachable, `${where}/properties/${prop}`);
      } else if (SCHEMA_MAPS.has(key) && isObject(value)) {
        for (const [name, schema] of Object.entries(value)) visit(schema, path, false, `${where}/${key}/${name}`);
      } else {
        visit(value, path, false, `${where}/${key}`);
      }
    }
  };
  visit(inputSchema, [], true, '');
  const seen = new Map<string, string>();
  for (const p of params) {
    const key = p.name.toLowerCase();
    const other = seen.get(key);
    if (other !== undefined) problems.push(`x-mcp-header ${JSON.stringify(p.name)} is used twice (with ${JSON.stringify(other)}; names are compared ignoring case)`);
    seen.set(key, p.name);
  }
  return problems.length > 0 ? { ok: false, problem: problems[0]! } : { ok: true, params };
}

/** The text of one argument value for its header, or undefined to omit the header. */
function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return encodeHeaderValue(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  // Integers only, within the range every JSON reader keeps exact (the spec's rule).
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** `mcp-param-<name>` headers for a call's arguments; a parameter without a value gets none. */
export function paramHeaderValues(params: readonly ParamHeader[], args: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of params) {
    let value: unknown = args;
    for (const key of p.path) value = isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
    const text = headerText(value);
    if (text !== undefined) out[`mcp-param-${p.name.toLowerCase()}`] = text;
  }
  return out;
}

/** Where Mcp-Name comes from, per method. */
const NAME_SOURCE: Readonly<Record<string, 'name' | 'uri'>> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

/** `mcp-method`, and `mcp-name` for the methods that name their target. */
export function standardHeaders(method: string, params: JsonObject | undefined): Record<string, string> {
  const out: Record<string, string> = { 'mcp-method': encodeHeaderValue(method) };
  const source = NAME_SOURCE[method];
  const name = source === undefined ? undefined : params?.[source];
  if (typeof name === 'string') out['mcp-name'] = encodeHeaderValue(name);
  return out;
}

/**
 * A tools/list as an HTTP client of 2026-07-28 must keep it: the tools whose annotations are
 * valid (the spec: exclude the others), each annotated tool's parameters by name, and what was
 * dropped and why.
 */
export function screenTools(tools: readonly JsonObject[]): {
  kept: JsonObject[];
  headers: Map<string, readonly ParamHeader[]>;
  dropped: Array<{ name: string; problem: string }>;
} {
  const kept: JsonObject[] = [];
  const headers = new Map<string, readonly ParamHeader[]>();
  const dropped: Array<{ name: string; problem: string }> = [];
  for (const tool of tools) {
    const found = toolParamHeaders(tool.inputSchema);
    if (!found.ok) {
      dropped.push({ name: String(tool.name), problem: found.problem });
      continue;
    }
    if (found.params.length > 0 && typeof tool.name === 'string') headers.set(tool.name, found.params);
    kept.push(tool);
  }
  return { kept, headers, dropped };
}
