// One server's OAuth client state machine: none → ok ⇄ (refresh) → needs-login, with step-up on
// 403 insufficient_scope. Invariants: one token acquisition at a time per server (concurrent
// callers share it: no thundering herd on refresh); tokens only ever come from this server's own
// AS and go only to this server; no token, code or secret reaches a log line or an error message.

import type * as oauth from 'oauth4webapi';
import { bearerChallenge, type BearerChallenge } from './challenge.js';
import { discover, discoverAuthServer, canonicalResource, type Discovered } from './discovery.js';
import { AuthError, AuthErrorCode, authRequired } from './errors.js';
import { clientCredentialsGrant, oauthErrorCode, refreshGrant, type GrantContext } from './grants.js';
import { interactiveAuthorization } from './interactive.js';
import { obtainClient } from './registration.js';
import { SingleFlight } from './single-flight.js';
import { scopeKey, selectInitialScopes, stepUpScopes, union, covers } from './scopes.js';
import type { StoredTokens } from './token-store.js';
import { silentAuthLogger, type AuthLogger, type AuthState, type OAuthConfig, type ServerAuth, type ServerAuthDeps, type ServerTarget } from './types.js';

export type { ServerAuth, ServerAuthDeps };

/** Re-authorizations allowed for one scope set before a 403 is final (spec: "a few times"). */
const MAX_STEP_UPS_PER_SCOPE_SET = 1;

export function createServerAuth(server: ServerTarget, deps: ServerAuthDeps): ServerAuth {
  return new OAuthServerAuth(server, deps);
}

class OAuthServerAuth implements ServerAuth {
  readonly ready: Promise<void>;
  readonly configured: boolean;
  private tokens: StoredTokens | undefined;
  private status: AuthState['status'];
  private reason: string | undefined;
  private discovered: Discovered | undefined;
  private wantedScopes: string[] | undefined;
  private readonly stepUps = new Map<string, number>();
  private readonly flight = new SingleFlight();
  /** Bumps on every new token: names the refresh of "this" token for the single flight. */
  private generation = 0;
  /** The access token the server refused and no refresh could replace. */
  private rejected: string | undefined;
  private readonly log: AuthLogger;
  private readonly now: () => number;
  private readonly config: OAuthConfig;
  private readonly url: string;
  private readonly listeners = new Set<(state: AuthState) => void>();
  /** The status listeners last heard of. */
  private announced: AuthState['status'];

  constructor(
    private readonly server: ServerTarget,
    private readonly deps: ServerAuthDeps,
  ) {
    this.config = server.auth ?? { type: 'oauth' };
    this.configured = server.auth !== undefined;
    this.url = canonicalResource(server.url);
    this.log = deps.logger ?? silentAuthLogger;
    this.now = deps.now ?? Date.now;
    this.status = server.auth && this.grant() === 'authorization_code' ? 'needs-login' : 'none';
    this.announced = this.status;
    this.ready = this.reload().catch((err) => this.log.warn({ server: server.name, err: (err as Error).message }, 'token store unreadable'));
  }

  state(): AuthState {
    const s: AuthState = { status: this.status };
    if (this.tokens?.expiresAt !== undefined) s.expiresAt = this.tokens.expiresAt;
    if (this.tokens?.scopes) s.scopes = this.tokens.scopes;
    const issuer = this.tokens?.issuer ?? this.discovered?.as.issuer;
    if (issuer) s.issuer = issuer;
    if (this.reason && this.status === 'needs-login') s.reason = this.reason;
    return s;
  }

