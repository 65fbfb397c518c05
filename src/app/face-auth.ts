// Who may use the HTTP face: static client tokens (checked at once, the fast path) and, with
// listen.auth, OAuth access tokens (verified against the issuer, then matched to a profile by
// their claims). Also the RFC 9728 metadata pages clients read before they have a token.
// Invariants: an OAuth principal names its profile AND its subject, so one user's session can
// never be used with another user's token; profiles are looked up per request (reloads apply).

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientProfile, GatewayConfig } from '../config/types.js';
import {
  bearerChallengeHeader,
  createOAuthAuthenticator,
  matchProfile,
  protectedResourceMetadata,
  prmPaths,
  resourceMetadataUrl,
  type InboundAuthConfig,
  type InboundAuthenticator,
} from '../inbound/auth/index.js';
import { bearerAuthenticator, type AuthVerdict, type Authenticator, type StaticAuthenticator } from '../inbound/http-auth.js';
import type { Page } from '../inbound/http-endpoint-options.js';
import type { Logger } from '../log.js';

type ListenAuth = NonNullable<GatewayConfig['listen']['auth']>;

export interface FaceAuth {
  /** undefined: no authentication at all (no client token, no listen.auth). Looked up per request. */
  authenticate(): Authenticator | undefined;
  /** The client profile a principal stands for (undefined: the whole catalog). */
  profileOf(principal: string | undefined): string | undefined;
  isOperator(principal: string): boolean;
  /** The PRM documents, by path (empty without listen.auth). */
  pages(): [string, Page][];
  /** The HTTP face listens at `url` now: the resource identifier, unless listen.auth.resource says. */
  listening(url: string): void;
  /** The config was reloaded: new static tokens and profiles apply to the next request. */
  reloaded(): void;
}

/** `oauth:<profile>:<subject>`; a profile name never holds a `:`, a static principal is the bare name. */
const OAUTH = 'oauth:';
const oauthPrincipal = (profile: string | undefined, subject: string) => `${OAUTH}${profile ?? ''}:${subject}`;

/**
 * The user a principal stands for, whose per-user credentials its sessions use: an OAuth token's
 * subject, `profile:<name>` for a static token's profile; none when the face authenticated nobody.
 */
export function userOf(principal: string | undefined): string | undefined {
  if (principal === undefined) return undefined;
  if (!principal.startsWith(OAUTH)) return `profile:${principal}`;
  return principal.slice(principal.indexOf(':', OAUTH.length) + 1);
}

export function faceAuth(config: () => GatewayConfig, logger: Logger): FaceAuth {
  const settings = config().listen.auth; // listen.* takes a restart: fixed for the life of the face
  let staticAuth: StaticAuthenticator | undefined = bearerAuthenticator(config().clients);
  let resourceUrl = settings?.resource;
  let oauth: InboundAuthenticator | undefined;
  const log = logger.child({ inbound: 'oauth' });

  const verify = async (header: string | undefined): Promise<AuthVerdict> => {
    if (!oauth) return { status: 503, reason: 'the HTTP face is not listening yet' };
    const r = await oauth(header);
    if (!r.ok) return r.status === 503 ? { status: 503, reason: r.error } : { status: r.status, wwwAuthenticate: r.wwwAuthenticate, reason: r.error };
    const clients = config().clients;
    const profile = matchProfile(r.claims, clients);
    if (!profile && clients.some((c) => c.match !== undefined)) {
      const wwwAuthenticate = bearerChallengeHeader({ resourceMetadata: resourceMetadataUrl(resourceUrl!), error: 'insufficient_scope', description: 'no client profile matches this token' });
      return { status: 403, wwwAuthenticate, reason: 'no client profile matches the token' };
    }
    return oauthPrincipal(profile?.name, r.principal);
  };

  const combined: Authenticator = (header) => {
    const name = staticAuth?.(header);
    if (typeof name === 'string') return name; // a static token never reaches the AS
    return verify(header);
  };

  const profileNamed = (name: string): ClientProfile | undefined => config().clients.find((c) => c.name === name);

  return {
    authenticate: () => (settings ? combined : staticAuth),
    profileOf(principal) {
      if (principal === undefined || !principal.startsWith(OAUTH)) return principal;
      const profile = principal.slice(OAUTH.length, principal.indexOf(':', OAUTH.length));
      return profile === '' ? undefined : profile;
    },
    isOperator(principal) {
      const name = this.profileOf(principal);
      return name !== undefined && profileNamed(name)?.operator === true;
    },
    pages() {
      if (!settings) return [];
      const path = new URL(settings.resource ?? `http://localhost${config().listen.path}`).pathname;
      const serve = (_req: IncomingMessage, res: ServerResponse) => {
        if (!resourceUrl) return void res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"not listening yet"}');
        const body = JSON.stringify(protectedResourceMetadata(resourceUrl, inboundConfig(settings)));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'cache-control': 'max-age=3600' }).end(body);
      };
      return prmPaths(`http://localhost${path}`).map((p) => [p, { access: 'public', serve }]);
    },
    listening(url) {
      if (!settings) return;
      resourceUrl ??= url;
      oauth = createOAuthAuthenticator(inboundConfig(settings), { resourceUrl, logger: log });
      log.info({ issuer: settings.issuer, resource: resourceUrl }, 'OAuth access tokens accepted');
    },
    reloaded() {
      staticAuth = bearerAuthenticator(config().clients);
    },
  };
}

function inboundConfig(s: ListenAuth): InboundAuthConfig {
  const c: InboundAuthConfig = { issuer: s.issuer, requiredScopes: s.requiredScopes, clockToleranceSec: s.clockTolerance };
  if (s.audience !== undefined) c.audience = s.audience;
  if (s.jwksUrl !== undefined) c.jwksUrl = s.jwksUrl;
  if (s.scopesSupported !== undefined) c.scopesSupported = s.scopesSupported;
  if (s.introspection !== undefined) c.introspection = { ...s.introspection };
  return c;
}
