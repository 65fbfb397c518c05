// Pending browser flows (a login at the gateway's issuer, a user's OAuth at a server's AS), kept
// sealed in the StateStore under a digest of their `state` until the redirect comes back, on
// whichever replica. Taken once: a replayed or forged state finds nothing. The flow is bound to the
// browser that started it by a random value in a cookie, so another browser cannot finish it.

import { createHash } from 'node:crypto';
import type { PendingFlow } from '../outbound/auth/index.js';
import type { StateStore } from '../state/store.js';
import type { LinkClaims } from './links.js';
import type { Sealer } from './seal.js';

/** How long a browser has to come back from an authorization server. */
export const FLOW_TTL_MS = 10 * 60_000;
export const FLOW_COOKIE = 'sb_flow';

export type FlowRecord =
  /** The browser logs in at the gateway's issuer, then goes on to connect `server`. */
  | { readonly p: 'login'; readonly flow: PendingFlow; readonly server: string; readonly link?: LinkClaims; readonly bind: string }
  /** `user` authorizes the gateway at `server`'s AS. */
  | { readonly p: 'server'; readonly flow: PendingFlow; readonly server: string; readonly user: string; readonly bind: string };

const keyOf = (state: string) => `connect:flow:${createHash('sha256').update(state).digest('base64url')}`;

export async function saveFlow(store: StateStore, sealer: Sealer, record: FlowRecord): Promise<void> {
  await store.putValue(keyOf(record.flow.state), sealer.seal(record), FLOW_TTL_MS);
}

export async function takeFlow(store: StateStore, sealer: Sealer, state: string | null): Promise<FlowRecord | undefined> {
  if (state === null || state === '' || state.length > 512) return undefined;
  const sealed = await store.takeValue(keyOf(state));
  const record = sealer.open<FlowRecord>(sealed);
  // A sealed record under another state's key cannot be: the key is the state's digest.
  return record !== undefined && record.flow.state === state ? record : undefined;
}
