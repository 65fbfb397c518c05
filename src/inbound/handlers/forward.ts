// Requests that reach one server: tools/call, prompts/get, resources/read, completion/complete.
// Each looks the exposed name up in the snapshot (a Map, never a string split), swaps in the
// server's own name, forwards, and relays the server's answer as it is. Unknown and
// policy-denied names get the same error, so a denied item is invisible.

import { GatewayError, RefusalError, RpcError } from '../../errors.js';
import { paramHeaderProblem } from '../param-headers.js';
import { taskOnlyCall } from './stateless-tasks.js';
import { ErrorCode } from '../../protocol/jsonrpc.js';
import type { PeerAnswer } from '../../jsonrpc/peer.js';
import { isRawResponse, mayNameUri, parseRawResponse } from '../../jsonrpc/raw.js';
import { callNamedTool, listServers, searchTools } from './search-tools.js';
import type { CatalogList } from '../../catalog/build.js';
import type { ResourceTarget } from '../../catalog/resource-uris.js';
import type { Connection } from '../../router/session.js';
import { forwardAcrossEras } from './era-bridge.js';
import { perUserOf } from '../../router/per-user-config.js';
import { unwrap } from '../../jsonrpc/answer.js';
import type { Handler, RequestContext } from '../context.js';
import { sanitizePromptResult, sanitizeResult, type Finding, type SanitizeAction } from '../../catalog/sanitize.js';
import { renameInPrompt, renameInRead, renameInToolResult } from '../../catalog/result-uris.js';
import { judgePromptResult, judgeReadResult, judgeToolResult, uriJudge } from '../../catalog/relayed-uris.js';
import { appReadTargets, noteAppRead, readSanitizer, toolForCall } from './app-routing.js';
import { type JsonObject, isJsonObject } from '../../protocol/json.js';
import { isSkillFile } from '../../catalog/skills.js';
import { refuseHeldSkillRead } from './skills.js';

type ForwardOptions = NonNullable<Parameters<Connection['forward']>[2]>;

/** A request may run this many times its server's timeout in all, however much progress it reports. */
const MAX_TOTAL_TIMEOUT_FACTOR = 10;

/** The connection serving this session for `server` (its own one under per-session isolation). */
export async function connectionFor(context: RequestContext, server: string): Promise<Connection> {
  return context.connections.for(server, context);
}

/**
 * Forwards with the server's timeout, the client's cancellation and progress, and the caller as
 * owner. With `raw`, the answer may come back as text (RawResponse) to be passed on unparsed.
 */
export function forwardOn(connection: Connection, context: RequestContext, method: string, params: JsonObject, raw = false): Promise<PeerAnswer> {
  const timeoutMs = connection.config.timeoutMs;
  const options: ForwardOptions = {
    timeoutMs,
    cancellation: context.cancellation,
    onProgress: context.progress,
    resetOnProgress: true,
    maxTotalMs: timeoutMs * MAX_TOTAL_TIMEOUT_FACTOR,
    owner: context,
    raw,
  };
  const answer = forwardAcrossEras(connection, context, method, params, options);
  // A per-user server that refuses the user's credential has run nothing: they connect again, and the call goes on once.
  if (perUserOf(connection.config) === undefined) return answer;
  return answer.catch(async (err: unknown) => forwardAcrossEras(await context.connections.afterRefusal(connection, context, err), context, method, params, options));
}

export async function forward(context: RequestContext, server: string, method: string, params: JsonObject): Promise<JsonObject> {
  const connection = await connectionFor(context, server);
  return unwrap(await forwardOn(connection, context, method, params));
}

export function lookup(list: CatalogList, name: unknown, what: string) {
  const i = typeof name === 'string' ? list.index.get(name) : undefined;
  if (i === undefined) throw new RpcError(ErrorCode.InvalidParams, `Unknown ${what}: ${String(name)}`);
  return list.entries[i]!;
}

export const callTool: Handler = async (params, context) => {
  // The gateway's own tools (search mode); their names are reserved, no server tool has them.
  const own = context.gateway.catalog.exposure.settingsFor(context.session.profile);
  if (params?.name === own.searchTool) return searchTools(params.arguments, context);
  if (params?.name === own.callTool) return callNamedTool(params.arguments, params._meta, context, callTool);
  if (params?.name === own.listServersTool) return listServers(context);
  // Code mode only (a profile in another mode has no run_code); the engine loads on the first run.
  if (params?.name === own.runCodeTool && context.nested !== true && context.view.exposure().mode === 'code') {
    return (await import('./run-code.js')).runCode(params, context, callTool);
  }
  const entry = toolForCall(context, params?.name);
  if (context.httpHeaders !== undefined) {
    const problem = paramHeaderProblem(entry.item.inputSchema, params.arguments, context.httpHeaders);
    if (problem !== undefined) throw new RefusalError(ErrorCode.HeaderMismatch, `Header mismatch: ${problem}`, 'request');
  }
  const ready = context.connections.for(entry.server, context);
  // A shared connection is there already: no await, no extra turn of the microtask queue.
  const connection = ready instanceof Promise ? await ready : ready;
  // Stateless clients get a task where the server runs this tool only as one (tasks extension).
  // A field of any JSON value reads safely (undefined off a primitive): no check added per call.
  const asTask = taskOnlyCall(connection, context, (entry.item.execution as { taskSupport?: unknown } | undefined)?.taskSupport, params, entry.original);
  if (asTask !== undefined) return asTask;
  // The common call needs nothing of its answer rewritten but the id: it is passed on as the
  // server's text, the client's id spliced in (no parse, no stringify of a large result).
  const renamed = context.gateway.catalog.renamedUris.get(entry.server);
  // A stateless-revision answer is dressed (resultType, serverInfo) by splicing too, where it can
  // be (client-session.ts, stateless-request.ts dressRaw).
  const passThrough = !context.gateway.config.sanitize.results && renamed === undefined && params.task === undefined;
  // Under resource rules, links in the answer are judged: an answer that cannot name a URI still passes unparsed.
  const judge = uriJudge(context.gateway.catalog, context.view, entry.server);
  let answer = await forwardOn(connection, context, 'tools/call', { ...params, name: entry.original }, passThrough);
  if (isRawResponse(answer)) {
    if (judge === undefined || answer.isError || !mayNameUri(answer.chunks)) return answer;
    answer = parseRawResponse(answer);
  }
  // Policy first: what the client may not see is not sanitized or audited for it either.
  let result: JsonObject = judgeToolResult(unwrap(answer), judge);
  result = cleanAnswer(context, entry.server, entry.original, result, sanitizeResult);
  result = renameInToolResult(result, renamed);
  // A task-augmented call answers with a task: expose it under an id of ours, bound to this session.
  const task = result.task;
  if (params.task !== undefined && isJsonObject(task) && typeof task.taskId === 'string') {
    return { ...result, task: { ...task, taskId: context.sessionState.tasks.expose(connection, task.taskId, context.session) } };
  }
  return result;
};

