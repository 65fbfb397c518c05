// The user-facing shape of the config file as zod schemas, and the one place every default is set
// (`.prefault`, so that `60s` is read like a value in the file). What the loader validates (after
// `${VAR}` substitution), what its output types are inferred from, and, in its editor variant,
// what schema/switchboard.schema.json publishes. Cross-field rules live in cross-check.ts and policy.ts.

import * as z from 'zod';
import { listenAuthSchema } from './schema-auth.js';
import { DEFAULT_CODE_BUDGET, codeBudgetSchema, codeModeSchema } from './schema-code.js';
import { credentialsSchema } from './schema-credentials.js';
import { rootsSchema } from './schema-roots.js';
import { policySchemas } from './schema-policy.js';
import { serverSchemas } from './schema-server.js';
import { stateSchema } from './schema-state.js';
import {
  DEFAULT_DIRECTORY_BUDGET,
  SEPARATOR_PATTERN,
  alwaysVisibleSchema,
  directoryBudgetSchema,
  duration,
  isHttpUrl,
  isOrigin,
  nameSchema,
  orNullFor,
  size,
  substFor,
  tokenBudgetSchema,
  toolModeSchema,
} from './schema-values.js';

export { MAX_NAME_LENGTH, NAME_PATTERN, PREFIX_PATTERN, SEPARATOR_PATTERN } from './schema-values.js';

