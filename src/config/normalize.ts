// Maps a validated file (every default already filled in by the schema) onto the normalized
// GatewayConfig: merges `servers` and `mcpServers`, gives each server its kind, renames durations
// and sizes to their unit (`timeout` → `timeoutMs`) and resolves paths. States no default itself;
// the config types are inferred from what these functions return.

import { resolve } from 'node:path';
import { resolveFileCase, toPolicyConfig } from './policy.js';
import { toCodeLimits } from './schema-code.js';
import type { UserClaudeServer, UserConfig, UserServer } from './schema.js';
import { nameFromKey, transportOfType } from './server-entries.js';
import { userRefNames } from './types.js';

/** A validated entry of either shape: the keys both share, plus Claude Desktop's own. */
type Entry = { name: string; s: UserServer | UserClaudeServer; type?: UserClaudeServer['type']; disabled?: boolean };

/** Both shapes as one list, `servers` first. Names of mcpServers keys were checked by crossCheck. */
function entriesOf(data: UserConfig): Entry[] {
  return [...data.servers.map((s) => ({ name: s.name, s })), ...Object.entries(data.mcpServers).map(([key, s]) => ({ name: nameFromKey(key)!.name, s, type: s.type, disabled: s.disabled }))];
}

/** What every server has, whichever its kind. */
function serverBase({ name, s, disabled }: Entry) {
  return {
    /** `[a-z0-9-]+`, unique. */
    name,
    /** Namespace for exposed tool/prompt names; the name unless set. `""` exposes names unprefixed. */
    prefix: s.prefix ?? name,
    /** The operator's one line on what the server is for (search mode's server directory). */
    description: s.description as string | undefined,
    enabled: s.enabled && !disabled,
    /** Per-request timeout towards this server. */
    timeoutMs: s.timeout,
    /** Connecting, the handshake and fetching every list, in all. */
    startupTimeoutMs: s.startupTimeout,
    /**
     * `shared`: one connection for every session. `per-session`: each session gets its own
     * connection, opened on first use, carrying that client's capabilities (roots, sampling,
     * elicitation); the shared one still feeds the catalog.
     */
    isolation: s.isolation,
    /**
     * `auto`: detect the server's era (server/discover probe, then initialize) and remember it for
     * the process's life; `2026-07-28` or `stateful` pin it (`legacy` is the old spelling of `stateful`).
     */
    protocol: s.protocol === 'legacy' ? ('stateful' as const) : s.protocol,
    /** Backoff after a failed start or a drop (see outbound/backoff.ts). */
    reconnect: {
      initialDelayMs: s.reconnect.initialDelay,
      maxDelayMs: s.reconnect.maxDelay,
      maxFailures: s.reconnect.maxFailures,
    },
    /** How long a dropped server's items stay listed while it reconnects. */
    downtimeGraceMs: s.downtimeGrace,
    /** Bounds on this server's lists over the limits.* ones (only the keys the entry sets). */
    listLimits: {
      ...(s.listLimits?.maxItems !== undefined ? { maxItems: s.listLimits.maxItems } : {}),
      ...(s.listLimits?.maxBytes !== undefined ? { maxBytes: s.listLimits.maxBytes } : {}),
      ...(s.listLimits?.fetchTimeout !== undefined ? { fetchTimeoutMs: s.listLimits.fetchTimeout } : {}),
    } as { maxItems?: number; maxBytes?: number; fetchTimeoutMs?: number },
    /** Globs against the server's own names and URIs. */
    tools: s.tools,
    prompts: s.prompts,
    /** `fileCase` resolved to sensitive or insensitive. */
    resources: resolveFileCase(s.resources),
  };
}

/** A server started as a child process, spoken to over its stdin and stdout. */
/** A file the config names, relative to its folder; none when it names none. */
function fileIn(baseDir: string, file: string | undefined): string | undefined {
  return file === undefined ? undefined : resolve(baseDir, file);
}

