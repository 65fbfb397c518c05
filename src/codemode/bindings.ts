// TypeScript declarations of the tools a run may call, from their JSON Schemas: what the model
// reads to write `await tools.<server>.<tool>(args)`. Deterministic (same tools → same text),
// bounded per tool (detail is shed level by level until it fits), and always valid TypeScript.

import { estimateTokens } from '../search/tokens.js';
import type { Callable } from './host-ops.js';
import { type NamedCallable, bindingNames } from './names.js';
import { type JsonSchema, type SchemaObject, isSchemaObject, numberOf, resolveRef, schemaList, schemaMap, stringList, typesOf } from './schema.js';

export interface DeclarationOptions {
  /** Characters one tool's declaration may take before detail is shed (default 3,000). */
  maxCharsPerTool?: number;
}

export interface Declarations {
  /** One `declare const tools: {…}` block, servers and tools sorted by name. */
  text: string;
  /** Estimated tokens of `text` (search/tokens.ts): for deciding whether it fits a budget. */
  tokens: number;
  tools: { path: string; chars: number; tokens: number }[];
}

/** How much of the schema a declaration shows: 0 is all of it, 3 almost nothing. */
type Detail = 0 | 1 | 2 | 3;

interface Ctx {
  root: JsonSchema;
  detail: Detail;
  /** $refs being expanded, innermost last: a ref met again is a cycle. */
  refs: string[];
}

const MAX_TYPE_DEPTH = 8;
const MAX_DESCRIPTION = 400;
const MAX_PROPERTY_DESCRIPTION = 200;

