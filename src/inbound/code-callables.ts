// What a view's client may call from a code-mode script: its model-visible tools as the sandbox's
// callables (server = the configured server's name, tool = the server's own tool name), their
// JS-safe names and TypeScript declarations. Computed once per view's tool list; loaded only when
// code mode is configured (it brings codemode's declarations, never its engine).

import type { CatalogEntry } from '../catalog/build.js';
import type { CodeDeclarations } from '../catalog/code-tool.js';
import { codeCallables } from '../catalog/tool-exposure.js';
import { declareTool, declareTools } from '../codemode/bindings.js';
import type { Callable } from '../codemode/host-ops.js';
import { asSchema } from '../codemode/schema.js';
import { bindingNames, type BindingNames, type NamedCallable } from '../codemode/names.js';

/** A callable with the view's entry it came from (its exposed name, for tools/call). */
export interface EntryCallable extends Callable {
  entry: CatalogEntry;
}

export interface ViewCallables {
  callables: EntryCallable[];
  names: BindingNames<EntryCallable>;
}

const byList = new WeakMap<readonly CatalogEntry[], ViewCallables>();

function callableOf(entry: CatalogEntry): EntryCallable {
  const item = entry.item;
  const c: EntryCallable = { server: entry.server, tool: entry.original, entry };
  if (typeof item.description === 'string') c.description = item.description;
  // Once per view's tool list, not per call: a schema that is not one (JSON Schema is an object
  // or a boolean) is left out, as a missing one is.
  const input = asSchema(item.inputSchema);
  if (input !== undefined) c.inputSchema = input;
  const output = asSchema(item.outputSchema);
  if (output !== undefined) c.outputSchema = output;
  return c;
}

/** The callables of a view's tool list (its entries array), and their names in scripts. */
export function viewCallables(tools: readonly CatalogEntry[]): ViewCallables {
  let v = byList.get(tools);
  if (v === undefined) {
    const callables = codeCallables(tools).map(callableOf);
    byList.set(tools, (v = { callables, names: bindingNames(callables) }));
  }
  return v;
}

const declared = new WeakMap<readonly CatalogEntry[], CodeDeclarations>();

/** The declarations of every tool of a tool list a script may call (catalog/code-tool.ts CodeDeclarer). */
export function declareCallables(tools: readonly CatalogEntry[]): CodeDeclarations {
  let d = declared.get(tools);
  if (d === undefined) {
    const { text, tokens } = declareTools(viewCallables(tools).callables);
    declared.set(tools, (d = { text, tokens }));
  }
  return d;
}

/**
 * One tool's TypeScript signature as a script calls it: `tools.<server>.<tool>(args): Promise<…>`,
 * with the JSDoc of its arguments (its description travels beside it).
 */
export function signatureOf(n: NamedCallable<Callable>): string {
  const text = declareTool(n);
  // The leading JSDoc is the description again; the method name becomes the path a script writes.
  const body = text.replace(/^\/\*\*[\s\S]*?\*\/\n/, '');
  return body.startsWith(`${n.toolName}(`) ? n.path + body.slice(n.toolName.length) : body;
}