export function toStdioServer(e: Entry, command: string, baseDir: string) {
  const { s } = e;
  const perUser = secretsPerUser(s.env, s.userSecrets);
  return {
    kind: 'stdio' as const,
    ...serverBase(e),
    /** Set when each user gets their own process, filled with their own `${user.NAME}` secrets. */
    perUser,
    command,
    args: [...s.args],
    /**
     * Extra environment for the child, `${VAR}` already substituted, over the minimal base one. A
     * per-user server's values still hold their `${user.NAME}` text (fillUserRefs fills it).
     */
    env: perUser ? { ...s.env } : decodeUserEscapes(s.env),
    /** Which of the gateway's own variables the child also gets: none (false), all (true), or those named. */
    inheritEnv: s.inheritEnv,
    /** Absolute; relative paths in the file are resolved against the config file's folder. */
    cwd: resolve(baseDir, s.cwd),
  };
}

type OAuthSettings = Extract<NonNullable<UserServer['auth']>, object>;

/** Whose credentials a server uses: one user's own (OAuth tokens, or the named secrets). */
export type PerUser = { kind: 'oauth' } | { kind: 'secrets'; secrets: { name: string; description?: string }[] };

/** A server whose headers or env reference `${user.NAME}` is per-user with those secrets. */
function secretsPerUser(values: Record<string, string>, described: Record<string, string> | undefined): PerUser | undefined {
  const names = [...new Set(Object.values(values).flatMap(userRefNames))];
  if (names.length === 0) return undefined;
  return { kind: 'secrets', secrets: names.map((name) => (described?.[name] !== undefined ? { name, description: described[name] } : { name })) };
}

/** A server that is not per-user has no fill: its escaped `$${user.` become a literal `${user.` here. */
function decodeUserEscapes(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.replaceAll('$${user.', '${user.')]));
}

/**
 * `auth: oauth` and `auth: {...}` as one shape: the token file made absolute, and the grant the
 * settings imply (a client secret means machine-to-machine). Undefined: OAuth only on a challenge.
 */
function toServerAuth(auth: UserServer['auth'], baseDir: string): OAuthSettings | undefined {
  if (auth === undefined) return undefined;
  if (auth === 'oauth') return { type: 'oauth' };
  const out: OAuthSettings = { ...auth };
  if (auth.scopes) out.scopes = [...auth.scopes];
  if (auth.tokenFile !== undefined) out.tokenFile = resolve(baseDir, auth.tokenFile);
  // A per-user login is a person's: never the machine grant a client secret implies otherwise.
  out.grant = auth.grant ?? (auth.clientSecret !== undefined && auth.perUser !== true ? 'client_credentials' : 'authorization_code');
  return out;
}

/** A server reached over HTTP. */
export function toHttpServer(e: Entry, url: string, baseDir: string) {
  const oauthPerUser = typeof e.s.auth === 'object' && e.s.auth.perUser === true;
  // (crossCheck saw to it that a server is per-user one way at most.)
  const perUser: PerUser | undefined = oauthPerUser ? { kind: 'oauth' } : secretsPerUser(e.s.headers, e.s.userSecrets);
  return {
    kind: 'http' as const,
    ...serverBase(e),
    /** Set when each user reaches the server as themselves: their own OAuth login, or their own secrets in headers. */
    perUser,
    url,
    // A `type` that implies a transport never contradicts an explicit one (crossCheck saw to it).
    transport: transportOfType(e.type) ?? e.s.transport,
    /** A per-user server's values still hold their `${user.NAME}` text (fillUserRefs fills it). */
    headers: perUser?.kind === 'secrets' ? { ...e.s.headers } : decodeUserEscapes(e.s.headers),
    /** OAuth towards this server; undefined: only when it answers 401 with a Bearer challenge. */
    auth: toServerAuth(e.s.auth, baseDir),
  };
}

/** `credentials` with paths made absolute and durations in milliseconds. */
function toCredentials(c: UserConfig['credentials'], baseDir: string) {
  return {
    /** The file backend's file (absolute); undefined: the default (state/credential-file.ts). */
    file: fileIn(baseDir, c.file),
    /** The key file (absolute) when SWITCHBOARD_CREDENTIALS_KEY is unset; undefined: beside the file. */
    keyFile: fileIn(baseDir, c.keyFile),
    /** Where browsers reach the gateway, without a trailing /; the connect pages are under <publicUrl>/connect/. */
    publicUrl: c.publicUrl?.replace(/\/+$/, ''),
    linkTtlMs: c.linkTtl,
    /** The user of the stdio face. */
    localUser: c.localUser,
    /** The connect pages' login at the listen.auth issuer, to tell who opened a link. */
    login: c.login ? { clientId: c.login.clientId, clientSecret: c.login.clientSecret, scopes: [...c.login.scopes] } : undefined,
    connections: { perUser: c.connections.perUser, total: c.connections.total, idleTimeoutMs: c.connections.idleTimeout },
  };
}

