// The request loop a transport wraps around one HTTP exchange: our headers, then on 401/403 ask
// ServerAuth for new credentials and send again, a bounded number of times. Transport-agnostic
// (undici, fetch): the caller maps its response to {status, wwwAuthenticate} and must have
// consumed or discarded a refused response's body before the retry.

import type { ServerAuth } from './server-auth.js';

export interface AuthOutcome {
  status: number;
  wwwAuthenticate?: string | undefined;
}

/**
 * Send with the server's credentials. `send` gets the auth headers to add (they replace any
 * configured Authorization: a client's own token never reaches a server). Returns the first
 * response that is not a challenge, or the last one after `maxChallenges` rounds.
 */
export async function sendWithAuth<R extends AuthOutcome>(auth: ServerAuth, send: (authHeaders: Record<string, string>) => Promise<R>, maxChallenges = 2): Promise<R> {
  for (let round = 0; ; round++) {
    const headers = await auth.headers();
    const res = await send(headers);
    if ((res.status !== 401 && res.status !== 403) || round >= maxChallenges) return res;
    await auth.challenged(res.status, res.wwwAuthenticate, headers);
  }
}
