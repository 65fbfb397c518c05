// run_code (code mode): runs a client's script in the sandbox (codemode/sandbox.ts), where every
// tool its view may call is `tools.<server>.<tool>` (server: the configured name; tool: the
// server's own). Each nested call is a tools/call of its own (nested-call.ts), and each is audited.
// Loaded on the first run only (with the engine behind it): start-up never pays for either.

import { randomUUID } from 'node:crypto';
import type { CatalogView } from '../../catalog/view.js';
import { GatewayError } from '../../errors.js';
import { formatRunError, runScript, type CallRecord, type LogLine, type RunResult } from '../../codemode/sandbox.js';
import { toolResultValue } from '../../codemode/results.js';
import { signatureOf, viewCallables, type EntryCallable } from '../code-callables.js';
import type { Handler, RequestContext } from '../context.js';
import { NestedCalls } from '../nested-call.js';
import { type JsonObject, valueAt } from '../../protocol/json.js';

/** Hits a script's tools.search(query) gets. */
const SEARCH_LIMIT = 10;

const toolError = (text: string) => ({ content: [{ type: 'text', text }], isError: true });

/** The entry a script's (server, tool) names in a view, if the view still lets the client call it. */
function entryIn(view: CatalogView, server: string, tool: string): EntryCallable | undefined {
  return viewCallables(view.lists.tools.entries).names.get(server, tool)?.entry;
}

export async function runCode(params: JsonObject, context: RequestContext, call: Handler): Promise<JsonObject> {
  const code = valueAt(params.arguments, 'code');
  if (typeof code !== 'string' || code.trim() === '') {
    return toolError('code must be a non-empty string: the body of an async function, e.g. `const r = await tools.<server>.<tool>({...}); return r;`');
  }
  const release = takeRun(context);
  try {
    return await runIn(code, params, context, call);
  } finally {
    release();
  }
}

/** Runs at once, per gateway: with codeMode.memory, what bounds scripts' memory in all. */
const running = new WeakMap<object, { count: number }>();

/** One of the gateway's runs and one of the principal's; refused at once past either (LIMIT_EXCEEDED). */
function takeRun(context: RequestContext): () => void {
  const { maxRuns } = context.gateway.config.codeMode;
  let runs = running.get(context.gateway);
  if (runs === undefined) running.set(context.gateway, (runs = { count: 0 }));
  if (runs.count >= maxRuns) {
    throw new GatewayError('LIMIT_EXCEEDED', `the gateway already runs ${maxRuns} scripts (codeMode.maxRuns)`, { retryAfterMs: 1000, limit: 'gateway', setting: 'codeMode.maxRuns' });
  }
  const share = context.share;
  if (share !== undefined && !share.takeRun()) {
    throw new GatewayError('LIMIT_EXCEEDED', `this client already runs ${share.runLimit} scripts (codeMode.maxRunsPerPrincipal)`, {
      retryAfterMs: 1000,
      limit: 'principal',
      setting: 'codeMode.maxRunsPerPrincipal',
    });
  }
  runs.count++;
  return () => {
    runs.count--;
    share?.giveRun();
  };
}

async function runIn(code: string, params: JsonObject, context: RequestContext, call: Handler): Promise<JsonObject> {
  const { gateway, session } = context;
  const { callables } = viewCallables(context.view.lists.tools.entries);
  const nested = new NestedCalls(context, call, params._meta);
  const abort = new AbortController();
  const offCancel = context.cancellation.onCancel(() => abort.abort());
  const started = performance.now();
  let result: RunResult;
  try {
    result = await runScript(code, {
      limits: gateway.config.codeMode,
      signal: abort.signal,
      bindings: {
        callables,
        async call(server, tool, args, { signal }) {
          const entry = entryIn(session.view, server, tool);
          if (entry === undefined) throw Object.assign(new Error(`Unknown tool: ${server}.${tool} is no longer callable by this client`), { code: -32602 });
          return toolResultValue(await nested.tool(entry.entry.key, args, signal, { server, tool }), { server, tool });
        },
        async search(query) {
          const view = session.view;
          const { names } = viewCallables(view.lists.tools.entries);
          const found = await context.finder.find(view, query, { limit: SEARCH_LIMIT });
          return found.flatMap(({ entry }) => {
            const n = names.get(entry.server, entry.original);
            if (n === undefined) return [];
            const item = entry.item;
            return [{ server: entry.server, tool: entry.original, name: entry.key, ...(typeof item.description === 'string' ? { description: item.description } : {}), signature: signatureOf(n) }];
          });
        },
        async describe(server, tool) {
          const entry = entryIn(session.view, server, tool)?.entry;
          if (entry === undefined) return undefined;
          return { name: entry.key, ...(entry.item.title !== undefined ? { title: entry.item.title } : {}), ...(entry.item.annotations !== undefined ? { annotations: entry.item.annotations } : {}) };
        },
      },
    });
  } finally {
    offCancel();
  }
  audit(context, result);
  gateway.logger.debug({ session: session.id, ok: result.ok, kind: result.ok ? undefined : result.error.kind, calls: result.stats.calls, ms: Math.round(performance.now() - started) }, 'run_code');
  return answer(result);
}

/** A console line as the client reads it: its level shown unless it is a plain log. */
function lineText(l: LogLine): string {
  return l.level === 'log' ? l.text : `[${l.level}] ${l.text}`;
}

/** The run as run_code's result: JSON of the value (cut with a note past maxOutputTokens) and the console lines. */
export function answer(result: RunResult): JsonObject {
  const logs = result.logs.map(lineText);
  const consoleText = logs.length === 0 ? '' : `\n\nConsole:\n${logs.join('\n')}`;
  const calls = result.stats.calls;
  if (!result.ok) {
    const e = result.error;
    const error: Record<string, unknown> = { kind: e.kind, message: e.message };
    for (const k of ['line', 'name', 'code', 'data'] as const) if (e[k] !== undefined) error[k] = e[k];
    return { content: [{ type: 'text', text: `The script failed (${e.kind}): ${formatRunError(e)}${consoleText}` }], structuredContent: { error, logs, calls }, isError: true };
  }
  // A cut value is only its text: the whole of it would cost the model what the limit is there to spare.
  const structured = result.truncated ? { result: result.json, truncated: true, logs, calls } : { result: result.value ?? null, logs, calls };
  return { content: [{ type: 'text', text: result.json + consoleText }], structuredContent: structured };
}

/** Every nested tool call of the run in the audit log: what a script did on the client's behalf. */
function audit(context: RequestContext, result: RunResult): void {
  // The run's own id: request ids repeat (a stateless session serves many clients), and the log
  // keeps one copy of identical entries.
  const who = `run_code ${randomUUID().slice(0, 8)} (request ${String(context.requestId)}, session ${context.session.id}${context.session.profile ? `, client ${context.session.profile.name}` : ''})`;
  result.calls.forEach((c: CallRecord, i) => {
    if (c.kind !== 'tool' || c.server === undefined || c.tool === undefined) return;
    const why = `${who}, call ${i + 1}${c.error ? `: ${c.error.code} ${c.error.message.slice(0, 300)}` : ''}`;
    context.gateway.audit.record({ server: c.server, kind: 'code', item: c.tool, change: c.ok ? 'called' : 'failed', why });
  });
}