/** Maps a file that passed validation and crossCheck onto the normalized config. */
export function toGatewayConfig(data: UserConfig, baseDir: string) {
  const {
    shutdownGrace,
    writeBuffer,
    sessionIdleTimeout,
    streamlessSessionIdleTimeout,
    requestTimeout,
    startupWait,
    headersGrace,
    perPrincipal,
    listFetchTimeout,
    listRefetchInterval,
    listRefetchMaxInterval,
    ...counts
  } = data.limits;
  return {
    listen: { ...data.listen, allowedOrigins: [...data.listen.allowedOrigins] },
    naming: { ...data.naming },
    catalog: {
      ...data.catalog,
      alwaysVisible: [...data.catalog.alwaysVisible],
      ...(data.catalog.embeddings
        ? { embeddings: { ...data.catalog.embeddings, ...(data.catalog.embeddings.cacheDir !== undefined ? { cacheDir: resolve(baseDir, data.catalog.embeddings.cacheDir) } : {}) } }
        : {}),
    },
    limits: {
      ...counts,
      /** How long calls in flight may take to finish at shutdown. */
      shutdownGraceMs: shutdownGrace,
      /** Bytes queued towards one peer that does not read, before it is refused more. */
      writeBufferBytes: writeBuffer,
      sessionIdleTimeoutMs: sessionIdleTimeout,
      /** The idle timeout of a session that never opened a GET stream (a CLI client); sessionIdleTimeoutMs when that is shorter. */
      streamlessSessionIdleTimeoutMs: streamlessSessionIdleTimeout,
      /** Time a client has to send a whole HTTP request. */
      requestTimeoutMs: requestTimeout,
      /** How long serve waits for slow servers before serving. */
      startupWaitMs: startupWait,
      /** What one principal may hold of the HTTP face's sessions, streams, connections, calls. */
      perPrincipal: { ...perPrincipal, bytesInFlight: perPrincipal.bytesInFlight ?? Math.floor(counts.totalBytesInFlight / 2) },
      /** A connection with no authenticated request this long is shed first. */
      headersGraceMs: headersGrace,
      /** One whole fetch of a server's list, all pages. */
      listFetchTimeoutMs: listFetchTimeout,
      /** Refetches of one list after list_changed: at least this far apart, backing off up to the max. */
      listRefetchIntervalMs: listRefetchInterval,
      listRefetchMaxIntervalMs: listRefetchMaxInterval,
    },
    /** Where what replicas share lives (src/state/open-store.ts): Redis when `redis` is set, else memory. */
    state: {
      redis: data.state.redis,
      /** PEM files for TLS to Redis (absolute paths; read by the store at start). */
      tls: data.state.tls && { caFile: fileIn(baseDir, data.state.tls.ca), certFile: fileIn(baseDir, data.state.tls.cert), keyFile: fileIn(baseDir, data.state.tls.key) },
      keyPrefix: data.state.keyPrefix,
      maxEvents: data.state.maxEvents,
      maxEventBytes: data.state.maxEventBytes,
      heartbeatMs: data.state.heartbeat,
    },
    /** Per-user credentials: where they are kept, the connect pages, the bounds on per-user connections. */
    credentials: toCredentials(data.credentials, baseDir),
    /** The limits of a run_code run (codemode/limits.ts CodeModeLimits, one to one). */
    codeMode: toCodeLimits(data.codeMode),
    servers: entriesOf(data).map((e) =>
      // (A disabled server whose command or url held an unset variable keeps it as "".)
      e.s.command !== undefined ? toStdioServer(e, e.s.command, baseDir) : toHttpServer(e, e.s.url!, baseDir),
    ),
    ...toPolicyConfig(data, baseDir),
  };
}
