// A ServerConnection's OAuth side (HTTP servers): the server's client state, one per server for
// the whole process (every connection to it shares the token and its refresh), and what waiting
// for a login means: which failures need one, how often the token store is looked at again.

import type { ServerConfig } from '../config/types.js';
import { GatewayError } from '../errors.js';
import type { Logger } from '../log.js';
import { AuthError, AuthErrorCode, isLoginNeeded } from './auth/errors.js';
import type { AuthState, ServerAuth } from './auth/types.js';
import { DEFAULT_BACKOFF } from './backoff.js';

export interface LoginHost {
  readonly config: ServerConfig;
  readonly logger: Logger;
  /** This OAuth client state instead of the process-wide one (ServerConnectionOptions.auth). */
  readonly auth?: ServerAuth;
  /** The auth state changed (a token refused and not renewed: `needs-login`). */
  changed(state: AuthState): void;
}

export class ServerLogin {
  /** The server's OAuth client state (HTTP servers, from the first connect on). */
  auth?: ServerAuth;
  private stopWatching?: () => void;

  constructor(private readonly host: LoginHost) {}

  /** HTTP servers: their OAuth client state, made on first use; undefined for stdio. */
  async get(): Promise<ServerAuth | undefined> {
    const c = this.host.config;
    if (c.kind !== 'http') return undefined;
    if (!this.auth) {
      this.auth = this.host.auth ?? (await import('./auth/registry.js')).serverAuthFor(c, this.host.logger);
      this.stopWatching = this.auth.onStatus((state) => this.host.changed(state));
    }
    return this.auth;
  }

  /** Whether `err` leaves the server waiting for someone to log in (retrying cannot help before). */
  needed(err: unknown): boolean {
    return isLoginNeeded(err) && this.auth?.state().status === 'needs-login';
  }

  /** How often a server waiting for a login looks for a new token: its longest reconnect delay. */
  checkEveryMs(): number {
    return this.host.config.reconnect?.maxDelayMs ?? DEFAULT_BACKOFF.maxDelayMs;
  }

  /** Reads the token store again (a login elsewhere); true when a token is there now. */
  async tokenArrived(): Promise<boolean> {
    await this.auth!.headers().catch(() => undefined); // re-reads the store while a login is needed
    return this.auth!.state().status !== 'needs-login';
  }

  /** The failure a server in use is down with when its token was refused and not renewed. */
  refused(state: AuthState): GatewayError {
    const name = this.host.config.name;
    const message = `server "${name}" needs an OAuth login (${state.reason ?? 'token refused'}). Run: switchboard login ${name}`;
    return new GatewayError('HTTP_ERROR', message, { server: name, cause: new AuthError(AuthErrorCode.AUTH_REQUIRED, name, message) });
  }

  stop(): void {
    this.stopWatching?.();
  }
}
