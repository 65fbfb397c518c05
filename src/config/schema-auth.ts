// The OAuth parts of the config file's zod schema: `auth` on an HTTP server entry (the gateway as
// an OAuth client of that server), `listen.auth` (the gateway as a protected resource) and
// `clients[].match` (a profile chosen by token claims). Cross-field rules live in policy.ts and
// cross-check.ts; none of these keys is ever logged (client secrets may be in them).

import * as z from 'zod';
import { isHttpUrl, type Subst } from './schema-values.js';

const httpUrl = (description: string) => z.string().refine(isHttpUrl, { error: 'must be an http:// or https:// URL' }).meta({ description });
const scopeList = z.array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, { error: 'must be a scope token: visible ASCII without spaces, quotes or backslashes' }));
const oneOrMany = (item: z.ZodString) => z.union([item, z.array(item).min(1)]);

/** `auth: oauth` or `auth: { type: oauth, ... }` on an HTTP server. */
export function serverAuthSchema(subst: Subst) {
  const details = z
    .strictObject({
      type: z.literal('oauth').meta({ description: 'oauth: the only kind of server authorization there is.' }),
      clientId: z.string().min(1).optional().meta({
        description: 'A client id registered with the authorization server beforehand (default: a Client ID Metadata Document or dynamic registration).',
      }),
      clientSecret: z.string().min(1).optional().meta({
        description: 'The secret of clientId, for a confidential client; with it the gateway uses the client credentials grant (no browser). Use ${VAR}.',
      }),
      clientMetadataUrl: z
        .string()
        .refine((s) => isHttpUrl(s) && new URL(s).protocol === 'https:' && new URL(s).pathname !== '/', { error: 'must be an https:// URL with a path' })
        .optional()
        .meta({ description: 'An https URL where you host our Client ID Metadata Document: the client id when the authorization server supports them.' }),
      scopes: scopeList.optional().meta({
        description: "Scopes to ask for (default: the server's challenge, else its metadata's scopes_supported).",
      }),
      grant: z.enum(['authorization_code', 'client_credentials']).optional().meta({
        description: 'How tokens are obtained (default: client_credentials with a clientSecret, else authorization_code: a person logs in).',
      }),
      redirectPort: subst(z.int().min(0).max(65535)).optional().meta({
        description: 'Loopback port of the login redirect, http://127.0.0.1:PORT/callback (default: any free port); set it when the client id was registered with a fixed redirect URI.',
      }),
      tokenFile: z.string().min(1).optional().meta({
        description: "Where tokens are kept, mode 0600; relative to this file's folder (default: $XDG_STATE_HOME/switchboard/tokens.json).",
      }),
      perUser: subst(z.boolean()).optional().meta({
        description:
          "true: each user of the gateway logs in to this server as themselves, on the gateway's /connect page the first time they call it; their tokens are kept per (user, server) in the credential store (see credentials). Default false: one login (switchboard login) for everybody.",
      }),
    })
    .meta({ description: 'OAuth 2.1 with settings.' });
  return z
    .union([z.literal('oauth'), details])
    .optional()
    .meta({
      description:
        'HTTP server: oauth, or a mapping of OAuth settings. Run `switchboard login NAME` once; tokens are refreshed by themselves (default: OAuth only when the server answers 401 with a Bearer challenge).',
    });
}

/** `listen.auth`: the gateway as an OAuth 2.1 protected resource. */
export function listenAuthSchema(subst: Subst) {
  return z
    .strictObject({
      issuer: httpUrl('The authorization server that issues tokens for the gateway (its issuer identifier, exactly).'),
      resource: httpUrl('The MCP URL as clients reach the gateway: the resource identifier, and the audience tokens must carry (default: the URL it listens on).').optional(),
      audience: oneOrMany(z.string().min(1)).optional().meta({ description: 'Accepted aud values (default: resource).' }),
      jwksUrl: httpUrl("Where the issuer's signing keys are (default: jwks_uri from the issuer's metadata).").optional(),
      requiredScopes: scopeList.prefault([]).meta({ description: 'Scopes every request must carry; a token without them gets 403 insufficient_scope (default []).' }),
      scopesSupported: scopeList.optional().meta({ description: 'Scopes announced in the protected resource metadata (default: requiredScopes).' }),
      introspection: z
        .strictObject({
          url: httpUrl('The RFC 7662 introspection endpoint.'),
          clientId: z.string().min(1).meta({ description: 'The client id the gateway introspects as.' }),
          clientSecret: z.string().min(1).meta({ description: 'Its secret. Use ${VAR}.' }),
        })
        .optional()
        .meta({ description: 'Opaque (non-JWT) access tokens: ask the authorization server about each one (answers cached 30s).' }),
      clockTolerance: subst(z.int().min(0).max(600)).prefault(60).meta({ description: 'Seconds of clock skew allowed when checking exp and nbf (default 60).' }),
    })
    .optional()
    .meta({
      description: 'OAuth 2.1: clients authenticate with access tokens from your identity provider. Static client tokens keep working beside it.',
    });
}

/** `clients[].match`: which OAuth principals this profile serves. */
export const clientMatchSchema = z
  .strictObject({
    scope: oneOrMany(z.string().min(1)).optional().meta({ description: 'Every scope listed must be granted to the token.' }),
    sub: z.string().min(1).optional().meta({ description: 'The token subject: equal, or a glob with *.' }),
    group: oneOrMany(z.string().min(1)).optional().meta({ description: 'Any group listed is in the token groups claim.' }),
  })
  .optional()
  .meta({
    description: 'With listen.auth: this profile serves the OAuth principals whose token matches every condition given (the first matching profile wins).',
  });
