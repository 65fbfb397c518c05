// initialize, ping and logging/setLevel: the requests the gateway answers as itself.

import { GATEWAY_NAME, GATEWAY_VERSION, LATEST_PROTOCOL_VERSION, isSupportedVersion } from '../../mcp/protocol.js';
import type { GatewayCore, Handler } from '../context.js';

/** What the merged servers offer, as one server's capabilities. */
export function mergedCapabilities(gateway: GatewayCore): Record<string, any> {
  const caps: Record<string, any> = {};
  for (const c of gateway.connections()) {
    if (c.state !== 'ready') continue;
    const s = c.capabilities;
    // The gateway emits list_changed itself whenever the merged catalog changes.
    if (s.tools) caps.tools = { listChanged: true };
    if (s.prompts) caps.prompts = { listChanged: true };
    if (s.resources) caps.resources = { listChanged: true };
    if (s.logging) caps.logging = {};
    if (s.completions) caps.completions = {};
  }
  return caps;
}

/** The revision to answer: the client's if we speak it, else our newest (the client decides). */
export function negotiateVersion(requested: unknown): string {
  return isSupportedVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

export function initializeResult(gateway: GatewayCore, protocolVersion: string): Record<string, any> {
  const result: Record<string, any> = {
    protocolVersion,
    capabilities: mergedCapabilities(gateway),
    serverInfo: { name: GATEWAY_NAME, version: GATEWAY_VERSION },
  };
  const instructions = gateway.instructions();
  if (instructions) result.instructions = instructions;
  return result;
}

export const ping: Handler = async () => ({});

/** Fans the level out to every ready server that declared logging. */
export const setLogLevel: Handler = async (params, { gateway }) => {
  const level = params?.level;
  await Promise.all(
    gateway
      .connections()
      .filter((c) => c.state === 'ready' && c.capabilities.logging)
      .map((c) => c.forward('logging/setLevel', { level }).catch(() => undefined)),
  );
  return {};
};
