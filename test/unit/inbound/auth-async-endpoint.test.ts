// The HTTP endpoint with an authenticator whose verdict is a promise (OAuth tokens to verify):
// refusals carry the authenticator's status and WWW-Authenticate and come before any byte of the
// body is read; an accepted principal is what the session is opened with and bound to.

import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ByteBudget } from '../../../src/inbound/budget.js';
import type { AuthVerdict } from '../../../src/inbound/http-auth.js';
import { startHttpEndpoint } from '../../../src/inbound/http-endpoint.js';
import type { HttpEndpoint } from '../../../src/inbound/http-endpoint-options.js';
import type { EndpointSession, SessionOpener } from '../../../src/inbound/session-opener.js';
import { resultResponse, type JsonRpcMessage, type JsonRpcRequest } from '../../../src/protocol/jsonrpc.js';

const opened: (string | undefined)[] = [];
const opener: SessionOpener = {
  budget: new ByteBudget(1 << 30, 'the gateway', 'limits.totalBytesInFlight', 'gateway'),
  openSession(_push, principal): EndpointSession {
    opened.push(principal);
    return {
      id: `s${opened.length}`,
      protocolVersion: '2025-11-25',
      budget: new ByteBudget(1 << 30, 'this session', 'limits.sessionBytesInFlight', 'session'),
      inFlightCount: 0,
      async handle(message: JsonRpcMessage) {
        const r = message as JsonRpcRequest;
        if (r.method === 'initialize') return resultResponse(r.id, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'fake', version: '1' } });
        return 'id' in r ? resultResponse(r.id, {}) : undefined;
      },
      close() {},
    };
  },
};

let endpoint: HttpEndpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
  opened.length = 0;
});

/** A deferred verdict per request, in arrival order: the test decides when and what. */
function pendingAuthenticator() {
  const waiting: { header: string | undefined; settle: (v: AuthVerdict) => void }[] = [];
  const arrived: ((n: number) => void)[] = [];
  const authenticate = (header: string | undefined) =>
    new Promise<AuthVerdict>((settle) => {
      waiting.push({ header, settle });
      for (const a of arrived.splice(0)) a(waiting.length);
    });
  const next = (): Promise<{ header: string | undefined; settle: (v: AuthVerdict) => void }> =>
    waiting.length > 0 ? Promise.resolve(waiting.shift()!) : new Promise((r) => arrived.push(() => r(waiting.shift()!)));
  return { authenticate, next };
}

const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });

/** A POST whose body is declared but only half sent: the reply must not wait for the rest. */
function halfSentPost(url: string, authorization: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization, 'content-length': String(INIT.length * 2) },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => {
        resolve({ status: res.statusCode!, headers: res.headers, body });
        req.destroy();
      });
    });
    req.on('error', reject);
    req.write(INIT); // half of what content-length promises; the rest never comes
  });
}

async function start(authenticate: (h: string | undefined) => AuthVerdict | Promise<AuthVerdict>) {
  endpoint = await startHttpEndpoint(opener, { host: '127.0.0.1', port: 0, path: '/mcp', allowedOrigins: [], maxMessageBytes: 1 << 20, authenticate });
  return endpoint.url;
}

describe('an asynchronous authenticator', () => {
  it('a refusal carries its status and WWW-Authenticate, answered before the body has arrived', async () => {
    const auth = pendingAuthenticator();
    const url = await start(auth.authenticate);
    const reply = halfSentPost(url, 'Bearer some.jwt.here');
    const pending = await auth.next();
    expect(pending.header).toBe('Bearer some.jwt.here');
    pending.settle({ status: 401, reason: 'token expired', wwwAuthenticate: 'Bearer resource_metadata="http://x/.well-known/oauth-protected-resource/mcp", error="invalid_token"' });
    const r = await reply;
    expect(r.status).toBe(401);
    expect(r.headers['www-authenticate']).toContain('error="invalid_token"');
    expect(r.headers.connection).toBe('close');
    expect(opened).toEqual([]);
  });

  it.each([
    [403, 'insufficient_scope', 'the access token does not grant'],
    [503, undefined, 'cannot be checked right now'],
  ] as const)('%i refusals are passed on with their own body', async (status, error, text) => {
    const auth = pendingAuthenticator();
    const url = await start(auth.authenticate);
    const reply = halfSentPost(url, 'Bearer t');
    (await auth.next()).settle({ status, reason: 'why', ...(error ? { wwwAuthenticate: `Bearer error="${error}"` } : {}) });
    const r = await reply;
    expect(r.status).toBe(status);
    expect(r.body).toContain(text);
    if (!error) expect(r.headers['www-authenticate']).toBeUndefined();
  });

  it('an accepted principal opens the session and owns it: another principal gets 403 on it', async () => {
    const auth = pendingAuthenticator();
    const url = await start(auth.authenticate);
    const post = (authorization: string, body: string, session?: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization, ...(session ? { 'mcp-session-id': session } : {}) },
        body,
      });
    const init = post('Bearer alice', INIT);
    (await auth.next()).settle('oauth:readers:alice');
    const res = await init;
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expect(opened).toEqual(['oauth:readers:alice']);
    const session = res.headers.get('mcp-session-id')!;

    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const mallory = post('Bearer mallory', list, session);
    (await auth.next()).settle('oauth:readers:mallory');
    expect((await mallory).status).toBe(403);
    const alice = post('Bearer alice', list, session);
    (await auth.next()).settle('oauth:readers:alice');
    expect((await alice).status).toBe(200);
  });

  it('a synchronous verdict still works as it did (static tokens: no promise on the hot path)', async () => {
    const url = await start((h) => (h === 'Bearer static' ? 'ops' : null));
    const bad = await halfSentPost(url, 'Bearer nope');
    expect(bad.status).toBe(401);
    expect(bad.headers['www-authenticate']).toBe('Bearer realm="switchboard"');
    const ok = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer static' }, body: INIT });
    expect(ok.status).toBe(200);
    expect(opened).toEqual(['ops']);
  });

  it('a rejected verification is a 500, not a hang or a crash', async () => {
    const url = await start(() => Promise.reject(new Error('bug')));
    const r = await halfSentPost(url, 'Bearer t');
    expect(r.status).toBe(500);
  });
});