export function declareTools(callables: readonly Callable[], options: DeclarationOptions = {}): Declarations {
  const names = bindingNames(callables);
  const servers = new Map<string, NamedCallable<Callable>[]>();
  for (const n of names.list) servers.set(n.serverName, [...(servers.get(n.serverName) ?? []), n]);
  const tools: Declarations['tools'] = [];
  const lines = ['declare const tools: {'];
  for (const [serverName, list] of [...servers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const original = list[0]!.entry.server;
    lines.push(jsdoc([`Server ${JSON.stringify(original)}${original === serverName ? '' : ` (also tools[${JSON.stringify(original)}])`}.`], '  ').trimEnd());
    lines.push(`  ${serverName}: {`);
    for (const n of list) {
      const decl = declareTool(n, options);
      tools.push({ path: n.path, chars: decl.length, tokens: estimateTokens(decl) });
      lines.push(indent(decl, '    '));
    }
    lines.push('  };');
  }
  lines.push('  /** Finds tools by what they do; each hit says how to call it (`call`). */');
  lines.push('  search(query: string): Promise<{ server: string; tool: string; call: string; [key: string]: unknown }[]>;');
  lines.push('  /** The declaration, description and schemas of one tool: describe("tools.server.tool"). */');
  lines.push('  describe(name: string): Promise<{ call: string; declaration: string; description?: string; inputSchema?: unknown; outputSchema?: unknown }>;');
  lines.push('};');
  const text = lines.join('\n');
  return { text, tokens: estimateTokens(text), tools };
}

/** One tool as a method signature with its JSDoc, shedding detail until it fits the budget. */
export function declareTool(n: NamedCallable<Callable>, options: DeclarationOptions = {}): string {
  const max = options.maxCharsPerTool ?? 3_000;
  let text = '';
  for (const detail of [0, 1, 2, 3] as Detail[]) {
    text = renderTool(n, detail);
    if (text.length <= max) return text;
  }
  return text;
}

function renderTool(n: NamedCallable<Callable>, detail: Detail): string {
  const { entry } = n;
  const doc: string[] = [];
  if (entry.description) doc.push(clip(entry.description, detail >= 2 ? 120 : MAX_DESCRIPTION));
  if (n.toolName !== entry.tool) doc.push(`Tool ${JSON.stringify(entry.tool)}.`);
  if (detail === 3) doc.push(`Full schema: tools.describe(${JSON.stringify(n.path)}).`);
  const input = entry.inputSchema ?? { type: 'object' };
  const args = detail === 3 ? shallowArgs(input) : typeOf(input, { root: input, detail, refs: [] }, 0, '');
  const output = entry.outputSchema === undefined || detail === 3 ? 'unknown' : typeOf(entry.outputSchema, { root: entry.outputSchema, detail: Math.max(detail, 1) as Detail, refs: [] }, 0, '');
  const optional = !hasRequired(input) ? '?' : '';
  return `${jsdoc(doc, '')}${n.toolName}(args${optional}: ${args}): Promise<${output}>;`;
}

/** Only the top-level property names, for a tool whose full type is too large to show. */
function shallowArgs(schema: JsonSchema): string {
  if (!isSchemaObject(schema)) return 'Record<string, unknown>';
  const required = new Set(stringList(schema, 'required'));
  const props = schemaMap(schema, 'properties');
  if (props.length === 0) return 'Record<string, unknown>';
  return `{ ${props.map(([k]) => `${key(k)}${required.has(k) ? '' : '?'}: unknown;`).join(' ')} }`;
}

function hasRequired(schema: JsonSchema): boolean {
  return isSchemaObject(schema) && stringList(schema, 'required').length > 0;
}

/** The TypeScript type of a schema. `pad` is the indentation of the line the type starts on. */
function typeOf(schema: JsonSchema, ctx: Ctx, depth: number, pad: string): string {
  if (schema === true) return 'unknown';
  if (schema === false) return 'never';
  if (depth > MAX_TYPE_DEPTH || (ctx.detail >= 2 && depth > 2)) return 'unknown';
  const s = schema;
  if (typeof s.$ref === 'string') {
    if (ctx.refs.includes(s.$ref)) return 'unknown'; // a cycle: the model reads it in the schema
    const target = resolveRef(ctx.root, s.$ref);
    if (target === undefined) return 'unknown';
    ctx.refs.push(s.$ref);
    try {
      return typeOf(target, ctx, depth + 1, pad);
    } finally {
      ctx.refs.pop();
    }
  }
  if ('const' in s) return literal(s.const);
  if (Array.isArray(s.enum) && s.enum.length > 0) return union(s.enum.map(literal));
  const alternatives = schemaList(s, 'anyOf') ?? schemaList(s, 'oneOf');
  if (alternatives) return union(alternatives.map((a) => typeOf(a, ctx, depth + 1, pad)));
  const all = schemaList(s, 'allOf');
  if (all) return all.map((a) => wrap(typeOf(a, ctx, depth + 1, pad))).join(' & ');
  const types = typesOf(s) ?? (schemaMap(s, 'properties').length > 0 || isSchemaObject(s.additionalProperties) ? ['object'] : s.items !== undefined ? ['array'] : undefined);
  if (!types) return 'unknown';
  return union(types.map((t) => typeForType(t, s, ctx, depth, pad)));
}

function typeForType(t: string, s: SchemaObject, ctx: Ctx, depth: number, pad: string): string {
  switch (t) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const prefix = schemaList(s, 'prefixItems') ?? (Array.isArray(s.items) ? schemaList(s, 'items') : undefined);
      if (prefix) return `[${prefix.map((p) => typeOf(p, ctx, depth + 1, pad)).join(', ')}]`;
      const items = s.items;
      return typeof items === 'boolean' || isSchemaObject(items) ? `${wrap(typeOf(items, ctx, depth + 1, pad))}[]` : 'unknown[]';
    }
    case 'object':
      return objectType(s, ctx, depth, pad);
    default:
      return 'unknown';
  }
}

