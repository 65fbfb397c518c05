// The outbound OAuth surface the gateway wires: createServerAuth per protected HTTP server,
// sendWithAuth around each HTTP exchange, login/logout for the CLI, and the token store.
// Everything else in this folder is an implementation detail.

export { createServerAuth, type ServerAuth, type ServerAuthDeps } from './server-auth.js';
export { sendWithAuth, type AuthOutcome } from './send.js';
export { browserOpener } from './browser.js';
export { login, logout, probeChallenge, tokenStoreFor, type LoginDeps } from './login.js';
export { FileTokenStore, MemoryTokenStore, defaultTokenFile, type TokenStore, type StoredTokens, type StoredClient } from './token-store.js';
export { AuthError, AuthErrorCode } from './errors.js';
export { bearerChallenge, parseWwwAuthenticate } from './challenge.js';
export { normalizeOAuthConfig, type OAuthConfig, type ServerTarget, type AuthState, type AuthStatus, type AuthLogger, type FetchLike } from './types.js';
export { beginBrowserFlow, finishBrowserFlow, type PendingFlow, type BrowserFlowTarget, type BeginOptions } from './browser-flow.js';
export { oauthErrorCode } from './grants.js';
