// server/discover: what the gateway is in the stateless revision — the revisions it speaks, the
// merged servers' capabilities, and the instructions this client's profile should read.

import { STATELESS_VERSIONS } from '../../protocol/stateless.js';
import type { Handler } from '../context.js';
import { TASKS_EXTENSION } from './stateless-tasks.js';
import type { JsonObject } from '../../protocol/json.js';

export const discover: Handler = async (_params, { gateway, connections, view }) => {
  const capabilities = connections.capabilities();
  // Tasks left the core in this revision: the extension, served over servers' 2025 tasks. A listen
  // stream replaces resources/subscribe but keeps the capability's meaning.
  const tasks = capabilities.tasks;
  delete capabilities.tasks;
  if (tasks?.requests?.tools?.call) capabilities.extensions = { ...capabilities.extensions, [TASKS_EXTENSION]: {} };
  const result: JsonObject = { supportedVersions: [...STATELESS_VERSIONS], capabilities };
  const instructions = gateway.instructions(view);
  if (instructions) result.instructions = instructions;
  return result;
};
