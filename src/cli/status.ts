// `switchboard status`: asks a running gateway (GET /status on its HTTP face) for each server's
// state and prints it. The same Origin/Host/token checks apply as to the MCP endpoint.

import type { GatewayConfig } from '../config/types.js';
import type { ServerSummary } from '../outbound/summary.js';
import { describeServer } from './report.js';

export function statusUrl(config: GatewayConfig, override?: { host: string; port: number }): string {
  const { host, port } = { ...config.listen, ...override };
  const shown = host === '0.0.0.0' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}/status`;
}

export async function fetchStatus(url: string, token?: string): Promise<{ servers: ServerSummary[]; sessions: number }> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!res.ok) throw new Error(`${url} answered ${res.status}${res.status === 401 ? ' (set SWITCHBOARD_TOKEN to a client token)' : ''}`);
  return (await res.json()) as { servers: ServerSummary[]; sessions: number };
}

export function renderStatus(s: { servers: ServerSummary[]; sessions: number }): string {
  const lines = s.servers.map((server) => `  ${server.state.padEnd(11)} ${describeServer(server)}`);
  return `${s.servers.length} servers, ${s.sessions} client sessions\n${lines.join('\n')}\n`;
}
