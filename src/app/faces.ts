// The gateway's two faces towards clients, opened on an app: stdio (one client on our
// stdin/stdout) and Streamable HTTP. Everything they take from the config is read here, and the
// HTTP face looks the config up per request, so a reload's new tokens apply at once.

import type { GatewayConfig } from '../config/types.js';
import type { BoundPort } from '../inbound/http-bind.js';
import { startHttpEndpoint } from '../inbound/http-endpoint.js';
import { HEALTH_PATH, STATUS_PATH, type HttpEndpoint, type HttpEndpointOptions, type Page } from '../inbound/http-endpoint-options.js';
import { replyJson } from '../inbound/http-reply.js';
import { startStdioEndpoint } from '../inbound/stdio-endpoint.js';
import type { EndpointSession, SessionOpener } from '../inbound/session-opener.js';
import type { Logger } from '../log.js';
import { faceAuth, userOf } from './face-auth.js';
import { credentialSettings } from '../router/per-user-config.js';
import type { StateStore } from '../state/store.js';

export interface FaceOptions {
  /** Serve one client on stdin/stdout; `onEnd` is called when stdin ends. */
  stdio?: { onEnd: () => void };
  /** Serve Streamable HTTP here (host/port override the config's listen; `bound`: on this port, bound already). */
  http?: { host?: string; port?: number; bound?: BoundPort };
}

export interface FaceDeps {
  opener: SessionOpener;
  config: () => GatewayConfig;
  logger: Logger;
  /** What GET /status answers. */
  status: () => unknown;
  /** More pages beside the MCP path (metrics, dashboard, OAuth metadata), by path. */
  pages?: ReadonlyMap<string, Page>;
  /** Where the HTTP face records its stateful sessions, so replicas sharing it serve any of them. */
  stateStore?: StateStore;
  /** Pages under a prefix (the /connect/ pages of per-user credentials), public, GET and POST. */
  prefixPage?: HttpEndpointOptions['prefixPage'];
}

export interface Faces {
  /** The HTTP face's MCP URL, when it listens. */
  readonly url?: string;
  /** New requests are refused (HTTP 503) or no longer read (stdio); those in flight go on. */
  stopAccepting(): void;
  /** Open SSE streams are handed back to their clients to resume on another replica (HTTP, shared sessions). */
  handOver(): void;
  /** Resolves once every HTTP reply in progress has been written. */
  repliesWritten(): Promise<void>;
  /** The config changed: new tokens and profiles apply to the next request. */
  reloaded(): void;
  /** Client sessions whose client is there (the stdio one while its input is open) and the idle rest. */
  sessionActivity(): { live: number; idle: number };
  close(): Promise<void>;
}

export async function openFaces(deps: FaceDeps, options: FaceOptions): Promise<Faces> {
  const { opener, config, logger } = deps;
  const l = config().limits;
  const auth = faceAuth(config, logger);
  // The stdio client is the one configured local user (its per-user credentials are that user's).
  const stdioOpener: SessionOpener = {
    budget: opener.budget,
    openSession: (push, principal, parent) => withUser(opener.openSession(push, principal, parent), credentialSettings(config()).localUser),
    openStatelessSession: (principal) => withUser(opener.openStatelessSession(principal), credentialSettings(config()).localUser),
    get keyId() {
      return opener.keyId;
    },
  };
  const stdio = options.stdio
    ? startStdioEndpoint(stdioOpener, { maxMessageBytes: l.maxMessageBytes, maxDepth: l.maxDepth, writeBufferBytes: l.writeBufferBytes, principal: config().stdioClient, onEnd: options.stdio.onEnd })
    : undefined;
  let http: HttpEndpoint | undefined;
  let draining = false;
  if (options.http) {
    // An OAuth principal stands for a profile (or none): sessions open on that profile.
    const httpOpener: SessionOpener = {
      budget: opener.budget,
      openSession: (push, principal, parent) => identified(opener.openSession(push, auth.profileOf(principal), parent), principal),
      openStatelessSession: (principal) => identified(opener.openStatelessSession(auth.profileOf(principal)), principal),
      restoreSession: opener.restoreSession && ((record, push, principal, parent) => identified(opener.restoreSession!(record, push, auth.profileOf(principal), parent), principal)),
      get keyId() {
        return opener.keyId;
      },
    };
    http = await startHttpEndpoint(httpOpener, {
      ...config().listen,
      ...options.http,
      maxMessageBytes: l.maxMessageBytes,
      maxDepth: l.maxDepth,
      maxSessions: l.maxSessions,
      sessionIdleTimeoutMs: l.sessionIdleTimeoutMs,
      streamlessSessionIdleTimeoutMs: l.streamlessSessionIdleTimeoutMs,
      maxConnections: l.maxConnections,
      shares: { ...l.perPrincipal, codeRuns: config().codeMode.maxRunsPerPrincipal },
      headersGraceMs: l.headersGraceMs,
      requestTimeoutMs: l.requestTimeoutMs,
      writeBufferBytes: l.writeBufferBytes,
      logger: logger.child({ inbound: 'http' }),
      store: deps.stateStore,
      ...(deps.prefixPage === undefined ? {} : { prefixPage: deps.prefixPage }),
      // Looked up per request, so a reload that adds or changes tokens applies to new requests.
      authenticate: (header) => auth.authenticate()?.(header),
      isOperator: (principal) => auth.isOperator(principal),
      pages: new Map<string, Page>([
        [STATUS_PATH, { access: 'operator', serve: (_req, res) => replyJson(res, 200, JSON.stringify(deps.status())) }],
        [HEALTH_PATH, { access: 'public', whileDraining: true, serve: (_req, res) => health(res, draining, deps.stateStore) }],
        ...auth.pages(),
        ...(deps.pages ?? []),
      ]),
    });
    auth.listening(http.url);
  }
  return {
    url: http?.url,
    stopAccepting() {
      draining = true;
      http?.stopAccepting();
      stdio?.stop();
    },
    handOver: () => http?.handOver(),
    repliesWritten: () => http?.drain() ?? Promise.resolve(),
    reloaded() {
      auth.reloaded();
    },
    sessionActivity() {
      const h = http?.sessionActivity() ?? { live: 0, idle: 0 };
      return stdio ? { live: h.live + 1, idle: h.idle } : h;
    },
    async close() {
      await Promise.allSettled([http?.close(), stdio?.close()]);
    },
  };
}

/** /healthz: ready or draining; the state store's health is told, not judged (held sessions work without it). */
function health(res: Parameters<Page['serve']>[1], draining: boolean, store: StateStore | undefined): void {
  const body = { status: draining ? 'draining' : 'ok', ...(store === undefined ? {} : { store: { kind: store.kind, health: store.health } }) };
  replyJson(res, draining ? 503 : 200, JSON.stringify(body));
}

function withUser(session: EndpointSession, user: string): EndpointSession {
  session.user = user;
  return session;
}

/** A session knows whom it serves (an OAuth subject, not only its profile): its state tokens are bound to that. */
function identified(session: EndpointSession, principal: string | undefined): EndpointSession {
  session.principal = principal;
  session.user = userOf(principal);
  return session;
}
