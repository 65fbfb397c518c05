// The connect pages (issue 33) and the ConnectAsker the router uses: `link()` makes a single-use,
// short-lived link for (user, server); the page behind it verifies who the browser is (identity.ts)
// before it accepts anything, refuses another user (403, audit credential.denied), then runs the
// user's OAuth flow at the server's AS or shows the secrets form, and stores the credential;
// `connected()` hears of that on any replica through a StateStore signal.
// Invariants: nothing is stored for a browser whose identity was not verified as the link's user;
// no secret, token or link reaches a log line, a page or an audit entry.

import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { finishBrowserFlow, MemoryTokenStore, beginBrowserFlow, oauthErrorCode } from '../outbound/auth/index.js';
import type { Credential } from '../state/credentials.js';
import { auditCredential } from './audit.js';
import { takeFlow, saveFlow, FLOW_COOKIE, type FlowRecord } from './flows.js';
import { escapeHtml, redirect, secretsForm, sendForm, sendMessage, sendPage, tokenForm } from './html.js';
import { FormTooLarge, pathOf, queryOf, readCookie, readForm } from './http.js';
import { beginLogin, cookieUser, flowCookie, identityCookie } from './identity.js';
import { issueLink, readLink, useLink, type LinkClaims } from './links.js';
import { startLoopbackPages, type LoopbackPages } from './loopback.js';
import { nonce, sealers, type Sealers } from './seal.js';
import type { ConnectLink, ConnectServer, Connector, ConnectorDeps } from './types.js';

const PREFIX = '/connect/';
/** How long a form (secrets, gateway token) may stay open before it is posted. */
const FORM_TTL_MS = 15 * 60_000;

interface FormClaims {
  readonly u?: string;
  readonly s: string;
  readonly x: number;
  readonly n: string;
  readonly link?: LinkClaims;
}

/** A link that can no longer be used: 410, whatever the reason, with a way on. */
function linkSpent(res: ServerResponse, why: 'expired' | 'used', setCookies: string[] = []): void {
  sendMessage(res, 410, why === 'expired' ? 'This link has expired' : 'This link was already used', 'Each link works once, for a short time. Ask your client for a new one.', {
    'set-cookie': setCookies,
  });
}

export function createConnector(deps: ConnectorDeps): Connector {
  return new ConnectPages(deps);
}

/** The signal topic of (user, server): a digest, so no user id travels as a channel name. */
export function connectedTopic(user: string, server: string): string {
  return `connected:${createHash('sha256')
    .update(JSON.stringify([user, server]))
    .digest('base64url')}`;
}

class ConnectPages implements Connector {
  private sealing: Promise<Sealers> | undefined;
  private loopback: Promise<LoopbackPages> | undefined;
  /** Clients registered dynamically, per issuer (this replica's; a flow carries its own client). */
  private readonly clients = new MemoryTokenStore();
  private readonly now: () => number;

  constructor(private readonly deps: ConnectorDeps) {
    this.now = deps.now ?? Date.now;
  }

  async link(user: string, server: string): Promise<ConnectLink> {
    if (!this.deps.servers().has(server)) throw new Error(`server "${server}" takes no per-user credentials`);
    const [s, base] = await Promise.all([this.sealers(), this.base()]);
    const ttl = this.deps.settings().linkTtlMs;
    const expiresAt = this.now() + ttl;
    const elicitationId = randomUUID();
    const minutes = Math.max(1, Math.round(ttl / 60_000));
    const message = `Connect your account for "${server}" to continue: open this link in your browser (it works once, within ${minutes} minute${minutes === 1 ? '' : 's'}).`;
    return { url: issueLink(s.link, base, user, server, elicitationId, expiresAt), elicitationId, expiresAt, message };
  }

