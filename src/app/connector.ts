// Builds the /connect pages (src/connect/) when some server takes per-user credentials (issue 33):
// reads `config.credentials` and `server.perUser` by the agreed names, opens the CredentialStore,
// picks how a browser proves who it is from the face in front (listen.auth: a login at its issuer;
// static client tokens: the token form; no HTTP face or no authentication: the local user), and
// serves the pages under /connect/ on the HTTP face, or on a loopback listener without one.

import type { GatewayConfig } from '../config/types.js';
import { createConnector } from '../connect/connector.js';
import type { BrowserCheck, Connector, ConnectServer } from '../connect/types.js';
import { bearerAuthenticator } from '../inbound/http-auth.js';
import type { Logger } from '../log.js';
import type { AuditLog } from '../observability/audit.js';
import type { OAuthConfig } from '../outbound/auth/index.js';
import type { CredentialStore } from '../state/credentials.js';
import { openCredentialStore } from '../state/open-credentials.js';
import type { StateStore } from '../state/store.js';
import { faceAuth } from './face-auth.js';
import type { PerUserServers } from './per-user-servers.js';

export type CredentialsSection = GatewayConfig['credentials'];

export const credentialsOf = (config: GatewayConfig): CredentialsSection => config.credentials;

/** The per-user servers of `config`, as the pages need them. */
export function perUserServers(config: GatewayConfig): Map<string, ConnectServer> {
  const out = new Map<string, ConnectServer>();
  for (const s of config.servers) {
    const perUser = s.perUser;
    if (perUser === undefined) continue;
    const http = s.kind === 'http' ? { url: s.url, ...(s.auth === undefined ? {} : { auth: s.auth as OAuthConfig }) } : {};
    out.set(s.name, { name: s.name, perUser, ...http });
  }
  return out;
}

export interface AppConnectorDeps {
  config: () => GatewayConfig;
  state: StateStore;
  audit: AuditLog;
  logger: Logger;
  /** Serve on the HTTP face (its MCP URL, once it listens); false: stdio only, a loopback listener. */
  httpFace: boolean;
  faceUrl: () => string | undefined;
  /** The app's per-user servers: their one CredentialStore (opened only when a server is per-user), told of each connect. */
  perUser?: Pick<PerUserServers, 'credentials' | 'noteConnect'>;
}

export interface AppConnector {
  readonly connector: Connector;
  readonly credentials: CredentialStore;
  close(): Promise<void>;
}

/** The connector, or undefined when no server is per-user. */
export async function openConnector(deps: AppConnectorDeps): Promise<AppConnector | undefined> {
  const config = deps.config;
  if (perUserServers(config()).size === 0) return undefined;
  const settings = credentialsOf(config());
  const owned = deps.perUser === undefined;
  const credentials =
    (await deps.perUser?.credentials()) ??
    (await openCredentialStore({ store: deps.state, ...(settings.file ? { file: settings.file } : {}), ...(settings.keyFile ? { keyFile: settings.keyFile } : {}), createKey: true }));
  const connector = createConnector({
    servers: () => perUserServers(config()),
    settings: () => {
      const c = credentialsOf(config());
      return { linkTtlMs: c.linkTtlMs, ...(c.login === undefined ? {} : { login: c.login }) };
    },
    credentials,
    store: deps.state,
    audit: deps.audit,
    logger: deps.logger.child({ component: 'connect' }),
    publicUrl: () => {
      if (!deps.httpFace) return undefined;
      const configured = credentialsOf(config()).publicUrl;
      if (configured !== undefined) return configured;
      const url = deps.faceUrl();
      return url === undefined ? undefined : new URL(url).origin;
    },
    browser: browserCheck(deps, settings),
    ...(deps.perUser === undefined ? {} : { onConnect: (user: string, server: string) => void deps.perUser?.noteConnect(user, server) }),
  });
  return {
    connector,
    credentials,
    async close() {
      await connector.close();
      if (owned) await credentials.close();
    },
  };
}

/**
 * How a browser proves who it is, computing the same user MCP requests get: the OAuth subject
 * (`sub`) of a token for the gateway, or `profile:<name>` for a client profile's static token.
 */
function browserCheck(deps: AppConnectorDeps, settings: CredentialsSection): BrowserCheck {
  const config = deps.config;
  const auth = config().listen.auth;
  if (deps.httpFace && auth !== undefined) {
    const face = faceAuth(config, deps.logger);
    let listening = false;
    const resource = () => auth.resource ?? deps.faceUrl() ?? '';
    return {
      kind: 'oauth',
      issuer: auth.issuer,
      resource,
      scopes: auth.scopesSupported ?? auth.requiredScopes,
      async verify(authorization) {
        if (!listening) {
          face.listening(resource());
          listening = true;
        }
        const verdict = await face.authenticate()?.(authorization);
        return typeof verdict === 'string' ? userOf(verdict) : undefined;
      },
    };
  }
  if (deps.httpFace && config().clients.some((c) => c.token)) {
    return {
      kind: 'token',
      async verify(authorization) {
        const name = bearerAuthenticator(config().clients)?.(authorization);
        return typeof name === 'string' ? `profile:${name}` : undefined;
      },
    };
  }
  return { kind: 'local', user: settings.localUser };
}

/** face-auth.ts's principal (`oauth:<profile>:<sub>`, or a static profile's name) as the user. */
function userOf(principal: string): string {
  if (principal.startsWith('oauth:')) return principal.slice(principal.indexOf(':', 'oauth:'.length) + 1);
  return `profile:${principal}`;
}
