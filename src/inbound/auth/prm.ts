// RFC 9728 protected-resource metadata for the gateway's own HTTP face, and the well-known
// paths it is served at (path-suffixed first, as MCP clients probe them, then the root).
// Pure: the HTTP endpoint serves the returned document as JSON on GET of any of the paths.

import type { InboundAuthConfig } from './types.js';

export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported?: string[];
  bearer_methods_supported: string[];
  resource_name?: string;
}

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

export function protectedResourceMetadata(resourceUrl: string, config: InboundAuthConfig): ProtectedResourceMetadata {
  const doc: ProtectedResourceMetadata = {
    resource: resourceUrl,
    authorization_servers: [config.issuer],
    bearer_methods_supported: ['header'],
  };
  // offline_access is not a resource requirement (MCP: servers SHOULD NOT list it).
  const scopes = (config.scopesSupported ?? config.requiredScopes ?? []).filter((s) => s !== 'offline_access');
  if (scopes.length > 0) doc.scopes_supported = scopes;
  if (config.resourceName) doc.resource_name = config.resourceName;
  return doc;
}

/** `/.well-known/oauth-protected-resource/<path of the resource>` then the root variant. */
export function prmPaths(resourceUrl: string): string[] {
  const path = new URL(resourceUrl).pathname.replace(/\/$/, '');
  return path ? [`${WELL_KNOWN}${path}`, WELL_KNOWN] : [WELL_KNOWN];
}

/** The absolute URL to name in `WWW-Authenticate: Bearer resource_metadata="…"`. */
export function resourceMetadataUrl(resourceUrl: string): string {
  return `${new URL(resourceUrl).origin}${prmPaths(resourceUrl)[0]}`;
}
