// A connection's state as people read it: `check`, the start-up log, the status page.

import type { AuthState } from './auth/types.js';
import type { ServerConnection } from './server-connection.js';

export interface ServerSummary {
  name: string;
  state: string;
  transport: string;
  /** The protocol era found at the last handshake (stateless: 2026-07-28; stateful: the revisions before). */
  era?: 'stateless' | 'stateful';
  protocolVersion?: string;
  tools: number;
  prompts: number;
  resources: number;
  resourceTemplates: number;
  problem?: string;
  /** More on the problem, for the operator only (the server's last stderr line). */
  detail?: string;
  /** Why it went down, one word of a fixed set (outbound/failure-reason.ts), e.g. list_items. */
  reason?: string;
  /** Lists at 80% or more of their size bounds (limits.maxListItems, maxListBytes). */
  nearBounds?: string;
  /** backing-off: when the next attempt is due. */
  retryInMs?: number;
  /** OAuth towards the server, when it uses it: ok or needs-login, the token's expiry, its scopes. */
  auth?: AuthState;
}

// (any: a summary reads state only, whoever the connection attributes its requests to.)
export function summarize(connections: Iterable<ServerConnection<any>>): ServerSummary[] {
  return [...connections].map((c) => {
    const s: ServerSummary = {
      name: c.name,
      state: c.state,
      transport: c.transportKind,
      tools: c.lists.tools.length,
      prompts: c.lists.prompts.length,
      resources: c.lists.resources.length,
      resourceTemplates: c.lists.resourceTemplates.length,
    };
    if (c.protocolVersion) {
      s.era = c.era;
      s.protocolVersion = c.protocolVersion;
    }
    if (c.problem && c.state !== 'ready') s.problem = c.problem;
    if (c.problemDetail && c.state !== 'ready') s.detail = c.problemDetail;
    if (c.failure && c.state !== 'ready') s.reason = c.failure;
    const near = c.state === 'ready' ? c.nearBounds() : undefined;
    if (near) s.nearBounds = near;
    if (c.state === 'backing-off' && c.retryAt) s.retryInMs = Math.max(0, c.retryAt - Date.now());
    const auth = c.auth?.state();
    if (auth && (auth.status !== 'none' || c.auth!.configured)) s.auth = auth;
    return s;
  });
}