  onStatus(listener: (state: AuthState) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  async headers(): Promise<Record<string, string>> {
    await this.ready;
    await this.flight.settled();
    if (this.status === 'needs-login') await this.reload(); // did `switchboard login` run elsewhere?
    if (!this.tokens && this.grant() === 'client_credentials') {
      await this.flight.run('cc', () => this.clientCredentials(this.config.scopes)).catch((err) => this.warn(err, 'client credentials grant failed'));
    }
    if (this.tokens && this.expiring(this.tokens)) {
      await this.flight.run(`refresh:${this.generation}`, () => this.renew()).catch((err) => this.warn(err, 'token refresh failed; sending the current token'));
    }
    return this.tokens ? { authorization: `Bearer ${this.tokens.accessToken}` } : {};
  }

  async challenged(status: number, wwwAuthenticate: string | undefined, sent?: Record<string, string>): Promise<'retry'> {
    await this.ready;
    await this.reload(); // a token stored by a login elsewhere beats a refresh
    const bc = bearerChallenge(wwwAuthenticate);
    if (status === 403) return this.forbidden(bc, sent);
    if (status !== 401) throw new AuthError(AuthErrorCode.AUTH_FAILED, this.server.name, `HTTP ${status} is not an authorization challenge`);
    if (!bc && !this.server.auth) {
      throw new AuthError(AuthErrorCode.AUTH_FAILED, this.server.name, `Server "${this.server.name}" answered 401 without a Bearer challenge; configure its credentials`);
    }
    for (let round = 0; round < 3; round++) {
      if (this.flight.busy) {
        await this.flight.settled();
        continue;
      }
      if (this.newerThan(sent)) return 'retry'; // another caller already got a new token
      const used = this.tokens;
      if (used?.refreshToken && (!sent || sent.authorization === `Bearer ${used.accessToken}`)) {
        const ok = await this.flight
          .run(`refresh:${this.generation}`, () => this.renew())
          .then(
            () => true,
            () => false,
          );
        if (ok && this.tokens && this.tokens !== used) return 'retry';
      }
      if (this.grant() === 'client_credentials') {
        await this.flight.run('cc', () => this.clientCredentials(union(this.config.scopes, bc?.scope)));
        return 'retry';
      }
      const scopes = this.config.scopes ?? bc?.scope;
      await this.authorize('401', bc, scopes, true);
      return 'retry';
    }
    throw new AuthError(AuthErrorCode.AUTH_FAILED, this.server.name, `Server "${this.server.name}" keeps refusing its tokens`);
  }

  async login(wwwAuthenticate?: string): Promise<AuthState> {
    await this.ready;
    const bc = bearerChallenge(wwwAuthenticate);
    if (this.grant() === 'client_credentials') {
      await this.flight.run('cc', () => this.clientCredentials(this.config.scopes));
      return this.state();
    }
    const wanted = union(this.config.scopes, this.tokens?.requestedScopes, this.tokens?.wantedScopes, this.wantedScopes);
    this.stepUps.clear();
    await this.flight.run('login', () => this.runInteractive(bc, wanted.length > 0 ? wanted : undefined, true));
    return this.state();
  }

  async logout(): Promise<void> {
    await this.ready;
    this.tokens = undefined;
    this.wantedScopes = undefined;
    this.stepUps.clear();
    await this.deps.store.setTokens(this.server.name, this.url, undefined);
    this.setNeedsLogin('logged out');
    if (!this.server.auth) this.status = 'none';
    this.announce();
  }

  // ── transitions ─────────────────────────────────────────────────────────────

  private async forbidden(bc: BearerChallenge | undefined, sent: Record<string, string> | undefined): Promise<'retry'> {
    if (bc?.error !== 'insufficient_scope') {
      throw new AuthError(AuthErrorCode.AUTH_FORBIDDEN, this.server.name, `Server "${this.server.name}" refused the request (403${bc?.error ? ` ${bc.error}` : ''})`);
    }
    await this.flight.settled();
    await this.reload(); // `switchboard login` may have brought the scopes meanwhile
    const target = stepUpScopes(this.tokens?.requestedScopes ?? this.tokens?.scopes ?? this.config.scopes, bc.scope);
    if (this.newerThan(sent) && covers(this.tokens?.requestedScopes, target)) return 'retry';
    const key = scopeKey(target);
    const tries = this.stepUps.get(key) ?? 0;
    if (tries >= MAX_STEP_UPS_PER_SCOPE_SET) {
      throw new AuthError(AuthErrorCode.AUTH_FORBIDDEN, this.server.name, `Server "${this.server.name}" still refuses after authorizing scopes: ${target.join(' ')}`, { scopes: target });
    }
    this.stepUps.set(key, tries + 1);
    this.wantedScopes = target;
    if (this.grant() === 'client_credentials') {
      await this.flight.run(`cc:${key}`, () => this.clientCredentials(target));
      return 'retry';
    }
    if (!this.deps.interactive && this.tokens) {
      // Remembered with the tokens, so that the login this error asks for asks for them too.
      this.tokens = { ...this.tokens, wantedScopes: target };
      await this.deps.store.setTokens(this.server.name, this.url, this.tokens);
    }
    await this.authorize(`step-up:${key}`, bc, target, false);
    return 'retry';
  }

  /** Full authorization when interactive, else the clear AUTH_REQUIRED error. */
  private async authorize(key: string, bc: BearerChallenge | undefined, scopes: string[] | undefined, initial: boolean): Promise<void> {
    if (!this.deps.interactive) {
      const had = this.tokens !== undefined;
      if (initial) {
        this.setNeedsLogin(had ? 'the server rejected the token and it could not be refreshed' : 'no token yet');
        if (this.tokens) this.rejected = this.tokens.accessToken; // useless now; never reload it
        this.tokens = undefined;
      }
      const why = initial ? (had ? 'its token was rejected' : 'it requires authorization') : 'the operation needs more scopes';
      throw authRequired(this.server.name, why, scopes);
    }
    await this.flight.run(key, () => this.runInteractive(bc, scopes, initial));
  }

  private async runInteractive(bc: BearerChallenge | undefined, scopes: string[] | undefined, initial: boolean): Promise<void> {
    try {
      await this.interactiveOnce(bc, scopes, initial);
    } catch (err) {
      throw this.failure(err, 'OAuth login');
    }
  }

  private async interactiveOnce(bc: BearerChallenge | undefined, scopes: string[] | undefined, initial: boolean): Promise<void> {
    const d = await this.discoverFresh(bc);
    const chosen = initial ? selectInitialScopes({ configured: scopes, challenged: bc?.scope, prmSupported: d.scopesSupported, asSupported: d.as.scopes_supported }) : scopes;
    const tokens = await interactiveAuthorization({
      server: this.server.name,
      config: this.config,
      discovered: d,
      scopes: chosen,
      store: this.deps.store,
      fetch: this.deps.fetch,
      now: this.now,
      openUrl: this.deps.openUrl,
      print: this.deps.print,
      timeoutMs: this.deps.loginTimeoutMs,
    });
    await this.keep(tokens);
    this.log.info({ server: this.server.name, issuer: tokens.issuer, scopes: tokens.scopes }, 'authorized');
  }

  private async renew(): Promise<void> {
    const t = this.tokens;
    if (!t) return;
    if (t.grant === 'client_credentials') return this.clientCredentials(t.requestedScopes);
    if (!t.refreshToken) return;
    const c = await this.grantContext(t.issuer, t.resource);
    try {
      // Under a coordinator (renew), what is stored may be newer than ours: another process refreshed.
      const renew = this.deps.renew;
      const fresh = renew ? await renew((stored) => (stored && stored.accessToken !== t.accessToken ? Promise.resolve(stored) : refreshGrant(c, stored ?? t))) : await refreshGrant(c, t);
      await this.keep(fresh);
      this.log.debug({ server: this.server.name }, 'token refreshed');
    } catch (err) {
      const code = oauthErrorCode(err);
      if (code === 'invalid_grant' || code === 'invalid_client' || code === 'unauthorized_client') {
        this.tokens = undefined;
        await this.deps.store.setTokens(this.server.name, this.url, undefined);
        this.setNeedsLogin(`refresh refused (${code})`);
        this.log.warn({ server: this.server.name, error: code }, 'refresh refused; login needed');
      }
      throw err;
    }
  }

  private async clientCredentials(scopes: string[] | undefined): Promise<void> {
    try {
      const d = this.discovered ?? (await this.discoverFresh(undefined));
      const c = await this.grantContext(d.as.issuer, d.resource, d);
      await this.keep(await clientCredentialsGrant(c, scopes && scopes.length > 0 ? scopes : undefined));
    } catch (err) {
      throw this.failure(err, 'Client credentials grant');
    }
  }

  /** Any failure as an AuthError naming the server; the AS's error code, never its payload. */
  private failure(err: unknown, what: string): AuthError {
    if (err instanceof AuthError) return err;
    const code = oauthErrorCode(err);
    const detail = code ?? (err instanceof Error ? err.message : String(err));
    return new AuthError(AuthErrorCode.AUTH_FAILED, this.server.name, `${what} for "${this.server.name}" failed: ${detail}`, { cause: err });
  }

  // ── helpers ─────────────────────────────────────────────────────────────────

  private grant() {
    return this.config.grant ?? 'authorization_code';
  }

  private expiring(t: StoredTokens): boolean {
    return t.expiresAt !== undefined && this.now() >= t.expiresAt - (this.deps.refreshSkewMs ?? 60_000);
  }

  private newerThan(sent: Record<string, string> | undefined): boolean {
    return !!sent && !!this.tokens && sent.authorization !== `Bearer ${this.tokens.accessToken}`;
  }

  private async keep(tokens: StoredTokens): Promise<void> {
    this.tokens = tokens;
    this.generation++;
    this.status = 'ok';
    this.reason = undefined;
    this.announce();
    await this.deps.store.setTokens(this.server.name, this.url, tokens);
  }

  private setNeedsLogin(reason: string) {
    this.status = 'needs-login';
    this.reason = reason;
    this.announce();
  }

  /** Tells the listeners about a status change (once per change; a listener that throws is its own problem). */
  private announce() {
    if (this.status === this.announced) return;
    this.announced = this.status;
    const state = this.state();
    for (const listener of [...this.listeners]) {
      try {
        listener(state);
      } catch (err) {
        this.log.error({ server: this.server.name, err: (err as Error).message }, 'auth status listener failed');
      }
    }
  }

  private async reload(): Promise<void> {
    const t = await this.deps.store.getTokens(this.server.name, this.url);
    if (t && t.accessToken !== this.tokens?.accessToken && t.accessToken !== this.rejected) {
      this.tokens = t;
      this.generation++;
      this.status = 'ok';
      this.reason = undefined;
      this.announce();
    }
  }

  private async discoverFresh(bc: BearerChallenge | undefined): Promise<Discovered> {
    try {
      const d = await discover(this.server.url, bc?.resourceMetadata, this.deps.fetch ?? fetch);
      if (this.tokens && this.tokens.issuer !== d.as.issuer) {
        this.log.info({ server: this.server.name, issuer: d.as.issuer }, 'authorization server changed; old tokens dropped');
        this.tokens = undefined;
      }
      this.discovered = d;
      return d;
    } catch (err) {
      throw new AuthError(AuthErrorCode.AUTH_FAILED, this.server.name, `OAuth discovery for "${this.server.name}" failed: ${(err as Error).message}`, { cause: err });
    }
  }

  private async grantContext(issuer: string, resource: string, d?: Discovered): Promise<GrantContext> {
    let as: oauth.AuthorizationServer, insecure: boolean;
    if (d && d.as.issuer === issuer) ({ as, insecure } = d);
    else ({ as, insecure } = await discoverAuthServer(issuer, this.deps.fetch ?? fetch));
    const id = await obtainClient({ config: this.config, as, store: this.deps.store, insecure, fetch: this.deps.fetch, allowRegistration: false, now: this.now });
    const c: GrantContext = { as, id, resource, insecure, now: this.now };
    if (this.deps.fetch) c.fetch = this.deps.fetch;
    return c;
  }

  private warn(err: unknown, msg: string) {
    this.log.warn({ server: this.server.name, error: oauthErrorCode(err) ?? (err as Error).message }, msg);
  }
}
