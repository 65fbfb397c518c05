// What the gateway serves as itself, shared by the session and its handlers: the revision it
// answers a client's initialize with, initialize's result, and the list a view serves for each kind
// (what tools/list pages through and what list_changed compares).

import type { CatalogList } from '../catalog/build.js';
import type { CatalogView } from '../catalog/view.js';
import { GATEWAY_NAME, GATEWAY_VERSION, LATEST_PROTOCOL_VERSION, isSupportedVersion, type ListKind } from '../protocol/mcp.js';
import type { ConnectionRegistry, MergedCapabilities } from '../router/connections.js';
import type { Gateway } from '../router/router.js';

/** The revision to answer: the client's if we speak it, else our newest (the client decides). */
export function negotiateVersion(requested: unknown): string {
  return isSupportedVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

// A type, not an interface: an object type of known fields is a JsonObject (a result) as it is.
export type InitializeResult = {
  protocolVersion: string;
  capabilities: MergedCapabilities;
  serverInfo: { name: string; version: string };
  instructions?: string;
};

export function initializeResult(gateway: Gateway, connections: ConnectionRegistry, protocolVersion: string, view: CatalogView): InitializeResult {
  const result: InitializeResult = {
    protocolVersion,
    capabilities: connections.capabilities(),
    serverInfo: { name: GATEWAY_NAME, version: GATEWAY_VERSION },
  };
  const instructions = gateway.instructions(view);
  if (instructions) result.instructions = instructions;
  return result;
}

/** What a list request answers for `kind`: the view's list, or for tools what its mode shows. */
export function servedList(view: CatalogView, kind: ListKind): CatalogList {
  return kind === 'tools' ? view.exposure().served : view.lists[kind];
}
