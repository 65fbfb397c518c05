// The method table: every request a client may send, and the handler that answers it.

import type { Handler } from '../context.js';
import { callTool, getPrompt, readResource } from './forward.js';
import { complete } from './complete.js';
import { ping, setLogLevel } from './lifecycle.js';
import { discover } from './discover.js';
import { listen } from './listen.js';
import { listHandler } from './list.js';
import { subscribe, unsubscribe } from './subscribe.js';
import { getSkill, listSkills } from './skills.js';
import { DIRECTORY_READ, readDirectory } from './skills-directory.js';
import { cancelTask, getTask, listTasks, taskResult, updateTask } from './tasks.js';
import { statelessCancelTask, statelessGetTask } from './stateless-tasks.js';

/** A Map, not an object literal: a method called `constructor` or `toString` must find nothing. */
export const handlers: ReadonlyMap<string, Handler> = new Map(
  Object.entries({
    ping,
    'server/discover': discover,
    'subscriptions/listen': listen,
    'tools/list': listHandler('tools'),
    'tools/call': callTool,
    'prompts/list': listHandler('prompts'),
    'prompts/get': getPrompt,
    'resources/list': listHandler('resources'),
    'resources/templates/list': listHandler('resourceTemplates'),
    'resources/read': readResource,
    'resources/subscribe': subscribe,
    'resources/unsubscribe': unsubscribe,
    'skills/list': listSkills,
    'skills/get': getSkill,
    [DIRECTORY_READ]: readDirectory,
    'completion/complete': complete,
    'logging/setLevel': setLogLevel,
    'tasks/get': getTask,
    'tasks/result': taskResult,
    'tasks/cancel': cancelTask,
    'tasks/update': updateTask,
    'tasks/list': listTasks,
  }),
);

/** Where a stateless-revision request has its own handler: the tasks extension's get and cancel. */
const statelessHandlers: ReadonlyMap<string, Handler> = new Map(
  Object.entries({
    'tasks/get': statelessGetTask,
    'tasks/cancel': statelessCancelTask,
  }),
);

/** The handler of `method` for a request of the era `stateless` says (ClientSession asks once). */
export function handlerFor(method: string, stateless: boolean): Handler | undefined {
  return (stateless ? statelessHandlers.get(method) : undefined) ?? handlers.get(method);
}
