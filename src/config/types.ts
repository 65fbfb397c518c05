// The normalized, validated configuration every other module reads. The loader turns YAML (our
// shape or the Claude Desktop `mcpServers` shape) into this; nothing else parses config files.
// No config type here is written by hand: each is inferred from the schema (schema.ts) through the
// normalisation (normalize.ts, policy.ts), so types, defaults and mapping cannot drift apart.

import { GatewayError } from '../errors.js';
import type { toGatewayConfig, toHttpServer, toStdioServer } from './normalize.js';

export type { PerUser } from './normalize.js';

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

// `${user.NAME}` in a per-user server's headers (HTTP) or env (stdio) values: the user's own secret
// NAME, filled when that user's connection opens. The text stays in the config as written; `$${user.`
// in it is an escaped, literal `${user.` (the env substitution left it for the fill to decode).
const USER_REF = /\$\$\{user\.|\$\{user\.([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The secret names a headers or env value references, in order, each once. */
export function userRefNames(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(USER_REF)) if (m[1] !== undefined) names.add(m[1]);
  return [...names];
}

/**
 * A headers or env value with the user's secrets filled in (and `$${user.` made a literal
 * `${user.`). `missing` names the references `values` has no entry for (each filled with "").
 */
export function fillUserRefs(text: string, values: Readonly<Record<string, string>>): { value: string; missing: string[] } {
  const missing: string[] = [];
  const value = text.replace(USER_REF, (whole, name: string | undefined) => {
    if (name === undefined) return whole.slice(1);
    if (Object.hasOwn(values, name)) return values[name]!;
    if (!missing.includes(name)) missing.push(name);
    return '';
  });
  return { value, missing };
}
