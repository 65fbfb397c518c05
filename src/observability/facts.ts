// What metrics and the dashboard read of the running gateway, at scrape or poll time only: the
// app hands these in as functions (observability imports neither the app nor the connections).
// Everything here is read-only and cheap enough to call once per scrape.

import type { Catalog } from '../catalog/build.js';
import type { ClientProfile } from '../config/types.js';

/** A server as the status page shows it (outbound/summary.ts's ServerSummary fits). */
export interface ServerFacts {
  name: string;
  state: string;
  transport: string;
  protocolVersion?: string;
  tools: number;
  prompts: number;
  resources: number;
  resourceTemplates: number;
  /** Why it is not ready (safe to show a client). */
  problem?: string;
  /** More on the problem, for the operator only (the server's last stderr line). */
  detail?: string;
  /** backing-off: ms until the next attempt. */
  retryInMs?: number;
}

export interface GatewayFacts {
  servers(): readonly ServerFacts[];
  /** The profile name of each open session (undefined: a session without a profile). */
  sessionProfiles(): Iterable<string | undefined>;
  catalog(): Catalog;
  /** The configured client profiles. */
  profiles(): readonly ClientProfile[];
  /** Resolves once token figures are exact (o200k): awaited before any is shown. */
  exactTokens(): Promise<void>;
  /** Client sessions whose client is there now (a request in flight, a GET stream; stdio while open) and the idle rest. */
  sessionActivity(): { live: number; idle: number };
  /** The state store behind sessions (src/state/): its kind and whether it can be reached now. */
  stateStore?(): { readonly kind: string; readonly health: 'up' | 'down' } | undefined;
  /** Every state a server can be in (outbound's list: a Prometheus state set names them all). */
  readonly serverStates: readonly string[];
}
