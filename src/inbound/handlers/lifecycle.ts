// initialize, ping and logging/setLevel: the requests the gateway answers as itself.

import { GATEWAY_NAME, GATEWAY_VERSION, LATEST_PROTOCOL_VERSION, LOG_LEVELS, isSupportedVersion } from '../../protocol/mcp.js';
import { RpcError } from '../../errors.js';
import { ErrorCode } from '../../protocol/jsonrpc.js';
import type { Handler } from '../context.js';
import type { Router } from '../../router/router.js';
import type { CatalogView } from '../../catalog/view.js';

/** What the merged servers offer, as one server's capabilities. */
export function mergedCapabilities(router: Router): Record<string, any> {
  const caps: Record<string, any> = {};
  for (const c of router.connections()) {
    if (c.state !== 'ready') continue;
    const s = c.capabilities;
    // The gateway emits list_changed itself whenever the merged catalog changes.
    if (s.tools) caps.tools = { listChanged: true };
    if (s.prompts) caps.prompts = { listChanged: true };
    if (s.resources) caps.resources = { listChanged: true };
    if (s.logging) caps.logging = {};
    if (s.completions) caps.completions = {};
    if (s.resources?.subscribe) caps.resources = { ...caps.resources, subscribe: true };
    if (s.tasks) caps.tasks = mergeTasks(caps.tasks, s.tasks);
  }
  return caps;
}

/** Tasks capability of the merged servers: what any of them offers for tools/call. */
function mergeTasks(into: Record<string, any> | undefined, tasks: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = { ...into };
  if (tasks.list) out.list = {};
  if (tasks.cancel) out.cancel = {};
  if (tasks.requests?.tools?.call) out.requests = { tools: { call: {} } };
  return out;
}

/** The revision to answer: the client's if we speak it, else our newest (the client decides). */
export function negotiateVersion(requested: unknown): string {
  return isSupportedVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

export function initializeResult(router: Router, protocolVersion: string, view: CatalogView): Record<string, any> {
  const result: Record<string, any> = {
    protocolVersion,
    capabilities: mergedCapabilities(router),
    serverInfo: { name: GATEWAY_NAME, version: GATEWAY_VERSION },
  };
  const instructions = router.instructions(view);
  if (instructions) result.instructions = instructions;
  return result;
}

export const ping: Handler = async () => ({});


/** Sets this session's level; the gateway filters per session and tells servers the most verbose level wanted. */
export const setLogLevel: Handler = async (params, { router, session }) => {
  const level = params?.level;
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new RpcError(ErrorCode.InvalidParams, `Invalid log level: ${String(level)}`);
  session.setLogLevel(level);
  await router.logLevelChanged();
  return {};
};