/**
 * A tool's result that reached us another way than a tools/call answer (a task's result): its
 * links judged and renamed the same way.
 */
export function toolResultFor(context: RequestContext, server: string, result: JsonObject): JsonObject {
  const { catalog } = context.gateway;
  return renameInToolResult(judgeToolResult(result, uriJudge(catalog, context.view, server)), catalog.renamedUris.get(server));
}

/**
 * Answers reach the model too: with sanitize.results they get the same cleaning as the catalog,
 * and every change goes to the audit log.
 */
function cleanAnswer(
  context: RequestContext,
  server: string,
  item: string,
  result: JsonObject,
  clean: (r: JsonObject, o: { action: SanitizeAction }) => { result: JsonObject; findings: Finding[] },
  always = false,
): JsonObject {
  const sanitize = context.gateway.config.sanitize;
  if (!sanitize.results && !always) return result;
  const cleaned = clean(result, sanitize);
  for (const f of cleaned.findings) context.gateway.audit.record({ server, kind: 'result', item, field: f.field, change: f.change, why: f.why });
  return cleaned.result;
}

export const getPrompt: Handler = async (params, context) => {
  const entry = lookup(context.view.lists.prompts, params?.name, 'prompt');
  const result = await forward(context, entry.server, 'prompts/get', { ...params, name: entry.original });
  const judged = judgePromptResult(result, uriJudge(context.gateway.catalog, context.view, entry.server));
  return renameInPrompt(cleanAnswer(context, entry.server, entry.original, judged, sanitizePromptResult), context.gateway.catalog.renamedUris.get(entry.server));
};

/** Servers a URI may belong to, allowed by their policy, most likely first. */
export function resourceTargets(context: RequestContext, uri: unknown): ResourceTarget[] {
  if (typeof uri !== 'string') throw new RpcError(ErrorCode.InvalidParams, 'params.uri must be a string');
  const catalog = context.gateway.catalog;
  // The profile's filter applies to the URI as the client knows it; each server's to its own URI.
  const targets = context.view.allowsUri(uri) ? catalog.resources.route(uri).filter((t) => catalog.resourcePolicy.get(t.server)?.(t.uri) ?? false) : [];
  if (targets.length === 0) throw new RpcError(ErrorCode.ResourceNotFound, 'Resource not found', { uri });
  return targets;
}

function isNotFound(err: unknown): boolean {
  return err instanceof RpcError && (err.code === ErrorCode.ResourceNotFound || err.code === ErrorCode.InvalidParams);
}

/**
 * `attempt` on each of a URI's targets in turn. Only a URI routed by scheme alone has several
 * candidates: the first that knows it wins; a not-found moves on, anything else (or the last
 * target's not-found) is thrown.
 */
export async function firstThatKnows<T>(targets: readonly ResourceTarget[], attempt: (t: ResourceTarget) => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await attempt(targets[i]!);
    } catch (err) {
      if (i + 1 < targets.length && isNotFound(err)) continue;
      throw err;
    }
  }
}

export const readResource: Handler = async (params, context) => {
  const targets = appReadTargets(context, params?.uri) ?? resourceTargets(context, params?.uri);
  return firstThatKnows(targets, async (t) => {
    const connection = await connectionFor(context, t.server);
    // A skill's files are held back with it (lock file), as a changed tool's calls are refused.
    await refuseHeldSkillRead(context, connection, t.uri);
    const skillFile = isSkillFile(t.uri, connection.capabilities);
    const result = unwrap(await forwardOn(connection, context, 'resources/read', { ...params, uri: t.uri }));
    noteAppRead(context.session, t.server, t.uri);
    const judged = judgeReadResult(result, uriJudge(context.gateway.catalog, context.view, t.server));
    const clean = readSanitizer(context, t.uri, connection.capabilities);
    // A SKILL.md is instructions for the model: always cleaned, whatever sanitize.results says.
    return renameInRead(cleanAnswer(context, t.server, t.uri, judged, clean, skillFile), context.gateway.catalog.renamedUris.get(t.server));
  });
};

export function serverMissing(server: string): GatewayError {
  return new GatewayError('SERVER_UNAVAILABLE', `server "${server}" is not configured`, { server });
}