function objectType(s: SchemaObject, ctx: Ctx, depth: number, pad: string): string {
  const props = schemaMap(s, 'properties');
  const extra = s.additionalProperties;
  const extraType = typeof extra === 'boolean' || isSchemaObject(extra) ? typeOf(extra, ctx, depth + 1, pad) : undefined;
  if (props.length === 0) return extra === false ? 'Record<string, never>' : `Record<string, ${extraType ?? 'unknown'}>`;
  const required = new Set(stringList(s, 'required'));
  const inner = `${pad}  `;
  const lines = props.map(([name, sub]) => {
    const doc = ctx.detail === 0 || (ctx.detail === 1 && depth === 0) ? propertyDoc(sub) : [];
    return `${jsdoc(doc, inner)}${inner}${key(name)}${required.has(name) ? '' : '?'}: ${typeOf(sub, ctx, depth + 1, inner)};`;
  });
  // A schema for extra keys: shown as unknown beside named ones, so the type stays valid TypeScript.
  if (extraType !== undefined && extra !== false) lines.push(`${inner}[key: string]: unknown;`);
  return `{\n${lines.join('\n')}\n${pad}}`;
}

/** A property's description and the constraints a model gets wrong without being told. */
function propertyDoc(sub: JsonSchema): string[] {
  if (!isSchemaObject(sub)) return [];
  const parts: string[] = [];
  if (typeof sub.description === 'string' && sub.description.trim()) parts.push(clip(sub.description, MAX_PROPERTY_DESCRIPTION));
  const facts: string[] = [];
  if (typeof sub.format === 'string') facts.push(`format: ${sub.format}`);
  for (const [k, label] of [
    ['minimum', 'min'],
    ['maximum', 'max'],
    ['minLength', 'min length'],
    ['maxLength', 'max length'],
    ['minItems', 'min items'],
    ['maxItems', 'max items'],
  ] as const) {
    const v = numberOf(sub, k);
    if (v !== undefined) facts.push(`${label} ${v}`);
  }
  if (typeof sub.pattern === 'string' && sub.pattern.length <= 80) facts.push(`pattern ${sub.pattern}`);
  if ('default' in sub) facts.push(`default ${clip(JSON.stringify(sub.default) ?? 'null', 60)}`);
  if (facts.length > 0) parts.push(`(${facts.join(', ')})`);
  return parts.length > 0 ? [parts.join(' ')] : [];
}

function jsdoc(lines: string[], pad: string): string {
  const text = lines.map(safeComment).filter((l) => l.length > 0);
  if (text.length === 0) return '';
  const body = text.join('\n').split('\n');
  if (body.length === 1) return `${pad}/** ${body[0]} */\n`;
  return `${pad}/**\n${body.map((l) => `${pad} * ${l}`).join('\n')}\n${pad} */\n`;
}

/** Text from a server may not close the comment, nor bring control characters along. */
function safeComment(text: string): string {
  return text
    .replace(/\*\//g, '*\u2215')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029]/g, ' ')
    .replace(/[ \t]+\n/g, '\n')
    .trim();
}

function clip(text: string, max: number): string {
  const t = text.trim();
  return t.length <= max ? t : `${t.slice(0, max - 1).trimEnd()}…`;
}

function key(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

function literal(v: unknown): string {
  if (typeof v === 'string' || typeof v === 'boolean' || v === null) return JSON.stringify(v);
  if (typeof v === 'number' && Number.isFinite(v)) return v < 0 ? `(${v})` : String(v);
  return 'unknown';
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  if (unique.includes('unknown')) return 'unknown';
  return unique.length === 1 ? unique[0]! : unique.map(wrap).join(' | ');
}

/** Parenthesises a union or intersection where precedence needs it (T[] and A & B). */
function wrap(t: string): string {
  return topLevelOperator(t) ? `(${t})` : t;
}

/** Whether `|` or `&` occurs outside brackets, string literals and comments. */
function topLevelOperator(t: string): boolean {
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === '"') {
      for (i++; i < t.length && t[i] !== '"'; i++) if (t[i] === '\\') i++;
    } else if (c === '/' && t[i + 1] === '*') {
      const end = t.indexOf('*/', i + 2);
      i = end < 0 ? t.length : end + 1;
    } else if (c === '{' || c === '[' || c === '(' || c === '<') depth++;
    else if (c === '}' || c === ']' || c === ')' || c === '>') depth--;
    else if (depth === 0 && (c === '|' || c === '&')) return true;
  }
  return false;
}

function indent(text: string, pad: string): string {
  return text
    .split('\n')
    .map((l) => (l.length > 0 ? pad + l : l))
    .join('\n');
}
