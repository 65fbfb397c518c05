// The policy-and-safety parts of the config file's zod schema, each key with its default:
// allow/deny filters, client profiles, the stdio profile, sanitizing and tool pinning. schema.ts
// composes them; cross-field rules (unique client names and tokens, stdio.client names a client,
// valid globs) live in policy.ts.

import * as z from 'zod';
import { clientMatchSchema } from './schema-auth.js';
import { codeBudgetSchema } from './schema-code.js';
import { rootsSchema } from './schema-roots.js';
import { alwaysVisibleSchema, directoryBudgetSchema, tokenBudgetSchema, toolModeSchema, type OrNull, type Subst } from './schema-values.js';

const globs = z.array(z.string()).meta({ description: 'Glob patterns; * matches any characters, including /.' });

/**
 * `{ allow, deny }`, or a bare list as shorthand for `{ allow: [...] }`. Either way the output is
 * `{ allow, deny }`: the shorthand goes through the mapping's schema, which fills in deny.
 */
export function filterSchema(what: string, against: string) {
  const rules = z.strictObject({
    allow: globs.prefault(['*']).meta({ description: `${what} to expose (default ["*"]).` }),
    deny: globs.prefault([]).meta({ description: `${what} to hide; deny wins over allow (default []).` }),
  });
  return z
    .union([globs.transform((allow): z.input<typeof rules> => ({ allow })).pipe(rules), rules])
    .prefault({})
    .meta({
      description: `Which ${what.toLowerCase()} to expose, matched against the ${against}. A list is shorthand for { allow: [...] }.`,
    });
}

/**
 * Globs matched against the name (tools, prompts) or URI (resources): for a server, its own
 * original names; for a client profile, the exposed ones. Deny wins over allow. Every filter
 * comes out of validation in this shape, whichever way it was written.
 */
export type FilterRules = z.output<ReturnType<typeof filterSchema>>;

/** How resource rules compare `file:` paths; `auto` is `insensitive` on macOS and Windows (config/policy.ts). */
export const FILE_CASES = ['auto', 'sensitive', 'insensitive'] as const;

/** `filterSchema` for resources: the same, plus `fileCase`. */
export function resourceFilterSchema(against: string) {
  const rules = z.strictObject({
    allow: globs.prefault(['*']).meta({ description: 'Resources to expose (default ["*"]).' }),
    deny: globs.prefault([]).meta({ description: 'Resources to hide; deny wins over allow (default []).' }),
    fileCase: z.enum(FILE_CASES).prefault('auto').meta({
      description:
        'How file: URIs are compared: sensitive (as bytes), insensitive (ignoring case, for servers on macOS or Windows file systems: /SECRET/x is /secret/x there), or auto (default: insensitive when the gateway runs on macOS or Windows, else sensitive).',
    }),
  });
  return z
    .union([globs.transform((allow): z.input<typeof rules> => ({ allow })).pipe(rules), rules])
    .prefault({})
    .meta({ description: `Which resources to expose, matched against the ${against}. A list is shorthand for { allow: [...] }.` });
}

/**
 * Visible ASCII without spaces: a token travels in `Authorization: Bearer …`, where anything else
 * either cannot be sent or would be mangled by some client. (The message never quotes the value.)
 */
const TOKEN_PATTERN = /^[\x21-\x7e]+$/;

export const MAX_EXPOSED_NAME_LENGTH = 128;
export const MIN_MAX_DESCRIPTION_LENGTH = 16;

