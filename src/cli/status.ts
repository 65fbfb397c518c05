// `switchboard status`: asks a running gateway (GET /status on its HTTP face) for each server's
// state and prints it. The gateway is named by the URL `serve` printed, by --http, or by the
// config's listen; the same Origin/Host/token checks apply as to the MCP endpoint.

import type { GatewayConfig } from '../config/types.js';
import type { ServerSummary } from '../outbound/summary.js';
import { describeServer } from './report.js';

export interface GatewayStatus {
  servers: ServerSummary[];
  sessions: number;
}

/** Where /status is for a listen address. */
export function statusUrl(listen: { host: string; port: number }): string {
  const { host, port } = listen;
  const shown = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}/status`;
}

/** The config's listen address, with --http over it. */
export function statusUrlFor(config: Pick<GatewayConfig, 'listen'> | undefined, override?: { host: string; port: number }): string {
  return statusUrl({ host: '127.0.0.1', port: 8808, ...config?.listen, ...override });
}

/**
 * /status beside the MCP endpoint URL that `serve` prints (`http://127.0.0.1:8808/mcp`): the
 * pages live at the root of the gateway's origin, whatever its MCP path.
 */
export function statusUrlFromEndpoint(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return new URL('/status', url.origin).href;
}

export type StatusOutcome =
  | { kind: 'ok'; status: GatewayStatus }
  /** The gateway answered, and refused us (401 without a valid token, 403 for a non-operator one). */
  | { kind: 'refused'; httpStatus: number; message: string }
  /** Nothing answered, or what answered is not a gateway's /status. */
  | { kind: 'unreachable'; message: string };

export async function fetchStatus(url: string, token?: string): Promise<StatusOutcome> {
  let res: Response;
  try {
    res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return { kind: 'unreachable', message: cause?.code ?? cause?.message ?? String(err) };
  }
  if (res.status === 401) {
    const hint = token ? 'SWITCHBOARD_TOKEN is not a token the gateway knows' : "set SWITCHBOARD_TOKEN to an operator client's token";
    return { kind: 'refused', httpStatus: 401, message: `unauthorised: ${hint}` };
  }
  if (res.status === 403) {
    return { kind: 'refused', httpStatus: 403, message: 'forbidden: /status is for operator clients (operator: true); or the gateway refused this Host' };
  }
  const body = res.ok ? await res.json().catch(() => undefined) : undefined;
  if (!isStatus(body)) return { kind: 'unreachable', message: `something answered ${res.status}, but not a Switchboard gateway's /status` };
  return { kind: 'ok', status: body };
}

function isStatus(v: unknown): v is GatewayStatus {
  return typeof v === 'object' && v !== null && Array.isArray((v as GatewayStatus).servers) && typeof (v as GatewayStatus).sessions === 'number';
}

export function renderStatus(s: GatewayStatus): string {
  const lines = s.servers.map((server) => `  ${server.state.padEnd(11)} ${describeServer(server)}`);
  return `${s.servers.length} servers, ${s.sessions} client sessions\n${lines.join('\n')}\n`;
}
