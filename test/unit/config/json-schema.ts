// Reads the published JSON Schema (what editors show) the way the config tests need it: every
// property with its dotted path, and the node at a path.

import { renderJsonSchema } from '../../../src/config/schema.js';

export type JsonSchema = {
  properties?: Record<string, JsonSchema>;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  type?: string;
  minimum?: number;
  maximum?: number;
  [k: string]: unknown;
};

/** Every [property path, schema] pair in a JSON Schema, however deeply nested (`.servers.reconnect.maxDelay`). */
export function properties(node: unknown, path = ''): [string, JsonSchema][] {
  if (node === null || typeof node !== 'object') return [];
  const out: [string, JsonSchema][] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value && typeof value === 'object') {
      for (const [name, child] of Object.entries(value as Record<string, JsonSchema>)) {
        out.push([`${path}.${name}`, child], ...properties(child, `${path}.${name}`));
      }
    } else out.push(...properties(value, path));
  }
  return out;
}

export const jsonSchema = JSON.parse(renderJsonSchema()) as JsonSchema;

/** The property at a dotted path; `servers` entries come before `mcpServers` ones. */
export const propertyAt: ReadonlyMap<string, JsonSchema> = new Map(properties(jsonSchema).reverse());
