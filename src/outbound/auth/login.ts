// `switchboard login SERVER` / `logout SERVER`: probe the server without credentials to read its
// challenge (scope, PRM URL), then run the interactive login (or the client credentials grant)
// and store the tokens. The token file is the one the gateway reads, so a running gateway picks
// the new tokens up on its next request.

import { browserOpener } from './browser.js';
import { createServerAuth, type ServerAuthDeps } from './server-auth.js';
import { FileTokenStore, defaultTokenFile, type TokenStore } from './token-store.js';
import type { AuthState, FetchLike, ServerTarget } from './types.js';

export interface LoginDeps extends Omit<ServerAuthDeps, 'store' | 'interactive'> {
  store?: TokenStore;
}

/** The store a server's tokens live in: its `tokenFile`, else the user's state directory. */
export function tokenStoreFor(server: ServerTarget, cache = new Map<string, TokenStore>()): TokenStore {
  const path = server.auth?.tokenFile ?? defaultTokenFile();
  let s = cache.get(path);
  if (!s) cache.set(path, (s = new FileTokenStore(path)));
  return s;
}

/** An unauthenticated initialize, to read the server's WWW-Authenticate (undefined if none). */
export async function probeChallenge(url: string, fetchFn: FetchLike = fetch): Promise<string | undefined> {
  try {
    const res = await fetchFn(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'switchboard-login', version: '0' } },
      }),
      signal: AbortSignal.timeout(10_000),
    });
    await res.body?.cancel();
    return res.status === 401 || res.status === 403 ? (res.headers.get('www-authenticate') ?? undefined) : undefined;
  } catch {
    return undefined; // discovery will then try the well-known URIs
  }
}

export async function login(server: ServerTarget, deps: LoginDeps = {}): Promise<AuthState> {
  const store = deps.store ?? tokenStoreFor(server);
  const openUrl = 'openUrl' in deps ? deps.openUrl : browserOpener();
  const auth = createServerAuth(server, { ...deps, ...(openUrl ? { openUrl } : {}), store, interactive: true });
  const challenge = await probeChallenge(server.url, deps.fetch);
  return auth.login(challenge);
}

export async function logout(server: ServerTarget, deps: { store?: TokenStore } = {}): Promise<void> {
  const store = deps.store ?? tokenStoreFor(server);
  await createServerAuth(server, { store }).logout();
}
