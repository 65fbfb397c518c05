// Every HTTP request an outbound transport makes goes through requestWithAuth: the one place the
// server's OAuth token is added and a 401/403 is handed to its ServerAuth. Invariant: the headers
// sent are the transport's own plus the server's token; nothing of a client's ever gets here.

import type { IncomingHttpHeaders } from 'node:http';
import { request, type Dispatcher } from 'undici';
import { GatewayError } from '../errors.js';
import { bearerChallenge } from './auth/challenge.js';
import { AuthError } from './auth/errors.js';
import type { ServerAuth } from './auth/types.js';
import { discardBody, headerValue } from './http-common.js';

type RequestOptions = { dispatcher?: Dispatcher } & Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & Partial<Pick<Dispatcher.RequestOptions, 'method'>>;

/**
 * undici's request, with the server's OAuth token when it has one (it replaces a configured
 * Authorization; a client's own token is never among the headers). A 401 with a Bearer challenge
 * (or on a server configured for OAuth) and a 403 insufficient_scope go to the ServerAuth, which
 * refreshes, or reports that a login is needed; then the request is sent again, at most twice.
 * `challenges: 0` only adds the token (a DELETE at close must not start a login). A refusal that
 * new credentials cannot fix is HTTP_ERROR with the status and a message saying what to run.
 */
export async function requestWithAuth(auth: ServerAuth | undefined, url: string, options: RequestOptions, challenges = 2): Promise<Dispatcher.ResponseData> {
  if (auth === undefined) return request(url, options);
  const send = (token: Record<string, string>) => request(url, { ...options, headers: { ...(options.headers as Record<string, string>), ...token } });
  return withAuth(auth, send, (res) => discardBody(res.body), challenges);
}

/**
 * The same for any way of sending (http-post.ts's POSTs too): `send` makes the request with the
 * token's headers, `release` drops the body of a refusal that is answered by sending again.
 */
export async function withAuth<R extends { statusCode: number; headers: IncomingHttpHeaders }>(
  auth: ServerAuth,
  send: (token: Record<string, string>) => Promise<R>,
  release: (res: R) => void,
  challenges = 2,
): Promise<R> {
  for (let round = 0; ; round++) {
    const token = await auth.headers();
    const res = await send(token);
    const status = res.statusCode;
    if ((status !== 401 && status !== 403) || round >= challenges) return res;
    const www = headerValue(res.headers, 'www-authenticate');
    const challenge = bearerChallenge(www);
    const ours = status === 401 ? challenge !== undefined || auth.configured : challenge?.error === 'insufficient_scope';
    if (!ours) return res; // not an OAuth refusal: the caller reports it as it is
    release(res);
    try {
      await auth.challenged(status, www, token);
    } catch (err) {
      if (err instanceof AuthError) throw new GatewayError('HTTP_ERROR', err.message, { status, server: err.server, cause: err });
      throw err;
    }
  }
}
