// A 2026-07-28 server on the in-memory fake (test/helpers/fake-transport.ts): server/discover,
// subscriptions/listen (acknowledged, held open until cancelled), initialize refused with -32022
// when modern-only, and ways to read the envelope each request carried and to notify on a stream.

import type { FakeCall, FakeMcpServer, FakeServerScript } from '../../helpers/fake-transport.js';

/** Answers the call with a JSON-RPC error that has `data` (the fake's thrown errors carry none). */
export function rpcError(call: FakeCall, code: number, message: string, data?: unknown): Promise<never> {
  call.server.transport.deliver({ jsonrpc: '2.0', id: call.id, error: { code, message, ...(data === undefined ? {} : { data }) } });
  return new Promise(() => {});
}

export const VERSION = '2026-07-28';
export const SID = 'io.modelcontextprotocol/subscriptionId';
export const ACK = 'notifications/subscriptions/acknowledged';
export const env = {
  version: 'io.modelcontextprotocol/protocolVersion',
  caps: 'io.modelcontextprotocol/clientCapabilities',
  info: 'io.modelcontextprotocol/clientInfo',
  level: 'io.modelcontextprotocol/logLevel',
} as const;

export interface ModernScript extends FakeServerScript {
  /** initialize is answered -32022 (a modern-only server); default: answered as the fake does. */
  modernOnly?: boolean;
  /** What server/discover answers (default: a DiscoverResult of the script's capabilities). */
  discover?: (params: Record<string, any>, call: FakeCall) => unknown;
}

/** Capabilities of a modern fake: what its lists offer, with list changes and subscriptions. */
function capabilitiesOf(s: ModernScript): Record<string, any> {
  if (s.capabilities) return s.capabilities;
  const caps: Record<string, any> = { logging: {} };
  if (s.tools) caps.tools = { listChanged: true };
  if (s.prompts) caps.prompts = { listChanged: true };
  if (s.resources || s.resourceTemplates) caps.resources = { listChanged: true, subscribe: true };
  return caps;
}

export function statelessServer(s: ModernScript = {}): FakeServerScript {
  const discover =
    s.discover ??
    (() => ({
      resultType: 'complete',
      supportedVersions: [VERSION],
      capabilities: capabilitiesOf(s),
      ...(s.instructions ? { instructions: s.instructions } : {}),
      ttlMs: 0,
      cacheScope: 'private',
      _meta: { 'io.modelcontextprotocol/serverInfo': s.serverInfo ?? { name: 'modern-fake', version: '2.0.0' } },
    }));
  return {
    ...s,
    capabilities: capabilitiesOf(s),
    handlers: {
      'server/discover': (params, call) => discover(params, call),
      'subscriptions/listen': (params, call) => {
        call.server.notify(ACK, { _meta: { [SID]: call.id }, notifications: params.notifications });
        return new Promise(() => {});
      },
      ...(s.modernOnly
        ? {
            initialize: (params: Record<string, any>, call: FakeCall) =>
              rpcError(call, -32022, `Unsupported protocol version: ${params.protocolVersion}`, { supported: [VERSION], requested: params.protocolVersion }),
          }
        : {}),
      ...s.handlers,
    },
  };
}

/** The listen requests a server got, oldest first. */
export const listens = (server: FakeMcpServer) => server.requests('subscriptions/listen');

/** The ids of listen streams the client closed (notifications/cancelled). */
export const cancelledIds = (server: FakeMcpServer) => server.requests('notifications/cancelled').map((n) => n.params.requestId);

/** A notification on listen stream `id`. */
export function onStream(server: FakeMcpServer, id: unknown, method: string, params: Record<string, any> = {}): void {
  server.notify(method, { ...params, _meta: { [SID]: id } });
}