function build(editor: boolean) {
  const subst = substFor(editor);
  const orNull = orNullFor(editor);
  const policy = policySchemas(subst, orNull, nameSchema);
  const { server, claudeServer } = serverSchemas(subst, nameSchema);

  const listen = z
    .strictObject({
      host: z.string().min(1).prefault('127.0.0.1').meta({ description: 'Interface to listen on (default 127.0.0.1).' }),
      port: subst(z.int().min(0).max(65535)).prefault(8808).meta({ description: 'TCP port (default 8808); 0 picks a free port.' }),
      path: subst(z.string().regex(/^\//, { error: 'must start with /' }))
        .prefault('/mcp')
        .meta({ description: 'HTTP path of the MCP endpoint (default /mcp).' }),
      allowedOrigins: z
        .array(
          z.string().refine(isOrigin, {
            error: 'must be an origin like https://app.example.com: scheme, host and optional port, nothing after',
          }),
        )
        .prefault([])
        .meta({ description: 'Browser origins allowed besides loopback ones (default []).' }),
      // No default: absent means the loopback names and the listen host only (inbound/http-checks.ts).
      allowedHosts: z.array(z.string().min(1)).optional().meta({
        description:
          'Host header names (without port) a request may carry, against DNS rebinding (default: localhost, 127.0.0.1, [::1] and the listen host). Add the names clients use when you listen on a public address.',
      }),
      auth: listenAuthSchema(subst),
      // No default: absent means a random key per process (router/request-state.ts).
      // An empty value (`${SWITCHBOARD_STATE_KEY:-}` with the variable unset) is the same as none.
      stateKey: z
        .preprocess((v) => (v === '' ? undefined : v), z.string().min(32, { error: 'must be at least 32 characters (use a random secret, e.g. from ${SWITCHBOARD_STATE_KEY})' }).optional())
        .meta({
          description:
            'Secret (at least 32 characters) that signs list cursors and requestState tokens. Give every process behind one load balancer the same key so any of them accepts what another issued. Default: a random key per process. Read at start.',
        }),
    })
    .prefault({})
    .meta({ description: 'Where the gateway accepts MCP clients.' });

  const naming = z
    .strictObject({
      separator: subst(z.string().regex(SEPARATOR_PATTERN, { error: 'must be 1 to 8 of A-Z a-z 0-9 _ . -' }))
        .prefault('__')
        .meta({ description: 'Between prefix and name in exposed names (default "__").' }),
      mode: z.enum(['always', 'on-conflict']).prefault('always').meta({
        description: 'always (default) prefixes every name; on-conflict only names that collide.',
      }),
    })
    .prefault({})
    .meta({ description: 'How exposed tool and prompt names are namespaced.' });

  const toolName = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'must be 1 to 64 of A-Z a-z 0-9 _ - (a name every model API accepts)' });
  const catalog = z
    .strictObject({
      pageSize: subst(z.int().min(1).max(10000)).prefault(100).meta({ description: 'Items per page in list responses (default 100).' }),
      mode: toolModeSchema.prefault('auto').meta({
        description:
          'How tools/list shows tools: full (every tool), search (search_tools and call_tool, plus alwaysVisible), code (run_code and search_tools, plus alwaysVisible: the model writes one script against typed bindings of every tool, docs/code-mode.md), or auto (default: full while the list fits tokenBudget, search beyond it).',
      }),
      tokenBudget: tokenBudgetSchema(subst).prefault(10000).meta({ description: 'auto: the most tokens the full tool list may cost a model before search mode takes over (default 10000).' }),
      alwaysVisible: alwaysVisibleSchema.prefault([]).meta({ description: 'Exposed tool names (globs) listed in full in every mode, e.g. ["memory__*"] (default []).' }),
      searchTool: subst(toolName).prefault('search_tools').meta({ description: 'Name of the search tool of search mode (default search_tools). No server tool ever gets it.' }),
      callTool: subst(toolName).prefault('call_tool').meta({ description: 'Name of the tool that calls a found tool in search mode (default call_tool). No server tool ever gets it.' }),
      listServersTool: subst(toolName).prefault('list_servers').meta({
        description: 'Name of the tool of search mode that lists the servers, offered when the server directory exceeds directoryBudget (default list_servers). No server tool ever gets it.',
      }),
      runCodeTool: subst(toolName).prefault('run_code').meta({ description: 'Name of the tool of code mode that runs a script (default run_code). No server tool ever gets it.' }),
      codeBudget: codeBudgetSchema(subst)
        .prefault(DEFAULT_CODE_BUDGET)
        .meta({
          description: `code mode: the most tokens the TypeScript declarations of every callable tool may cost in run_code's description; past it, the description tells the model to search first (default ${DEFAULT_CODE_BUDGET}).`,
        }),
      directoryBudget: directoryBudgetSchema(subst)
        .prefault(DEFAULT_DIRECTORY_BUDGET)
        .meta({
          description: `search mode: the most tokens the server directory (one line per server, about 22 each) may cost in search_tools' description; past it, the listServersTool lists the servers instead (default ${DEFAULT_DIRECTORY_BUDGET}).`,
        }),
      embeddings: z
        .strictObject({
          url: z.string().refine(isHttpUrl, { error: 'must be an http:// or https:// URL' }).meta({ description: 'Base URL of an OpenAI-compatible API: POST {url}/embeddings.' }),
          model: z.string().min(1).meta({ description: 'Embedding model name, e.g. text-embedding-3-small.' }),
          headers: z.record(z.string(), z.string()).prefault({}).meta({ description: 'Headers sent with every request, e.g. Authorization (default {}).' }),
          timeout: subst(duration).prefault('2s').meta({ description: 'How long a search waits for vectors before it falls back to lexical ranking (default 2s).' }),
          cacheDir: z.string().min(1).optional().meta({ description: "Folder where vectors are cached by tool hash; relative to this file's folder." }),
        })
        .optional()
        .meta({ description: 'Optional semantic ranking: tool and query embeddings, fused with the lexical rank. Search keeps working (lexical) when the endpoint is down.' }),
    })
    .prefault({})
    .meta({ description: 'The merged catalog the gateway serves.' });

  const count = (max: number, fallback: number, description: string) => subst(z.int().min(1).max(max)).prefault(fallback).meta({ description });

  const limits = z
    .strictObject({
      maxMessageBytes: subst(size).prefault('16MiB').meta({ description: 'Largest accepted message: bytes, or 512KiB, 16MiB, 1MB (default 16MiB).' }),
      shutdownGrace: subst(duration).prefault('10s').meta({ description: 'On SIGINT/SIGTERM, how long calls in flight may take to finish (default 10s).' }),
      maxDepth: subst(z.int().min(16).max(2048)).prefault(512).meta({ description: 'Deepest nesting of arrays and objects accepted in a message, from a client or a server (default 512).' }),
      maxCallsPerSession: count(100_000, 64, 'Requests one client session may have in flight at once; more are refused at once (default 64).'),
      maxCallsPerServer: count(100_000, 256, 'Requests in flight to one server connection at once; more are refused at once (default 256).'),
      sessionBytesInFlight: subst(size).prefault('32MiB').meta({ description: 'Bytes of requests and replies one session may hold in the gateway at once (default 32MiB).' }),
      totalBytesInFlight: subst(size).prefault('128MiB').meta({ description: 'Bytes of requests and replies all sessions together may hold at once (default 128MiB).' }),
      writeBuffer: subst(size)
        .prefault('32MiB')
        .meta({ description: "Bytes queued towards one peer that is not reading (a server's stdin, the stdio client) before it is refused more (default 32MiB)." }),
      maxSessions: count(1_000_000, 1000, 'HTTP sessions open at once; a new initialize beyond it gets 503 (default 1000).'),
      sessionIdleTimeout: subst(duration).prefault('1h').meta({ description: 'An HTTP session with no request in flight and no open stream for this long is closed (default 1h).' }),
      streamlessSessionIdleTimeout: subst(duration)
        .prefault('5m')
        .meta({ description: 'The same for an HTTP session that never opened a GET stream (a CLI client or a script, which often leave without DELETE); at most sessionIdleTimeout (default 5m).' }),
      maxSubscriptionsPerSession: count(
        1_000_000,
        1000,
        'Resource subscriptions one client session may hold (resources/subscribe and its listen streams together); more are refused at once (default 1000).',
      ),
      maxSubscriptions: count(10_000_000, 10_000, 'Resource subscriptions all sessions together may hold; more are refused at once (default 10000).'),
      maxIsolatedConnections: count(100_000, 32, 'Per-session connections (isolation: per-session) open at once, across all servers (default 32).'),
      maxConnections: count(1_000_000, 512, 'TCP connections the HTTP face accepts at once; more are closed at once (default 512).'),
      requestTimeout: subst(duration).prefault('30s').meta({ description: 'How long a client may take to send a whole HTTP request, headers and body (default 30s).' }),
      startupWait: subst(duration).prefault('5s').meta({ description: 'How long serve waits for slow servers before it starts serving; late servers join with list_changed (default 5s).' }),
      perPrincipal: z
        .strictObject({
          sessions: count(1_000_000, 100, 'HTTP sessions one principal may hold; at it, its idlest session ends for a new one, or 429 when all are busy (default 100).'),
          streams: count(1_000_000, 100, 'GET and subscriptions/listen streams one principal may hold open; more get 429 (default 100).'),
          connections: count(1_000_000, 128, 'TCP connections charged to one principal; at it, its oldest idle one closes for a new one, or 429 when all are busy (default 128).'),
          callsInFlight: count(1_000_000, 128, 'Requests one principal may have in flight across all its sessions; more get 429 (default 128).'),
          // No default: absent means half of totalBytesInFlight, whatever that is set to (normalize.ts).
          bytesInFlight: subst(size)
            .optional()
            .meta({ description: 'Bytes of requests and replies all sessions of one principal may hold at once; beyond it 429 (default: half of totalBytesInFlight).' }),
          unauthenticatedConnections: count(
            1_000_000,
            32,
            'Per remote address: connections on which no request was authenticated yet; when the address opens one beyond it, those older than headersGrace close (default 32).',
          ),
        })
        .prefault({})
        .meta({
          description:
            'What one principal may hold of the HTTP face: a principal is a client profile (its token), an OAuth subject, or, without a token, one remote address (an IPv6 /64). Read at start.',
        }),
      headersGrace: subst(duration)
        .prefault('1s')
        .meta({ description: 'A connection with no authenticated request this long after it opened is the first closed when connections run short (default 1s).' }),
      maxListItems: count(10_000_000, 20_000, "Items one server's list (tools, prompts, resources or templates, all pages) may hold; a server over it is failed (default 20000)."),
      maxListBytes: subst(size).prefault('32MiB').meta({ description: "Bytes of answers one fetch of a server's list (all pages) may bring; a server over it is failed (default 32MiB)." }),
      listFetchTimeout: subst(duration).prefault('60s').meta({ description: "How long one fetch of a server's list (all pages) may take; past it the server is down and reconnects (default 60s)." }),
      listRefetchInterval: subst(duration)
        .prefault('1s')
        .meta({ description: 'Shortest time between two fetches of one list of one server after list_changed; doubles while changes keep coming (default 1s).' }),
      listRefetchMaxInterval: subst(duration).prefault('30s').meta({ description: 'Longest time a list_changed waits for its fetch while a server keeps announcing changes (default 30s).' }),
    })
    .prefault({})
    .meta({ description: 'Resource limits.' });

  const config = z
    .strictObject({
      $schema: z.string().optional().meta({ description: 'JSON Schema reference for editors; ignored.' }),
      listen,
      naming,
      catalog,
      limits,
      codeMode: codeModeSchema(subst),
      servers: orNull(z.array(server), []).meta({ description: 'The MCP servers behind the gateway.' }),
      mcpServers: orNull(z.record(z.string(), claudeServer), {}).meta({
        description: 'Servers in the Claude Desktop shape (name: entry); merged with servers.',
      }),
      clients: policy.clients,
      roots: rootsSchema.optional(),
      stdio: policy.stdio,
      sanitize: policy.sanitize,
      pinning: policy.pinning,
      state: stateSchema(subst),
      credentials: credentialsSchema(subst),
      registry: z
        .strictObject({
          url: subst(z.string().refine(isHttpUrl, { error: 'must be an http:// or https:// URL' })).meta({
            description: 'Base URL of an MCP Registry (API v0.1), e.g. a private one (default: https://registry.modelcontextprotocol.io).',
          }),
        })
        .optional()
        .meta({ description: 'Where `switchboard registry search` and `switchboard add` look servers up. The gateway itself never reads it.' }),
    })
    .meta({
      title: 'Switchboard configuration',
      description: 'Configuration of Switchboard, the MCP gateway. Strings may use ${VAR} and ${VAR:-default}.',
    });

  return { config, server, claudeServer };
}

const validation = build(false);

/** Validates a config file's content after `${VAR}` substitution; its output has every default filled in. */
export const configSchema = validation.config;
export type UserConfig = z.output<typeof configSchema>;
export type UserServer = z.output<typeof validation.server>;
export type UserClaudeServer = z.output<typeof validation.claudeServer>;

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
  return `${JSON.stringify({ $schema, title, description, ...rest }, null, 2)}\n`;
}
