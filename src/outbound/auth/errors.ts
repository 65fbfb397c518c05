// Auth failures with stable codes, naming the server and the scopes a user must grant.
// Kept apart from GatewayError until the integrator adds these codes to src/errors.ts; messages
// never carry a token, a code, a client secret or a URL query string.

export const AuthErrorCode = {
  /** Interactive login is needed (no token, refresh failed, or step-up) and none can happen now. */
  AUTH_REQUIRED: 'AUTH_REQUIRED',
  /** Discovery, registration or a grant failed (AS unreachable, bad metadata, denied). */
  AUTH_FAILED: 'AUTH_FAILED',
  /** The server refused the request for a reason new credentials cannot fix (403 without scope). */
  AUTH_FORBIDDEN: 'AUTH_FORBIDDEN',
} as const;

export type AuthErrorCode = (typeof AuthErrorCode)[keyof typeof AuthErrorCode];

export class AuthError extends Error {
  readonly code: AuthErrorCode;
  readonly server: string;
  /** Scopes a login would have to grant (AUTH_REQUIRED after a scope challenge). */
  readonly scopes?: string[];
  constructor(code: AuthErrorCode, server: string, message: string, options?: { scopes?: string[]; cause?: unknown }) {
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = 'AuthError';
    this.code = code;
    this.server = server;
    if (options?.scopes) this.scopes = options.scopes;
  }
}

/** The message a user sees when a login is needed: what to run, and which scopes. */
export function authRequired(server: string, why: string, scopes?: string[]): AuthError {
  const scopeText = scopes && scopes.length > 0 ? ` (scopes: ${scopes.join(' ')})` : '';
  return new AuthError(
    AuthErrorCode.AUTH_REQUIRED,
    server,
    `Server "${server}" needs an OAuth login${scopeText}: ${why}. Run: switchboard login ${server}`,
    scopes ? { scopes } : undefined,
  );
}

/** The failure is (or was caused by) "a login is needed", not a network or protocol problem. */
export function isLoginNeeded(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof AuthError) return e.code === AuthErrorCode.AUTH_REQUIRED;
  }
  return false;
}
