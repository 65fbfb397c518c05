// The normalized, validated configuration every other module reads. The loader turns YAML (our
// shape or the Claude Desktop `mcpServers` shape) into this; nothing else parses config files.

import { GatewayError } from '../errors.js';

export interface FilterRules {
  /**
   * Globs matched against the name (tools, prompts) or URI (resources): for a server, its own
   * original names; for a client profile, the exposed ones.
   */
  allow: string[];
  /** Deny wins over allow. */
  deny: string[];
}

export type NamingMode = 'always' | 'on-conflict';

interface ServerConfigBase {
  /** `[a-z0-9-]+`, unique. */
  name: string;
  /** Namespace for exposed tool/prompt names. Defaults to `name`. `""` exposes names unprefixed. */
  prefix: string;
  enabled: boolean;
  /** Per-request timeout towards this server, milliseconds. */
  timeoutMs: number;
  /** Connecting, the handshake and fetching every list, in all, milliseconds. */
  startupTimeoutMs: number;
  /**
   * `shared`: one connection for every session. `per-session`: each session gets its own
   * connection, opened on first use, carrying that client's capabilities (roots, sampling,
   * elicitation); the shared one still feeds the catalog.
   */
  isolation: 'shared' | 'per-session';
  /** Backoff after a failed start or a drop (see outbound/backoff.ts). */
  reconnect: { initialDelayMs: number; maxDelayMs: number; maxFailures: number };
  /** How long a dropped server's items stay listed while it reconnects. */
  downtimeGraceMs: number;
  tools: FilterRules;
  prompts: FilterRules;
  resources: FilterRules;
}

export interface StdioServerConfig extends ServerConfigBase {
  kind: 'stdio';
  command: string;
  args: string[];
  /** Extra environment for the child, `${VAR}` already substituted, over the minimal base one. */
  env: Record<string, string>;
  /** Which of the gateway's own variables the child also gets: none (false), all (true), or those named. */
  inheritEnv: boolean | string[];
  /** Absolute; relative paths in the file are resolved against the config file's folder. */
  cwd: string;
}

export type HttpTransportKind = 'auto' | 'streamable-http' | 'sse';

export interface HttpServerConfig extends ServerConfigBase {
  kind: 'http';
  url: string;
  transport: HttpTransportKind;
  headers: Record<string, string>;
}

export type ServerConfig = StdioServerConfig | HttpServerConfig;

/** One client's view of the gateway (`clients[]`). Filters match EXPOSED names and URIs. */
export interface ClientProfile {
  /** `[a-z0-9-]+`, unique among clients. */
  name: string;
  /** Bearer token selecting this profile on HTTP; unique. Absent: usable only as the stdio profile. */
  token?: string;
  tools: FilterRules;
  prompts: FilterRules;
  resources: FilterRules;
  /** Only tools annotated `readOnlyHint: true`. */
  readOnly: boolean;
  /** May read the operator views (GET /status). */
  operator: boolean;
  naming: {
    /** 1..128. At 64 or less names are also limited to `[A-Za-z0-9_-]` (no `.`). */
    maxLength: number;
  };
}

export type SanitizeAction = 'warn' | 'strip' | 'block';
export type NewToolsPolicy = 'allow' | 'hold';

export interface GatewayConfig {
  listen: {
    host: string;
    port: number;
    path: string;
    /** Origins allowed besides the loopback ones (http(s)://localhost|127.0.0.1|[::1][:port]). */
    allowedOrigins: string[];
    /** Host header names allowed (no port); absent: loopback names plus the bound address. */
    allowedHosts?: string[];
  };
  naming: {
    separator: string;
    mode: NamingMode;
  };
  catalog: {
    pageSize: number;
  };
  limits: {
    maxMessageBytes: number;
    /** How long calls in flight may take to finish at shutdown. */
    shutdownGraceMs: number;
    /** Deepest nesting of arrays/objects accepted in any message. */
    maxDepth: number;
    maxCallsPerSession: number;
    maxCallsPerServer: number;
    sessionBytesInFlight: number;
    totalBytesInFlight: number;
    /** Bytes queued towards one peer that does not read, before it is refused more. */
    writeBufferBytes: number;
    maxSessions: number;
    sessionIdleTimeoutMs: number;
    maxIsolatedConnections: number;
    /** TCP connections the HTTP face accepts at once. */
    maxConnections: number;
    /** Time a client has to send a whole HTTP request. */
    requestTimeoutMs: number;
    /** How long serve waits for slow servers before serving. */
    startupWaitMs: number;
  };
  servers: ServerConfig[];
  /** Empty: no client profiles, every HTTP request is served the whole catalog. */
  clients: ClientProfile[];
  /** The profile the stdio face serves (a name in `clients`); absent: the whole catalog. */
  stdioClient?: string;
  sanitize: {
    /** At least 16. */
    maxDescriptionLength: number;
    action: SanitizeAction;
    /** Also clean the text content of tool results. */
    results: boolean;
    /** Absolute path of the JSON-lines audit file; absent: audit entries go to the log. */
    auditLog?: string;
  };
  pinning: {
    /** Absolute path. */
    lockFile: string;
    newTools: NewToolsPolicy;
  };
}

export interface ConfigProblem {
  /** Where in the file, e.g. `servers[2].url` or `mcpServers.github.command`. `""` for the whole file. */
  path: string;
  message: string;
}

/** Thrown by the loader: CONFIG_INVALID, with one entry per problem, all of them, not just the first. */
export class ConfigError extends GatewayError {
  readonly problems: ConfigProblem[];
  readonly file?: string;
  constructor(problems: ConfigProblem[], file?: string) {
    super(
      'CONFIG_INVALID',
      (file ? `invalid config ${file}:\n` : 'invalid config:\n') +
        problems.map((p) => `  ${p.path ? p.path + ': ' : ''}${p.message}`).join('\n'),
    );
    this.name = 'ConfigError';
    this.problems = problems;
    this.file = file;
  }
}
