// Auth failures: AuthError and its codes live in the gateway's one error table (src/errors.ts);
// here, the two questions outbound code asks of them. Messages never carry a token, a code, a
// client secret or a URL query string.

import { AuthError, AuthErrorCode } from '../../errors.js';

export { AuthError, AuthErrorCode } from '../../errors.js';

/** The message a user sees when a login is needed: what to run, and which scopes. */
export function authRequired(server: string, why: string, scopes?: string[]): AuthError {
  const scopeText = scopes && scopes.length > 0 ? ` (scopes: ${scopes.join(' ')})` : '';
  return new AuthError(AuthErrorCode.AUTH_REQUIRED, server, `Server "${server}" needs an OAuth login${scopeText}: ${why}. Run: switchboard login ${server}`, scopes ? { scopes } : undefined);
}

/** The failure is (or was caused by) "a login is needed", not a network or protocol problem. */
export function isLoginNeeded(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof AuthError) return e.code === AuthErrorCode.AUTH_REQUIRED;
  }
  return false;
}
