// `switchboard run FILE.js [--client NAME]`: runs a code-mode script from the shell against the
// configured servers, exactly as run_code runs one for a client (a session of that profile, its
// policy and limits, the audit log): the result's JSON on stdout, console lines and progress on
// stderr. The gateway serves in code mode for this command whatever catalog.mode says.

import type { App } from '../app/app.js';
import type { ClientProfile, GatewayConfig } from '../config/types.js';
import { LATEST_PROTOCOL_VERSION } from '../protocol/mcp.js';
import type { JsonRpcMessage, JsonRpcResponse } from '../protocol/jsonrpc.js';
import { isJsonObject, valueAt, type JsonObject } from '../protocol/json.js';

/** The config with code mode in force for `profile` (or for clients without one). */
export function inCodeMode(config: GatewayConfig, profile: ClientProfile | undefined): GatewayConfig {
  if (profile === undefined) return { ...config, catalog: { ...config.catalog, mode: 'code' } };
  return { ...config, clients: config.clients.map((c) => (c === profile ? { ...c, catalog: { ...c.catalog, mode: 'code' as const } } : c)) };
}

export type RunOutcome = { ok: true; result: unknown; truncated: boolean; logs: string[] } | { ok: false; message: string; logs: string[] };

/** Runs `code` through a session of `profile` (run_code's own path), telling `note` its progress. */
export async function runFromShell(app: App, code: string, profile: ClientProfile | undefined, note: (text: string) => void): Promise<RunOutcome> {
  const session = app.openSession(() => {}, profile?.name);
  const related = (m: JsonRpcMessage) => {
    const p = (m as { method?: string; params?: JsonObject }).params;
    if ((m as { method?: string }).method === 'notifications/progress' && typeof p?.message === 'string') note(`progress: ${p.message}`);
  };
  try {
    await session.handle({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'switchboard run', version: '1' } },
    });
    await session.handle({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const name = app.config.catalog.runCodeTool;
    const reply = (await session.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: { code }, _meta: { progressToken: 'run' } } }, related)) as JsonRpcResponse;
    if ('error' in reply) return { ok: false, message: `${reply.error.message} (${reply.error.code})`, logs: [] };
    const result = reply.result as JsonObject;
    const s = isJsonObject(result.structuredContent) ? result.structuredContent : {};
    // run_code's own structured result: its logs are the console lines it kept, strings.
    const logs = Array.isArray(s.logs) ? (s.logs as string[]) : [];
    if (result.isError === true) return { ok: false, message: String(valueAt(result.content, '0', 'text') ?? 'the script failed').split('\n\nConsole:\n')[0]!, logs };
    return { ok: true, result: s.result, truncated: s.truncated === true, logs };
  } finally {
    session.close();
  }
}
