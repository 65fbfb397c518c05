// One ServerAuth per configured HTTP server for the whole process, so that every connection to a
// server (the shared one, per-session ones, the one a reload restarts) shares one token and one
// refresh in flight. Keyed by everything that decides whose tokens they are: name, URL, settings.
// The gateway never opens a browser itself: a login it needs is reported (needs-login), and
// `switchboard login NAME` does it, writing the same token file.

import { tokenStoreFor } from './login.js';
import { createServerAuth } from './server-auth.js';
import type { TokenStore } from './token-store.js';
import type { AuthLogger, OAuthConfig, ServerAuth, ServerTarget } from './types.js';

const auths = new Map<string, ServerAuth>();
const stores = new Map<string, TokenStore>();

/** The ServerAuth of an HTTP server entry (`auth` undefined: OAuth only if it challenges). */
export function serverAuthFor(server: { name: string; url: string; auth?: OAuthConfig | undefined }, logger: AuthLogger): ServerAuth {
  const target: ServerTarget = { name: server.name, url: server.url };
  if (server.auth) target.auth = server.auth;
  const key = JSON.stringify([server.name, server.url, server.auth ?? null]);
  let auth = auths.get(key);
  if (!auth) {
    auth = createServerAuth(target, { store: tokenStoreFor(target, stores), logger, interactive: false });
    auths.set(key, auth);
  }
  return auth;
}