  connected(user: string, server: string, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      let done = false;
      let stop: (() => void) | undefined;
      let unwatch: (() => void) | undefined;
      const finish = (err?: unknown) => {
        if (done) return;
        done = true;
        stop?.();
        unwatch?.();
        signal.removeEventListener('abort', onAbort);
        if (err === undefined) resolve();
        else reject(err);
      };
      const onAbort = () => finish(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      const check = () => {
        if (done) return;
        this.deps.credentials.get(user, server).then((r) => r !== undefined && finish(), finish);
      };
      // Listening first, then looking: a connect between the two is heard, not missed. The store's
      // own watch hears a connect no page made (`switchboard users connect`, another process).
      unwatch = this.deps.credentials.watch(check);
      this.deps.store.listen(connectedTopic(user, server), check).then((s) => {
        if (done) return s();
        stop = s;
        check();
      }, finish);
    });
  }

  base(): Promise<string> {
    const url = this.deps.publicUrl();
    if (url !== undefined) return Promise.resolve(url.replace(/\/+$/, ''));
    this.loopback ??= startLoopbackPages((req, res) => this.handle(req, res));
    return this.loopback.then((l) => l.base);
  }

  async close(): Promise<void> {
    const l = await this.loopback?.catch(() => undefined);
    await l?.close();
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    this.route(req, res).catch((err: unknown) => {
      this.deps.logger.error({ err: err instanceof Error ? err.message : String(err) }, 'connect page failed');
      if (!res.headersSent) sendMessage(res, 500, 'Something went wrong', 'The gateway could not finish this step. Ask your client for a new link and try again.');
      else res.destroy();
    });
  }

  private sealers(): Promise<Sealers> {
    this.sealing ??= (this.deps.signingKey ? Promise.resolve(this.deps.signingKey) : this.deps.store.sharedKey().then((k) => k.key)).then(sealers);
    return this.sealing;
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rest = pathOf(req).slice(PREFIX.length);
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') return sendMessage(res, 405, 'Method not allowed', 'Use the link as it was given.', { allow: 'GET, POST' });
    if (rest === 'callback') return method === 'POST' ? sendMessage(res, 405, 'Method not allowed', 'Use the link as it was given.') : this.callback(req, res);
    let name: string;
    try {
      name = decodeURIComponent(rest);
    } catch {
      name = '';
    }
    const server = this.deps.servers().get(name);
    if (server === undefined) return sendMessage(res, 404, 'Unknown server', 'No server of this gateway takes a per-user credential under that name.');
    if (method === 'POST') return this.post(req, res, server);
    // A HEAD (a link checker, an unfurler) must not use the link up: only a GET takes it.
    if (method === 'HEAD') return sendMessage(res, 200, `Connect ${server.name}`, 'Open this link in a browser.');
    return this.open(req, res, server);
  }

  /**
   * GET /connect/<server>[?l=<link>]: open the link, know the browser, go on. The link is used up
   * only once the browser is known to be its user (verified()), so a GET by anything else (an
   * unfurler, a mail scanner, a failed login) leaves it working.
   */
  private async open(req: IncomingMessage, res: ServerResponse, server: ConnectServer): Promise<void> {
    const s = await this.sealers();
    const token = queryOf(req).get('l') ?? undefined;
    let link: LinkClaims | undefined;
    if (token !== undefined) {
      const v = readLink(s.link, token, server.name, this.now());
      if (!v.ok) {
        if (v.why === 'invalid') return sendMessage(res, 400, 'This link is not valid', 'Ask your client for a new link.');
        return linkSpent(res, 'expired');
      }
      link = v.claims;
    }
    const browser = this.deps.browser;
    if (browser.kind === 'local') {
      // No HTTP face: the one local user, and the single-use link (which only that user's client saw) is the proof.
      if (link === undefined) return sendMessage(res, 403, 'Open the link from your client', 'This page works only through the link your MCP client shows.');
      return this.verified(req, res, server, browser.user, link, 'local link');
    }
    const user = cookieUser(req, s, this.now());
    if (user !== undefined) return this.verified(req, res, server, user, link, 'session cookie');
    if (browser.kind === 'oauth') {
      const base = await this.base();
      const started = await beginLogin(
        {
          browser,
          settings: this.deps.settings(),
          clients: this.clients,
          store: this.deps.store,
          sealers: s,
          redirectUri: `${base}/connect/callback`,
          secure: base.startsWith('https:'),
          ...(this.deps.fetch ? { fetch: this.deps.fetch } : {}),
        },
        server.name,
        link,
      );
      return redirect(res, started.url, { 'set-cookie': started.setCookie });
    }
    const ticket = s.ticket.seal({ s: server.name, x: this.now() + FORM_TTL_MS, n: nonce(), ...(link ? { link } : {}) } satisfies FormClaims);
    sendForm(res, `Connect ${server.name}`, tokenForm(await this.action(server), server.name, ticket));
  }

  /** The browser is `user` (verified): refuse it when the link is another user's, else connect. */
  private async verified(req: IncomingMessage, res: ServerResponse, server: ConnectServer, user: string, link: LinkClaims | undefined, via: string, setCookies: string[] = []): Promise<void> {
    if (link !== undefined && link.u !== user) {
      auditCredential(this.deps.audit, 'denied', link.u, server.name, server.perUser.kind, 'connect-page', `${via}: opened by another user`);
      this.deps.logger.warn({ server: server.name }, 'connect link opened by a browser signed in as another user: refused');
      return sendMessage(res, 403, 'This link is for someone else', 'You are signed in as another user than the one this link was made for. Nothing was stored.', { 'set-cookie': setCookies });
    }
    // The browser is the link's user: now, and only now, the link is spent (once, on any replica).
    if (link !== undefined && !(await useLink(this.deps.store, link, this.now()))) return linkSpent(res, 'used', setCookies);
    const s = await this.sealers();
    const base = await this.base();
    const secure = base.startsWith('https:');
    if (server.perUser.kind === 'secrets') {
      const csrf = s.csrf.seal({ u: user, s: server.name, x: this.now() + FORM_TTL_MS, n: nonce() } satisfies FormClaims);
      return sendForm(res, `Connect ${server.name}`, secretsForm(await this.action(server), server.name, server.perUser.secrets, csrf), { 'set-cookie': setCookies });
    }
    if (server.url === undefined) return sendMessage(res, 500, 'Not an HTTP server', 'This server has no URL to authorize against.');
    const { url, pending } = await beginBrowserFlow({
      target: { serverUrl: server.url },
      config: server.auth ?? { type: 'oauth' },
      clients: this.clients,
      redirectUri: `${base}/connect/callback`,
      ...(this.deps.fetch ? { fetch: this.deps.fetch } : {}),
    });
    const bind = nonce();
    await saveFlow(this.deps.store, s.flow, { p: 'server', flow: pending, server: server.name, user, bind });
    redirect(res, url, { 'set-cookie': [...setCookies, flowCookie(bind, secure)] }, req.method === 'POST' ? 303 : 302);
  }

  /** GET /connect/callback: the redirect back from an authorization server. */
  private async callback(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const s = await this.sealers();
    const query = queryOf(req);
    const record = await takeFlow(this.deps.store, s.flow, query.get('state'));
    if (record === undefined) return sendMessage(res, 400, 'Unknown sign-in', 'This sign-in is unknown, was already finished, or took too long. Nothing was stored; ask your client for a new link.');
    if (readCookie(req, FLOW_COOKIE) !== record.bind) return sendMessage(res, 403, 'Another browser', 'This sign-in was started in another browser. Nothing was stored.');
    let tokens: Awaited<ReturnType<typeof finishBrowserFlow>>;
    try {
      tokens = await finishBrowserFlow(record.flow, query, this.deps.fetch);
    } catch (err) {
      const code = oauthErrorCode(err);
      this.deps.logger.warn({ server: record.server, step: record.p, error: code ?? (err instanceof Error ? err.message : 'failed') }, 'connect: the authorization server did not grant access');
      return sendPage(res, 502, 'Not authorized', `<p>The authorization server did not grant access${code ? ` (<code>${escapeHtml(code)}</code>)` : ''}. Nothing was stored.</p>`);
    }
    const server = this.deps.servers().get(record.server);
    if (server === undefined) return sendMessage(res, 404, 'Unknown server', 'That server is no longer configured for per-user credentials.');
    if (record.p === 'login') return this.loggedIn(req, res, server, record, tokens.accessToken);
    await this.store(record.user, server, { kind: 'oauth', tokens }, 'oauth');
    sendMessage(res, 200, `${server.name} is connected`, 'You can close this window and go back to your client.');
  }

  private async loggedIn(req: IncomingMessage, res: ServerResponse, server: ConnectServer, record: Extract<FlowRecord, { p: 'login' }>, accessToken: string): Promise<void> {
    const browser = this.deps.browser;
    const user = browser.kind === 'local' ? undefined : await browser.verify(`Bearer ${accessToken}`);
    if (user === undefined) return sendMessage(res, 403, 'Not signed in', 'The gateway does not accept this sign-in. Nothing was stored.');
    const base = await this.base();
    const setCookie = identityCookie(await this.sealers(), user, this.now(), base.startsWith('https:'));
    return this.verified(req, res, server, user, record.link, 'gateway login', [setCookie]);
  }

  /** POST /connect/<server>: the gateway-token login, or the secrets form. Only from the pages' own origin. */
  private async post(req: IncomingMessage, res: ServerResponse, server: ConnectServer): Promise<void> {
    const base = await this.base();
    if (req.headers.origin !== new URL(base).origin) return sendMessage(res, 403, 'Refused', 'This form must be sent from the gateway’s own page.');
    let form: URLSearchParams;
    try {
      form = await readForm(req);
    } catch (err) {
      return err instanceof FormTooLarge ? sendMessage(res, 413, 'Too large', 'The form was larger than this page accepts.') : sendMessage(res, 400, 'Bad form', 'The form could not be read.');
    }
    const s = await this.sealers();
    const now = this.now();
    const action = form.get('action');
    const browser = this.deps.browser;
    if (action === 'login' && browser.kind === 'token') {
      const ticket = s.ticket.open<FormClaims>(form.get('ticket') ?? undefined);
      if (ticket === undefined || ticket.s !== server.name || ticket.x <= now) return sendMessage(res, 400, 'This form has expired', 'Open the link again.');
      const user = await browser.verify(`Bearer ${form.get('token') ?? ''}`);
      if (user === undefined) return sendMessage(res, 403, 'Unknown token', 'That is not a token this gateway knows. Nothing was stored.');
      return this.verified(req, res, server, user, ticket.link, 'gateway token', [identityCookie(s, user, now, base.startsWith('https:'))]);
    }
    if (action !== 'secrets' || server.perUser.kind !== 'secrets') return sendMessage(res, 400, 'Bad form', 'The form could not be read.');
    const csrf = s.csrf.open<FormClaims>(form.get('csrf') ?? undefined);
    if (csrf === undefined || csrf.s !== server.name || csrf.x <= now || typeof csrf.u !== 'string') return sendMessage(res, 400, 'This form has expired', 'Open the link again.');
    // The form is bound to the verified identity: the browser posting it must still be that user.
    if (browser.kind !== 'local' && cookieUser(req, s, now) !== csrf.u) return sendMessage(res, 403, 'Not signed in as this user', 'Nothing was stored.');
    const values: Record<string, string> = {};
    for (const { name } of server.perUser.secrets) {
      const v = form.get(`secret.${name}`);
      if (v === null || v === '') return sendMessage(res, 400, 'Missing value', 'Fill in every field. Nothing was stored.');
      values[name] = v;
    }
    if (!(await this.deps.store.takeOnce(`connect:form:${csrf.n}`, csrf.x - now + 60_000))) return sendMessage(res, 410, 'Already sent', 'This form was already sent.');
    await this.store(csrf.u, server, { kind: 'secrets', values }, 'secrets');
    sendMessage(res, 200, `${server.name} is connected`, 'Saved. You can close this window and go back to your client.');
  }

  private async store(user: string, server: ConnectServer, credential: Credential, kind: 'oauth' | 'secrets'): Promise<void> {
    await this.deps.credentials.put(user, server.name, credential);
    auditCredential(this.deps.audit, 'connect', user, server.name, kind, 'connect-page');
    this.deps.onConnect?.(user, server.name);
    this.deps.logger.info({ server: server.name, kind }, 'connect: a user stored a credential');
    // Every replica's connected() waiting on this pair hears it; a failure to tell them is logged, the credential stays.
    await this.deps.store.signal(connectedTopic(user, server.name)).catch((err: unknown) => this.deps.logger.warn({ err: String(err) }, 'connect: could not signal the other replicas'));
  }

  private async action(server: ConnectServer): Promise<string> {
    return `${await this.base()}${PREFIX}${encodeURIComponent(server.name)}`;
  }
}
