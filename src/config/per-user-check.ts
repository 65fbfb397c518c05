// Rules of per-user servers (issue 33) that no single field shows: one kind of per-user credential
// per server, no machine grant for a person's login, no per-session isolation (a per-user server
// already gets a connection per user), `userSecrets` naming only referenced secrets, and
// `${user.NAME}` only where it is filled. Works on unvalidated entries; never quotes a value.

import type { Segment } from './env.js';
import { userRefsAllowedAt } from './env.js';
import type { Found } from './problems.js';
import { isRecord, type ServerEntry } from './server-entries.js';
import { userRefNames } from './types.js';

/** The `${user.NAME}` names of an entry's headers and env values. */
function referencedSecrets(e: ServerEntry): Set<string> {
  const names = new Set<string>();
  for (const key of ['headers', 'env'] as const) {
    const values = e.raw[key];
    if (!isRecord(values)) continue;
    for (const v of Object.values(values)) if (typeof v === 'string') for (const n of userRefNames(v)) names.add(n);
  }
  return names;
}

export function perUserProblems(e: ServerEntry): Found[] {
  const problems: Found[] = [];
  const auth = isRecord(e.raw.auth) ? e.raw.auth : undefined;
  const oauth = auth?.perUser === true;
  const secrets = referencedSecrets(e);
  const authPath = [...e.path, 'auth'];
  if (oauth) {
    if (auth.grant === 'client_credentials') {
      problems.push({
        path: [...authPath, 'grant'],
        message: "is client_credentials, a machine login, which is nobody's user: per-user OAuth (perUser: true) needs authorization_code (each user logs in)",
      });
    }
    if (auth.tokenFile !== undefined) {
      problems.push({
        path: [...authPath, 'tokenFile'],
        message: "does not apply with perUser: true: each user's tokens are kept in the credential store (credentials.file, or Redis with state.redis)",
      });
    }
    if (auth.redirectPort !== undefined) {
      problems.push({
        path: [...authPath, 'redirectPort'],
        message: "does not apply with perUser: true: users' logins return to the gateway's connect page (credentials.publicUrl), not to a loopback port",
      });
    }
    if (secrets.size > 0) {
      problems.push({
        path: [...authPath, 'perUser'],
        message: `is true, and headers or env also use \${user.${[...secrets][0]}}: a server is per-user one way, its own OAuth login or secrets the user gives, not both`,
      });
    }
  }
  if ((oauth || secrets.size > 0) && e.raw.isolation === 'per-session') {
    problems.push({ path: [...e.path, 'isolation'], message: 'is per-session, but the server is per-user: per-user servers get one connection per user (drop isolation)' });
  }
  // Names are not substituted nor filled: a `${user.` in one would be sent as it is.
  for (const key of ['headers', 'env'] as const) {
    const values = e.raw[key];
    if (!isRecord(values)) continue;
    for (const name of Object.keys(values)) {
      if (name.includes('${user.'))
        problems.push({ path: [...e.path, key, name], message: `has \${user. in its name: a per-user secret goes in the ${key === 'headers' ? "header's" : "variable's"} value, not its name` });
    }
  }
  if (isRecord(e.raw.userSecrets)) {
    for (const name of Object.keys(e.raw.userSecrets)) {
      if (!secrets.has(name)) {
        const where = e.raw.url !== undefined ? 'headers' : 'env';
        problems.push({ path: [...e.path, 'userSecrets', name], message: `no \${user.${name}} in this server's ${where} values uses it: describe only the secrets the server reads` });
      }
    }
  }
  return problems;
}

/** `${user.NAME}` found outside a server's headers and env values (the env substitution reports where each was). */
export function misplacedUserRefs(refs: readonly { path: Segment[]; names: string[] }[]): Found[] {
  return refs
    .filter((r) => !userRefsAllowedAt(r.path))
    .map((r) => ({
      path: r.path,
      message: `\${user.${r.names[0]}} is a per-user secret, which only a server's headers values (HTTP) or env values (stdio) may use; write $\${user. for a literal \${user.`,
    }));
}

/**
 * `credentials`: one user's connection bound cannot be above everybody's, and the connect pages'
 * login is at the listen.auth issuer, so it needs one.
 */
export function credentialsProblems(tree: unknown): Found[] {
  const problems: Found[] = [];
  const credentials = isRecord(tree) && isRecord(tree.credentials) ? tree.credentials : undefined;
  const c = credentials && isRecord(credentials.connections) ? credentials.connections : undefined;
  if (c && typeof c.perUser === 'number' && typeof c.total === 'number' && c.perUser > c.total) {
    problems.push({ path: ['credentials', 'connections', 'perUser'], message: 'is more than total: one user cannot hold more per-user connections than all users together' });
  }
  const listenAuth = isRecord(tree) && isRecord(tree.listen) && tree.listen.auth !== undefined && tree.listen.auth !== null;
  if (credentials?.login !== undefined && credentials.login !== null && !listenAuth) {
    problems.push({ path: ['credentials', 'login'], message: "needs listen.auth: the connect page's login is at that issuer, the one users already log in to the gateway with" });
  }
  return problems;
}
