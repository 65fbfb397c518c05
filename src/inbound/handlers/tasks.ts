// tasks/get, tasks/result, tasks/cancel, tasks/list (2025-11-25): the exposed task id is mapped
// back to the server and its own id, only for the session that created the task; answers come
// back with our id in place of the server's.

import { RpcError } from '../../errors.js';
import { ErrorCode } from '../../protocol/jsonrpc.js';
import type { Handler, RequestContext } from '../context.js';
import type { TaskEntry } from '../../router/task-ids.js';
import { withRelatedTask } from '../../router/task-ids.js';
import { forwardOn, toolResultFor } from './forward.js';
import { unwrap } from '../../jsonrpc/answer.js';
import type { JsonObject } from '../../protocol/json.js';
import { statelessUpdateTask } from './stateless-tasks.js';

function taskOf(params: JsonObject, context: RequestContext): TaskEntry {
  const entry = context.sessionState.tasks.lookup(params?.taskId, context.session);
  // An unknown task and another session's task look the same.
  if (!entry) throw new RpcError(ErrorCode.InvalidParams, `Unknown task: ${String(params?.taskId)}`);
  return entry;
}

/** A handler that answers a result always (never the server's raw text), as taskResult needs it. */
function onTask(method: string): (params: JsonObject, context: RequestContext) => Promise<JsonObject> {
  return async (params, context) => {
    const entry = taskOf(params, context);
    const result = unwrap(await forwardOn(entry.connection, context, method, { ...params, taskId: entry.taskId }));
    const swapped = typeof result.taskId === 'string' ? { ...result, taskId: entry.exposed } : result;
    return withRelatedTask(swapped, (id) => (id === entry.taskId ? entry.exposed : undefined));
  };
}

// A stateless-revision request's tasks/get and tasks/cancel are the tasks extension's
// (stateless-tasks.ts): the inbound adapter picks them (handlers/index.ts statelessHandlers).
export const getTask: Handler = onTask('tasks/get');
/** tasks/result: a tool's result, its links judged and renamed like a tools/call answer's. */
export const taskResult: Handler = async (params, context) => {
  const server = taskOf(params, context).connection.name;
  return toolResultFor(context, server, await onTask('tasks/result')(params, context));
};
export const cancelTask: Handler = onTask('tasks/cancel');
export const updateTask = statelessUpdateTask;

/** This session's tasks, as each server currently reports them. */
export const listTasks: Handler = async (_params, context) => {
  const entries = context.sessionState.tasks.ofSession(context.session);
  const tasks = await Promise.all(
    entries.map(async (entry) => {
      try {
        const task = unwrap(await forwardOn(entry.connection, context, 'tasks/get', { taskId: entry.taskId }));
        return { ...task, taskId: entry.exposed };
      } catch {
        return undefined; // the server forgot it (expired ttl): leave it out
      }
    }),
  );
  return { tasks: tasks.filter((t) => t !== undefined) };
};
