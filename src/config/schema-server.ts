// The two shapes of a server entry (ours in `servers`, Claude Desktop's in `mcpServers`) as zod
// schemas, each key with its default. Rules across keys (command xor url, `type` against the rest)
// live in cross-check.ts; the mapping onto ServerConfig in normalize.ts.

import * as z from 'zod';
import { serverAuthSchema } from './schema-auth.js';
import { filterSchema, resourceFilterSchema } from './schema-policy.js';
import { PREFIX_PATTERN, duration, isHttpUrl, size, type Subst } from './schema-values.js';

/** A `${user.NAME}` secret name (and a `userSecrets` key). */
export const USER_SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const TRANSPORTS = ['auto', 'streamable-http', 'sse'] as const;
export const CLAUDE_TYPES = ['stdio', 'http', 'streamable-http', 'sse'] as const;
/**
 * Which protocol era to speak to a server: detect it, or pin one of the two. `legacy` is the
 * old spelling of `stateful`, still accepted (normalize.ts reads it as `stateful`).
 */
export const PROTOCOLS = ['auto', '2026-07-28', 'stateful', 'legacy'] as const;

/** `servers[]` and `mcpServers.*`; `name` is the server-name schema. */
export function serverSchemas(subst: Subst, name: z.ZodString) {
  const stringMap = (description: string) => z.record(z.string(), z.string()).prefault({}).meta({ description });

  // Keys shared by both shapes. Stdio-only keys get their defaults on HTTP entries too (and the
  // other way round); normalize.ts picks the keys of the entry's kind.
  const serverKeys = {
    command: z.string().min(1).optional().meta({
      description: 'Stdio server: the program to run, looked up on PATH. Give either command or url.',
    }),
    args: z.array(z.string()).prefault([]).meta({ description: 'Stdio server: arguments (default []).' }),
    env: stringMap(
      "Stdio server: environment variables for the child (default {}), on top of the minimal environment it gets (see inheritEnv). A value may hold ${user.NAME}: each user's own secret NAME, which makes the server per-user (a process per user).",
    ),
    inheritEnv: z
      .union([z.boolean(), z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: 'must be an environment variable name' }))])
      .prefault(false)
      .meta({
        description:
          "Stdio server: which of the gateway's environment variables the child sees besides HOME, LOGNAME, PATH, SHELL, TERM, USER (and the entry's env). true passes all of them; a list passes those named (default false).",
      }),
    cwd: z.string().min(1).prefault('.').meta({
      description: 'Stdio server: working folder; a relative path is resolved against this file\'s folder (default ".").',
    }),
    url: z
      .string()
      .refine(isHttpUrl, { error: 'must be an http:// or https:// URL' })
      .optional()
      .meta({ description: 'HTTP server: the MCP endpoint URL (http: or https:). Give either command or url.' }),
    transport: z.enum(TRANSPORTS).prefault('auto').meta({
      description: 'HTTP server: auto (default) tries Streamable HTTP, then falls back to the legacy SSE transport.',
    }),
    headers: stringMap(
      "HTTP server: extra HTTP headers sent with every request, e.g. Authorization (default {}). A value may hold ${user.NAME}: each user's own secret NAME, which makes the server per-user.",
    ),
    auth: serverAuthSchema(subst),
    userSecrets: z
      .record(z.string().regex(USER_SECRET_NAME, { error: 'must be a secret name: letters, digits and _, not starting with a digit' }), z.string().trim().min(1).max(200))
      .optional()
      .meta({
        description:
          'Per-user server: what each ${user.NAME} of headers or env is, as the connect page asks for it, e.g. { GITHUB_TOKEN: "A GitHub personal access token with repo scope" } (default: the name alone).',
      }),
    description: z.string().trim().min(1).max(200).optional().meta({
      description:
        'What this server is for, in one short line (e.g. "Issues, pull requests and code of our GitHub org"): the server directory search mode shows models. Default: what the server says of itself, else its tools\' words.',
    }),
    prefix: subst(z.string().regex(PREFIX_PATTERN, { error: 'must be at most 64 of A-Z a-z 0-9 _ . -' }))
      .optional()
      .meta({ description: 'Namespace for exposed tool and prompt names (default: the name). "" exposes names unprefixed.' }),
    tools: filterSchema('Tools', "server's original tool name"),
    prompts: filterSchema('Prompts', "server's original prompt name"),
    resources: resourceFilterSchema('resource URI'),
    timeout: subst(duration).prefault('60s').meta({ description: 'Per-request timeout: milliseconds or 500ms, 60s, 2m, 1h (default 60s).' }),
    isolation: z.enum(['shared', 'per-session']).prefault('shared').meta({
      description:
        'shared (default): one connection serves every client. per-session: each client session gets its own connection (a process per session for stdio), so server requests such as sampling and roots/list always reach the right client.',
    }),
    reconnect: z
      .strictObject({
        initialDelay: subst(duration).prefault('500ms').meta({ description: 'First wait before reconnecting (default 500ms); doubles each failure.' }),
        maxDelay: subst(duration).prefault('30s').meta({ description: 'Longest wait between attempts (default 30s).' }),
        maxFailures: subst(z.int().min(1).max(1000))
          .prefault(10)
          .meta({ description: 'Failures in a row (a connection up 30s resets the count) before giving up: the crash-loop limit (default 10).' }),
      })
      .prefault({})
      .meta({ description: 'Reconnecting after the server fails to start or drops: exponential backoff with jitter.' }),
    downtimeGrace: subst(duration).prefault('30s').meta({ description: "How long a dropped server's tools, prompts and resources stay listed while it reconnects (default 30s)." }),
    protocol: z.enum(PROTOCOLS).prefault('auto').meta({
      description:
        'Protocol era to speak: auto (default) probes with server/discover and falls back to the initialize handshake; 2026-07-28 speaks only the stateless revision; stateful (formerly legacy, still accepted) skips the probe (initialize only).',
    }),
    listLimits: z
      .strictObject({
        maxItems: subst(z.int().min(1).max(10_000_000)).optional().meta({ description: 'Overrides limits.maxListItems for this server.' }),
        maxBytes: subst(size).optional().meta({ description: 'Overrides limits.maxListBytes for this server.' }),
        fetchTimeout: subst(duration).optional().meta({ description: 'Overrides limits.listFetchTimeout for this server.' }),
      })
      .optional()
      .meta({ description: "This server's own bounds on its lists, for one known to be larger or slower than the rest (default: the limits.* ones)." }),
    startupTimeout: subst(duration).prefault('30s').meta({ description: 'How long connecting, the handshake and fetching the lists may take in all (default 30s).' }),
  };
  const enabled = subst(z.boolean()).prefault(true).meta({ description: 'false skips this server (default true).' });

  const server = z
    .strictObject({
      name: name.meta({ description: 'Unique server name: lowercase letters, digits and -.' }),
      ...serverKeys,
      enabled,
    })
    .meta({ description: 'An MCP server: stdio (command) or HTTP (url).' });

  const claudeServer = z
    .strictObject({
      ...serverKeys,
      type: z.enum(CLAUDE_TYPES).optional().meta({
        description: 'Claude Desktop style transport: stdio, http / streamable-http, or sse.',
      }),
      disabled: subst(z.boolean()).prefault(false).meta({ description: 'true skips this server (default false).' }),
      enabled,
    })
    .meta({ description: 'An MCP server in the Claude Desktop shape; its key is its name.' });

  return { server, claudeServer };
}
