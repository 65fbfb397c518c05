// The tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28) served over servers' 2025-11-25
// tasks: a call to a tool its server runs only as a task answers `resultType: "task"` under an id
// of ours; tasks/get folds the server's tasks/get and, once finished, tasks/result into one
// answer; tasks/cancel and tasks/update answer empty results. Only clients that declare the
// extension on the request get tasks (others: -32021 naming it).

import { RefusalError, RpcError } from '../../errors.js';
import { ErrorCode } from '../../protocol/jsonrpc.js';
import { missingCapabilityError } from '../../protocol/stateless.js';
import type { Connection } from '../../router/session.js';
import type { TaskEntry } from '../../router/task-ids.js';
import type { Handler, RequestContext } from '../context.js';
import { forwardOn, toolResultFor } from './forward.js';
import { unwrap } from '../../jsonrpc/answer.js';
import { type JsonObject, isJsonObject, valueAt } from '../../protocol/json.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export function declaresTasks(context: RequestContext): boolean {
  return valueAt(context.envelope?.clientCapabilities, 'extensions', TASKS_EXTENSION) !== undefined;
}

export function tasksRequired(why: string): RefusalError {
  const e = missingCapabilityError({ extensions: { [TASKS_EXTENSION]: {} } }, why);
  return new RefusalError(e.code, e.message, 'request', e.data);
}

/** A 2025 Task as the extension shapes it (ttl → ttlMs, pollInterval → pollIntervalMs). */
export function statelessTask(task: JsonObject, exposed: string): JsonObject {
  const out: JsonObject = {
    taskId: exposed,
    status: task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt ?? task.createdAt,
    ttlMs: typeof task.ttl === 'number' ? task.ttl : null,
  };
  if (typeof task.statusMessage === 'string') out.statusMessage = task.statusMessage;
  if (typeof task.pollInterval === 'number') out.pollIntervalMs = task.pollInterval;
  return out;
}

/**
 * A stateless client's call of a tool its server runs only as a task (`execution.taskSupport:
 * required`): the task it gets (the client must declare the extension). Undefined for any other
 * call: a stateful client's, or a script's nested call (forwarded as it is: its result is the
 * script's, and the server judges).
 */
export function taskOnlyCall(connection: Connection, context: RequestContext, taskSupport: unknown, params: JsonObject, original: string): Promise<JsonObject> | undefined {
  if (context.envelope === undefined || context.nested === true || taskSupport !== 'required') return undefined;
  if (!declaresTasks(context)) throw tasksRequired(`${TASKS_EXTENSION} (tool ${String(params.name)} runs only as a task)`);
  return callAsTask(connection, context, { ...params, name: original });
}

/** Starts a tool as a 2025 task on its server and answers the extension's task result. */
export async function callAsTask(connection: Connection, context: RequestContext, params: JsonObject): Promise<JsonObject> {
  const { task: _statefulHint, ...rest } = params;
  const result = unwrap(await forwardOn(connection, context, 'tools/call', { ...rest, task: {} }));
  const task = result.task;
  if (!isJsonObject(task) || typeof task.taskId !== 'string') return toolResultFor(context, connection.name, result); // answered at once after all
  const exposed = context.sessionState.tasks.expose(connection, task.taskId, context.session);
  return { ...statelessTask(task, exposed), resultType: 'task' };
}

function entryFor(params: JsonObject, context: RequestContext): TaskEntry {
  if (!declaresTasks(context)) throw tasksRequired(`${TASKS_EXTENSION} (tasks/* need it declared on the request)`);
  const entry = context.sessionState.tasks.lookup(params?.taskId, context.session);
  if (!entry) throw new RpcError(ErrorCode.InvalidParams, `Unknown task: ${String(params?.taskId)}`);
  return entry;
}

export const statelessGetTask: Handler = async (params, context) => {
  const entry = entryFor(params, context);
  const task = unwrap(await forwardOn(entry.connection, context, 'tasks/get', { taskId: entry.taskId }));
  const out = statelessTask(task, entry.exposed);
  if (task.status === 'completed' || task.status === 'failed') {
    try {
      out.result = toolResultFor(context, entry.connection.name, unwrap(await forwardOn(entry.connection, context, 'tasks/result', { taskId: entry.taskId })));
    } catch (err) {
      if (!(err instanceof RpcError)) throw err;
      out.error = err.toJsonRpc();
    }
  }
  return out;
};

export const statelessCancelTask: Handler = async (params, context) => {
  const entry = entryFor(params, context);
  await forwardOn(entry.connection, context, 'tasks/cancel', { taskId: entry.taskId });
  return {};
};

/** A 2025 task takes no input this way (its server asks with requests of its own): nothing to update. */
export const statelessUpdateTask: Handler = async (params, context) => {
  entryFor(params, context);
  return {};
};
