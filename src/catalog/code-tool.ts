// run_code's definition in code mode: what a model reads before it writes a script. It carries the
// TypeScript declarations of every tool the client may call while they fit the profile's
// codeBudget (else it tells the model to search first), and the run's limits. Pure: the
// declarations are made by the app (app/code-declarations.ts) and handed in.

import type { CatalogEntry } from './build.js';
import type { GatewayTool } from '../search/meta-tools.js';

/** TypeScript declarations of a set of tools (codemode/bindings.ts declareTools), as exposure needs them. */
export interface CodeDeclarations {
  text: string;
  /** Estimated tokens of `text`. */
  tokens: number;
}

/** Makes the declarations of the tools a view may call from a script. */
export type CodeDeclarer = (callables: readonly CatalogEntry[]) => CodeDeclarations;

/** The limits a run_code description states (config codeMode, as CodeModeLimits). */
export interface CodeLimitsSummary {
  wallMs: number;
  sliceMs: number;
  memoryBytes: number;
  maxCalls: number;
  maxInFlight: number;
  maxOutputTokens: number;
}

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);
const mib = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MiB`;

export function limitsSentence(l: CodeLimitsSummary): string {
  return (
    `Limits: ${seconds(l.wallMs)} per run, ${mib(l.memoryBytes)} of memory, ${l.maxCalls} tool calls per run (${l.maxInFlight} at once; more wait), ` +
    `at most ${seconds(l.sliceMs)} of computing between two awaits, and the returned value is cut past about ${l.maxOutputTokens} tokens: return only what the task needs.`
  );
}

const GUIDANCE =
  'Run a JavaScript (or TypeScript) script that calls tools, and get back only what it returns. The code is the body of an async function: ' +
  '`await tools.<server>.<tool>(args)` calls a tool and resolves with its structured result (else its text, parsed when it is JSON); ' +
  'a failed call throws an McpError (code, message, data.server) you may catch. `await tools.search(query)` finds tools, `await tools.describe("tools.<server>.<tool>")` gives one tool\'s declaration. ' +
  'Use `return` for the result and console.log for notes (both come back). No require, fetch, process or file system: only `tools`. ' +
  'Chain steps, filter and aggregate inside the script: intermediate results never reach you.';

/**
 * run_code's definition. With `declarations` that fit the budget, the tools are in the description;
 * without, the model is sent to `search` (search_tools, or tools.search inside a script) first.
 */
export function runCodeTool(names: { run: string; search: string }, declarations: CodeDeclarations | undefined, budget: number, limits: CodeLimitsSummary | undefined): GatewayTool {
  let description = GUIDANCE;
  if (limits) description += `\n\n${limitsSentence(limits)}`;
  if (declarations && declarations.tokens <= budget) {
    description += `\n\nThe tools you can call:\n\`\`\`ts\n${declarations.text}\n\`\`\``;
  } else {
    description +=
      `\n\nThe tools are not listed here (too many to show): find them first with ${names.search} (each result carries its TypeScript signature) ` +
      'or, inside the script, with `await tools.search(query)` and `await tools.describe(name)`.';
  }
  return {
    name: names.run,
    title: 'Run code',
    description,
    inputSchema: {
      type: 'object',
      properties: {
        code: { type: 'string', description: 'The body of an async function: await tools.<server>.<tool>(args) calls, then `return` what the task needs.' },
      },
      required: ['code'],
    },
    annotations: { openWorldHint: true },
  };
}