/** The top-level keys clients, stdio, sanitize and pinning. `name` is the server-name schema. */
export function policySchemas(subst: Subst, orNull: OrNull, name: z.ZodString) {
  const client = z
    .strictObject({
      name: name.meta({ description: 'Unique client name: lowercase letters, digits and -.' }),
      token: z
        .string()
        .min(1, { abort: true })
        .regex(TOKEN_PATTERN, { error: 'must be visible ASCII characters without spaces (it is sent in an HTTP header)' })
        .optional()
        .meta({
          description: 'Bearer token that selects this profile on HTTP (Authorization: Bearer <token>); use ${VAR}. ' + 'Without a token (or a match) the profile can only serve stdio (stdio.client).',
        }),
      match: clientMatchSchema,
      tools: filterSchema('Tools', 'exposed tool name (after prefixing)'),
      prompts: filterSchema('Prompts', 'exposed prompt name (after prefixing)'),
      resources: resourceFilterSchema('exposed resource URI or URI template'),
      readOnly: subst(z.boolean()).prefault(false).meta({ description: 'true exposes only tools annotated readOnlyHint: true (default false).' }),
      roots: rootsSchema.optional().meta({ description: "This client's roots when it declares none of its own (default: the top-level roots)." }),
      operator: subst(z.boolean()).prefault(false).meta({ description: "true lets this client's token read the operator views: GET /status (default false)." }),
      naming: z
        .strictObject({
          maxLength: subst(z.int().min(1).max(MAX_EXPOSED_NAME_LENGTH))
            .prefault(MAX_EXPOSED_NAME_LENGTH)
            .meta({
              description: 'Longest exposed tool or prompt name, 1..128 (default 128). 64 or less also limits names to ' + 'A-Z a-z 0-9 _ - (no "."), as the big model APIs require.',
            }),
        })
        .prefault({})
        .meta({ description: 'Constraints on the names this client sees.' }),
      catalog: z
        .strictObject({
          mode: toolModeSchema.optional().meta({ description: 'full, search, code or auto for this client (default: catalog.mode).' }),
          tokenBudget: tokenBudgetSchema(subst).optional().meta({ description: "auto's token budget for this client (default: catalog.tokenBudget)." }),
          alwaysVisible: alwaysVisibleSchema.optional().meta({ description: 'Tools listed in full in every mode for this client (default: catalog.alwaysVisible).' }),
          directoryBudget: directoryBudgetSchema(subst).optional().meta({ description: "search mode's server directory budget for this client, in tokens (default: catalog.directoryBudget)." }),
          codeBudget: codeBudgetSchema(subst).optional().meta({ description: "code mode's budget for the tool declarations in run_code's description, in tokens (default: catalog.codeBudget)." }),
        })
        .optional()
        .meta({ description: 'How tools/list shows tools to this client, over the catalog section (a small model: mode search).' }),
    })
    .meta({ description: "A client profile: who may connect (token) and that client's view of the catalog." });

  const clients = orNull(z.array(client), []).meta({
    description: "Client profiles. When any client is configured, an HTTP request must carry a client's token (else 401).",
  });

  const stdio = z
    .strictObject({
      client: name.meta({ description: 'The client profile (a name from clients) the stdio face serves.' }),
    })
    .optional()
    .meta({ description: 'The stdio face (serve --stdio).' });

  const sanitize = z
    .strictObject({
      maxDescriptionLength: subst(z.int().min(MIN_MAX_DESCRIPTION_LENGTH))
        .prefault(1024)
        .meta({ description: 'Longest description or title passed on, at least 16; longer text is cut on a word boundary (default 1024).' }),
      action: z
        .enum(['warn', 'strip', 'block'])
        .prefault('strip')
        .meta({
          description: 'What to do with a text that looks like a prompt injection: warn (serve it, log, audit), ' + 'strip (default: remove the flagged part) or block (hide the item).',
        }),
      results: subst(z.boolean()).prefault(false).meta({ description: 'true also cleans the text content of tool results (default false).' }),
      auditLog: z.string().min(1).optional().meta({
        description: "File that every change is appended to as JSON lines; relative to this file's folder (default: the log).",
      }),
    })
    .prefault({})
    .meta({ description: 'Cleaning of every model-visible text the servers send.' });

  const pinning = z
    .strictObject({
      lockFile: z.string().min(1).prefault('switchboard.lock').meta({
        description: "The lock file `switchboard lock` writes; relative to this file's folder (default switchboard.lock).",
      }),
      newTools: z.enum(['allow', 'hold']).prefault('allow').meta({
        description: 'Tools that are not in the lock yet: allow (default) or hold (not listed, not callable).',
      }),
    })
    .prefault({})
    .meta({ description: 'Tool pinning: tools whose definition differs from the lock file are held back.' });

  return { clients, stdio, sanitize, pinning };
}
