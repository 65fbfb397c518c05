// The normalized, validated configuration every other module reads. The loader turns YAML (our
// shape or the Claude Desktop `mcpServers` shape) into this; nothing else parses config files.
// No config type here is written by hand: each is inferred from the schema (schema.ts) through the
// normalisation (normalize.ts, policy.ts), so types, defaults and mapping cannot drift apart.

import { GatewayError } from '../errors.js';
import type { toGatewayConfig, toHttpServer, toStdioServer } from './normalize.js';

export type GatewayConfig = ReturnType<typeof toGatewayConfig>;

export type StdioServerConfig = ReturnType<typeof toStdioServer>;
export type HttpServerConfig = ReturnType<typeof toHttpServer>;
export type ServerConfig = StdioServerConfig | HttpServerConfig;
export type HttpTransportKind = HttpServerConfig['transport'];

export type { FilterRules } from './schema-policy.js';

/** One client's view of the gateway (`clients[]`). Filters match EXPOSED names and URIs. */
export type ClientProfile = GatewayConfig['clients'][number];

export type NamingMode = GatewayConfig['naming']['mode'];
export type SanitizeAction = GatewayConfig['sanitize']['action'];
export type NewToolsPolicy = GatewayConfig['pinning']['newTools'];

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
    super('CONFIG_INVALID', (file ? `invalid config ${file}:\n` : 'invalid config:\n') + problems.map((p) => `  ${p.path ? `${p.path}: ` : ''}${p.message}`).join('\n'));
    this.name = 'ConfigError';
    this.problems = problems;
    this.file = file;
  }
}
