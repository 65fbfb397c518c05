// `credentials`: how the gateway keeps and asks for per-user credentials (issue 33): where the
// sealed records live (the file backend; with state.redis they live in Redis), the key file, the
// public URL of the connect pages, how the browser's user is identified there, and the bounds on
// per-user connections. Read at start.

import * as z from 'zod';
import { duration, isHttpUrl, type Subst } from './schema-values.js';

/** An http(s) URL with nothing a link could not be built on: no query, fragment or user:password. */
export const isPublicBaseUrl = (s: string): boolean => {
  if (!isHttpUrl(s)) return false;
  const u = new URL(s);
  return u.search === '' && u.hash === '' && u.username === '' && u.password === '' && !s.includes('?') && !s.includes('#');
};

const scopeToken = z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, { error: 'must be a scope token: visible ASCII without spaces, quotes or backslashes' });

export function credentialsSchema(subst: Subst) {
  const count = (max: number, fallback: number, description: string) => subst(z.int().min(1).max(max)).prefault(fallback).meta({ description });
  return z
    .strictObject({
      file: z.string().min(1).optional().meta({
        description:
          "Where per-user credentials are kept, sealed (AES-256-GCM), mode 0600; relative to this file's folder (default: $XDG_STATE_HOME/switchboard/credentials.json). Not used with state.redis: they live in Redis then.",
      }),
      keyFile: z.string().min(1).optional().meta({
        description: "The key file when SWITCHBOARD_CREDENTIALS_KEY is not set: the current key first, older ones after it; relative to this file's folder (default: credentials.key beside file).",
      }),
      publicUrl: z.string().refine(isPublicBaseUrl, { error: 'must be an http:// or https:// URL without query, fragment or user:password, like https://gateway.example.com' }).optional().meta({
        description:
          "The gateway's address as users' browsers reach it; the connect pages are at <publicUrl>/connect/... (default: the HTTP face's own address; over stdio alone, a loopback listener).",
      }),
      linkTtl: subst(duration).prefault('10m').meta({ description: 'How long a connect link stays usable (once) after it was sent (default 10m).' }),
      localUser: z
        .string()
        .min(1)
        .max(256)
        .regex(/^[^\s\x00-\x1f\x7f]+$/, { error: 'must be a user name without spaces or control characters' })
        .prefault('local')
        .meta({ description: 'The user of the stdio face (one person, no login), whose credentials per-user servers use there (default "local").' }),
      login: z
        .strictObject({
          clientId: z.string().min(1).meta({ description: "The gateway's client id at the listen.auth issuer." }),
          clientSecret: z.string().min(1).optional().meta({ description: 'Its secret, for a confidential client. Use ${VAR}.' }),
          scopes: z.array(scopeToken).prefault(['openid']).meta({ description: 'Scopes of that login (default ["openid"]).' }),
        })
        .optional()
        .meta({
          description:
            'How a connect page tells who opened it: the browser logs in at the listen.auth issuer as this client (authorization code with PKCE), and must be the user the link was made for. See docs/per-user-credentials.md.',
        }),
      connections: z
        .strictObject({
          perUser: count(100_000, 16, 'Per-user connections (and processes) one user may hold open at once, across servers; the idlest closes for a new one (default 16).'),
          total: count(1_000_000, 256, 'Per-user connections open at once, all users together (default 256).'),
          idleTimeout: subst(duration).prefault('10m').meta({ description: 'A per-user connection unused for this long is closed (default 10m).' }),
        })
        .prefault({})
        .meta({ description: 'Bounds on the connections of per-user servers: one per (user, server), opened on first use.' }),
    })
    .prefault({})
    .meta({ description: 'Per-user credentials of servers with auth.perUser or ${user.NAME} references (docs/per-user-credentials.md). Read at start.' });
}
