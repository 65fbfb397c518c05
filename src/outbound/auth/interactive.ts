// One interactive authorization-code login: loopback listener first (its URI is the redirect),
// client identity, PKCE URL printed (and opened when a browser is available), the redirect
// awaited with a deadline, then the code redeemed. The listener is closed on every path.

import { startLoopback } from './loopback.js';
import { obtainClient } from './registration.js';
import { prepareAuthorization, redeemCode } from './grants.js';
import type { Discovered } from './discovery.js';
import type { StoredTokens, TokenStore } from './token-store.js';
import type { FetchLike, OAuthConfig } from './types.js';

export interface InteractiveOptions {
  server: string;
  config: OAuthConfig;
  discovered: Discovered;
  scopes: string[] | undefined;
  store: TokenStore;
  fetch?: FetchLike | undefined;
  now?: () => number;
  openUrl?: ((url: string) => void | Promise<void>) | undefined;
  print?: ((line: string) => void) | undefined;
  timeoutMs?: number | undefined;
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

export const printToStderr = (line: string) => void process.stderr.write(`${line}\n`);

export async function interactiveAuthorization(o: InteractiveOptions): Promise<StoredTokens> {
  const d = o.discovered;
  const loopback = await startLoopback(o.config.redirectPort ?? 0);
  try {
    const id = await obtainClient({ config: o.config, as: d.as, store: o.store, redirectUri: loopback.redirectUri, insecure: d.insecure, fetch: o.fetch, now: o.now });
    const ctx = { as: d.as, id, resource: d.resource, insecure: d.insecure, fetch: o.fetch, now: o.now };
    const prepared = await prepareAuthorization(ctx, loopback.redirectUri, o.scopes);
    (o.print ?? printToStderr)(`Authorize Switchboard for server "${o.server}" by opening: ${prepared.url.href}`);
    const signal = AbortSignal.timeout(o.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const callback = loopback.wait(prepared.state, signal);
    if (o.openUrl) {
      // A browser that fails to open is not fatal: the URL is printed.
      Promise.resolve()
        .then(() => o.openUrl!(prepared.url.href))
        .catch(() => {});
    }
    return await redeemCode(ctx, prepared, await callback, o.scopes);
  } finally {
    await loopback.close();
  }
}
