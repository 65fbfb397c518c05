// The user-facing shape of the config file as zod schemas: what the loader validates (after
// `${VAR}` substitution) and, in its editor variant, what schema/switchboard.schema.json publishes.
// Policy sections come from schema-policy.ts; cross-field rules live in normalize.ts and policy.ts.

import { z } from 'zod';
import { DURATION_PATTERN, MAX_DURATION_MS, MAX_SIZE_BYTES, SIZE_PATTERN, parseDuration, parseSize } from './duration.js';
import { filterSchema, policySchemas } from './schema-policy.js';

export const NAME_PATTERN = /^[a-z0-9-]+$/;
export const PREFIX_PATTERN = /^[A-Za-z0-9_.-]{0,64}$/;
export const SEPARATOR_PATTERN = /^[A-Za-z0-9_.-]{1,8}$/;
export const MAX_NAME_LENGTH = 64;

const isHttpUrl = (s: string): boolean => {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};

/** An Origin header value: scheme, host and optional port, exactly as browsers send it. */
const isOrigin = (s: string): boolean => {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === s;
  } catch {
    return false;
  }
};

function build(editor: boolean) {
  // In the editor variant a number, boolean or patterned field may also hold a `${VAR}` reference,
  // so that editors do not flag `port: ${PORT:-8808}`; the loader coerces the substituted text.
  const envRef = z.string().regex(/\$\{/).meta({ description: 'A ${VAR} or ${VAR:-default} reference.' });
  // (Typed as T: the union only ever reaches the JSON Schema, never validation.)
  const subst = <T extends z.ZodType>(s: T): T => (editor ? (z.union([s, envRef]) as unknown as T) : s);

  const filter = filterSchema;

  const duration = z.union(
    [
      z.number().positive().max(MAX_DURATION_MS),
      z
        .string()
        .regex(new RegExp(DURATION_PATTERN), { error: 'must be a duration like 500ms, 60s, 2m or 1h', abort: true })
        .refine((s) => {
          const ms = parseDuration(s);
          return ms !== undefined && ms > 0 && ms <= MAX_DURATION_MS;
        }, { error: `must be greater than 0 and at most ${MAX_DURATION_MS}ms (about 24 days)` }),
    ],
    { error: 'must be a duration: milliseconds, or a string like 500ms, 60s, 2m or 1h' },
  );

  const size = z.union(
    [
      z.int().min(1).max(MAX_SIZE_BYTES),
      z
        .string()
        .regex(new RegExp(SIZE_PATTERN), { error: 'must be a size like 512KiB, 16MiB or 1MB', abort: true })
        .refine((s) => {
          const n = parseSize(s);
          return n !== undefined && n >= 1 && n <= MAX_SIZE_BYTES;
        }, { error: 'must be at least 1 byte and at most 1GiB' }),
    ],
    { error: 'must be a size: bytes, or a string like 512KiB, 16MiB or 1MB' },
  );

  const stringMap = (description: string) => z.record(z.string(), z.string()).optional().meta({ description });

  // Keys shared by both shapes of a server entry.
  const serverKeys = {
    command: z.string().min(1).optional().meta({
      description: 'Stdio server: the program to run, looked up on PATH. Give either command or url.',
    }),
    args: z.array(z.string()).optional().meta({ description: 'Stdio server: arguments (default []).' }),
    env: stringMap('Stdio server: environment variables for the child, on top of the minimal one it gets (see inheritEnv).'),
    inheritEnv: z
      .union([z.boolean(), z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: 'must be an environment variable name' }))])
      .optional()
      .meta({
        description:
          "Stdio server: which of the gateway's environment variables the child sees besides HOME, LOGNAME, PATH, SHELL, TERM, USER (and the entry's env). true passes all of them; a list passes those named (default: none).",
      }),
    cwd: z.string().min(1).optional().meta({
      description: "Stdio server: working folder; relative paths are resolved against this file's folder (the default).",
    }),
    url: z
      .string()
      .refine(isHttpUrl, { error: 'must be an http:// or https:// URL' })
      .optional()
      .meta({ description: 'HTTP server: the MCP endpoint URL (http: or https:). Give either command or url.' }),
    transport: z.enum(['auto', 'streamable-http', 'sse']).optional().meta({
      description: 'HTTP server: auto (default) tries Streamable HTTP, then falls back to the legacy SSE transport.',
    }),
    headers: stringMap('HTTP server: extra HTTP headers sent with every request, e.g. Authorization.'),
    prefix: subst(
      z.string().regex(PREFIX_PATTERN, { error: 'must be at most 64 of A-Z a-z 0-9 _ . -' }),
    )
      .optional()
      .meta({ description: 'Namespace for exposed tool and prompt names (default: the name). "" exposes names unprefixed.' }),
    tools: filter('Tools', "server's original tool name"),
    prompts: filter('Prompts', "server's original prompt name"),
    resources: filter('Resources', 'resource URI'),
    timeout: subst(duration)
      .optional()
      .meta({ description: 'Per-request timeout: milliseconds or 500ms, 60s, 2m, 1h (default 60s).' }),
    isolation: z.enum(['shared', 'per-session']).optional().meta({
      description:
        'shared (default): one connection serves every client. per-session: each client session gets its own connection (a process per session for stdio), so server requests such as sampling and roots/list always reach the right client.',
    }),
    reconnect: z
      .strictObject({
        initialDelay: subst(duration).optional().meta({ description: 'First wait before reconnecting (default 500ms); doubles each failure.' }),
        maxDelay: subst(duration).optional().meta({ description: 'Longest wait between attempts (default 30s).' }),
        maxFailures: subst(z.int().min(1).max(1000))
          .optional()
          .meta({ description: 'Failures in a row (a connection up 30s resets the count) before giving up: the crash-loop limit (default 10).' }),
      })
      .optional()
      .meta({ description: 'Reconnecting after the server fails to start or drops: exponential backoff with jitter.' }),
    downtimeGrace: subst(duration)
      .optional()
      .meta({ description: "How long a dropped server's tools, prompts and resources stay listed while it reconnects (default 30s)." }),
    startupTimeout: subst(duration)
      .optional()
      .meta({ description: 'How long connecting, the handshake and fetching the lists may take in all (default 30s).' }),
  };

  const name = z.string().regex(NAME_PATTERN, { error: 'must be lowercase letters, digits and -' }).max(MAX_NAME_LENGTH);
  const policy = policySchemas(subst, name);

  const server = z
    .strictObject({
      name: name.meta({ description: 'Unique server name: lowercase letters, digits and -.' }),
      ...serverKeys,
      enabled: subst(z.boolean()).optional().meta({ description: 'false skips this server (default true).' }),
    })
    .meta({ description: 'An MCP server: stdio (command) or HTTP (url).' });

  const claudeServer = z
    .strictObject({
      ...serverKeys,
      type: z.enum(['stdio', 'http', 'streamable-http', 'sse']).optional().meta({
        description: 'Claude Desktop style transport: stdio, http / streamable-http, or sse.',
      }),
      disabled: subst(z.boolean()).optional().meta({ description: 'true skips this server (default false).' }),
      enabled: subst(z.boolean()).optional().meta({ description: 'false skips this server (default true).' }),
    })
    .meta({ description: 'An MCP server in the Claude Desktop shape; its key is its name.' });

  const config = z
    .strictObject({
      $schema: z.string().optional().meta({ description: 'JSON Schema reference for editors; ignored.' }),
      listen: z
        .strictObject({
          host: z.string().min(1).optional().meta({ description: 'Interface to listen on (default 127.0.0.1).' }),
          port: subst(z.int().min(0).max(65535))
            .optional()
            .meta({ description: 'TCP port (default 8808); 0 picks a free port.' }),
          path: subst(z.string().regex(/^\//, { error: 'must start with /' }))
            .optional()
            .meta({ description: 'HTTP path of the MCP endpoint (default /mcp).' }),
          allowedOrigins: z
            .array(
              z.string().refine(isOrigin, {
                error: 'must be an origin like https://app.example.com: scheme, host and optional port, nothing after',
              }),
            )
            .optional()
            .meta({ description: 'Browser origins allowed besides loopback ones (default []).' }),
          allowedHosts: z
            .array(z.string().min(1))
            .optional()
            .meta({
              description:
                'Host header names (without port) a request may carry, against DNS rebinding (default: localhost, 127.0.0.1, [::1] and the listen host). Add the names clients use when you listen on a public address.',
            }),
        })
        .optional()
        .meta({ description: 'Where the gateway accepts MCP clients.' }),
      naming: z
        .strictObject({
          separator: subst(
            z.string().regex(SEPARATOR_PATTERN, { error: 'must be 1 to 8 of A-Z a-z 0-9 _ . -' }),
          )
            .optional()
            .meta({ description: 'Between prefix and name in exposed names (default "__").' }),
          mode: z.enum(['always', 'on-conflict']).optional().meta({
            description: 'always (default) prefixes every name; on-conflict only names that collide.',
          }),
        })
        .optional()
        .meta({ description: 'How exposed tool and prompt names are namespaced.' }),
      catalog: z
        .strictObject({
          pageSize: subst(z.int().min(1).max(10000))
            .optional()
            .meta({ description: 'Items per page in list responses (default 100).' }),
        })
        .optional()
        .meta({ description: 'The merged catalog the gateway serves.' }),
      limits: z
        .strictObject({
          maxMessageBytes: subst(size)
            .optional()
            .meta({ description: 'Largest accepted message: bytes, or 512KiB, 16MiB, 1MB (default 16MiB).' }),
          shutdownGrace: subst(duration)
            .optional()
            .meta({ description: 'On SIGINT/SIGTERM, how long calls in flight may take to finish (default 10s).' }),
          maxDepth: subst(z.int().min(16).max(2048))
            .optional()
            .meta({ description: 'Deepest nesting of arrays and objects accepted in a message, from a client or a server (default 512).' }),
          maxCallsPerSession: subst(z.int().min(1).max(100_000))
            .optional()
            .meta({ description: 'Requests one client session may have in flight at once; more are refused at once (default 64).' }),
          maxCallsPerServer: subst(z.int().min(1).max(100_000))
            .optional()
            .meta({ description: 'Requests in flight to one server connection at once; more are refused at once (default 256).' }),
          sessionBytesInFlight: subst(size)
            .optional()
            .meta({ description: 'Bytes of requests and replies one session may hold in the gateway at once (default 32MiB).' }),
          totalBytesInFlight: subst(size)
            .optional()
            .meta({ description: 'Bytes of requests and replies all sessions together may hold at once (default 128MiB).' }),
          writeBuffer: subst(size)
            .optional()
            .meta({ description: 'Bytes queued towards one peer that is not reading (a server\'s stdin, the stdio client) before it is refused more (default 32MiB).' }),
          maxSessions: subst(z.int().min(1).max(1_000_000))
            .optional()
            .meta({ description: 'HTTP sessions open at once; a new initialize beyond it gets 503 (default 1000).' }),
          sessionIdleTimeout: subst(duration)
            .optional()
            .meta({ description: 'An HTTP session with no request in flight and no open stream for this long is closed (default 1h).' }),
          maxIsolatedConnections: subst(z.int().min(1).max(100_000))
            .optional()
            .meta({ description: 'Per-session connections (isolation: per-session) open at once, across all servers (default 32).' }),
          maxConnections: subst(z.int().min(1).max(1_000_000))
            .optional()
            .meta({ description: 'TCP connections the HTTP face accepts at once; more are closed at once (default 512).' }),
          requestTimeout: subst(duration)
            .optional()
            .meta({ description: 'How long a client may take to send a whole HTTP request, headers and body (default 30s).' }),
          startupWait: subst(duration)
            .optional()
            .meta({ description: 'How long serve waits for slow servers before it starts serving; late servers join with list_changed (default 5s).' }),
        })
        .optional()
        .meta({ description: 'Resource limits.' }),
      servers: z.array(server).nullable().optional().meta({ description: 'The MCP servers behind the gateway.' }),
      mcpServers: z
        .record(z.string(), claudeServer)
        .nullable()
        .optional()
        .meta({ description: 'Servers in the Claude Desktop shape (name: entry); merged with servers.' }),
      clients: policy.clients,
      stdio: policy.stdio,
      sanitize: policy.sanitize,
      pinning: policy.pinning,
    })
    .meta({
      title: 'Switchboard configuration',
      description: 'Configuration of Switchboard, the MCP gateway. Strings may use ${VAR} and ${VAR:-default}.',
    });

  return { config, server, claudeServer };
}

const validation = build(false);

/** Validates a config file's content after `${VAR}` substitution. */
export const configSchema = validation.config;
export type UserConfig = z.infer<typeof configSchema>;
export type UserServer = z.infer<typeof validation.server>;
export type UserClaudeServer = z.infer<typeof validation.claudeServer>;

type Segment = string | number;
type AnySchema = z.core.$ZodType;

/** The schemas that may describe the value at `path` (several where a union allows several). */
export function schemasAt(path: readonly Segment[], root: AnySchema = configSchema): AnySchema[] {
  let current: AnySchema[] = [root];
  for (const seg of path) {
    const next: AnySchema[] = [];
    for (const s of current.flatMap(expand)) {
      const def = s._zod.def as unknown as Record<string, unknown>;
      if (def.type === 'object' && typeof seg === 'string') {
        const child = (def.shape as Record<string, AnySchema>)[seg];
        if (child) next.push(child);
      } else if (def.type === 'array' && typeof seg === 'number') next.push(def.element as AnySchema);
      else if (def.type === 'record' && typeof seg === 'string') next.push(def.valueType as AnySchema);
    }
    current = next;
  }
  return current.flatMap(expand);
}

/** Unwraps optional/nullable and spreads unions. */
function expand(s: AnySchema): AnySchema[] {
  const def = s._zod.def as unknown as Record<string, unknown>;
  if (def.type === 'optional' || def.type === 'nullable') return expand(def.innerType as AnySchema);
  if (def.type === 'union') return (def.options as AnySchema[]).flatMap(expand);
  return [s];
}

/** The keys an object at `path` may have (for "did you mean" hints). */
export function knownKeysAt(path: readonly Segment[]): string[] {
  return schemasAt(path).flatMap((s) => {
    const def = s._zod.def as unknown as Record<string, unknown>;
    return def.type === 'object' ? Object.keys(def.shape as object) : [];
  });
}

/** Whether the value at `path` may be a number / a boolean (to coerce substituted text). */
export function scalarKindsAt(path: readonly Segment[]): { number: boolean; boolean: boolean } {
  const types = new Set(schemasAt(path).map((s) => s._zod.def.type));
  return { number: types.has('number'), boolean: types.has('boolean') };
}

/**
 * The JSON Schema for editors (yaml-language-server, VS Code), pretty-printed with a trailing
 * newline: exactly the content of schema/switchboard.schema.json.
 */
export function renderJsonSchema(): string {
  const editorSchemas = build(true);
  const json = z.toJSONSchema(editorSchemas.config, {
    io: 'input',
    target: 'draft-2020-12',
    override: (ctx) => {
      // Exactly one of command (stdio) or url (HTTP) per server.
      if (ctx.zodSchema === editorSchemas.server || ctx.zodSchema === editorSchemas.claudeServer) {
        ctx.jsonSchema.oneOf = [{ required: ['command'] }, { required: ['url'] }];
      }
    },
  }) as Record<string, unknown>;
  const { $schema, title, description, ...rest } = json;
  return JSON.stringify({ $schema, title, description, ...rest }, null, 2) + '\n';
}
