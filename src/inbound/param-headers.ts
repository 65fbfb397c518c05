// Mcp-Param-* headers (2026-07-28, Streamable HTTP): a tool's inputSchema may mark properties with
// `x-mcp-header: "Name"`, and a client then mirrors each such argument into `Mcp-Param-Name` so
// intermediaries can route without parsing the body. A server must refuse a request whose
// headers and body disagree (400 + -32020). Pure functions; the annotated paths of a schema are
// computed once per schema object.

import { type JsonObject, isJsonObject, valueAt } from '../protocol/json.js';
import { decodeHeaderValue } from './http-stateless.js';

type Headers = Readonly<Record<string, string | string[] | undefined>>;
interface Mirrored {
  path: string[];
  header: string;
}

const cache = new WeakMap<object, Mirrored[]>();

/** The properties of `schema` mirrored into headers, found through `properties` chains only. */
export function mirroredParams(schema: unknown): Mirrored[] {
  if (schema === null || typeof schema !== 'object') return [];
  let found = cache.get(schema);
  if (found === undefined) {
    found = [];
    walk(schema as JsonObject, [], found, 0);
    cache.set(schema, found);
  }
  return found;
}

function walk(schema: JsonObject, path: string[], out: Mirrored[], depth: number): void {
  const props = schema.properties;
  if (depth > 32 || props === null || typeof props !== 'object') return;
  for (const [name, def] of Object.entries(props)) {
    // An array has neither `x-mcp-header` nor `properties`: skipping it finds what walking it did.
    if (!isJsonObject(def)) continue;
    const header = def['x-mcp-header'];
    if (typeof header === 'string') out.push({ path: [...path, name], header: `mcp-param-${header.toLowerCase()}` });
    walk(def, [...path, name], out, depth + 1);
  }
}

/** Why the headers disagree with the arguments, or undefined when they agree. */
export function paramHeaderProblem(schema: unknown, args: unknown, headers: Headers): string | undefined {
  for (const { path, header } of mirroredParams(schema)) {
    const body = valueAt(args, ...path);
    const raw = headers[header];
    const name = `Mcp-Param-${header.slice('mcp-param-'.length)}`;
    const present = body !== undefined && body !== null;
    if (raw === undefined) {
      if (present) return `the ${name} header is missing (arguments.${path.join('.')} is set)`;
      continue;
    }
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) return `the ${name} header is not a valid value`;
    if (!present) return `the ${name} header is set but arguments.${path.join('.')} is not`;
    if (!sameValue(body, decoded)) return `the ${name} header does not match arguments.${path.join('.')}`;
  }
  return undefined;
}

function sameValue(body: unknown, header: string): boolean {
  if (typeof body === 'string') return body === header;
  if (typeof body === 'boolean') return header === String(body);
  if (typeof body === 'number') return header.trim() !== '' && Number(header) === body;
  return false;
}
