// The connect pages' HTML: plain server-rendered documents, no script, no style, every text
// escaped (server names, descriptions and AS error codes come from config or from outside), sent
// with headers that keep them out of caches, frames and referrers.

import type { ServerResponse } from 'node:http';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * Headers of every connect page: no cache, no referrer, no framing, nothing but the document itself.
 * A page with a form says `same-origin` instead of `no-referrer` (formPage): under no-referrer a
 * browser sends `Origin: null` with the POST, and the Origin check needs the real one; same-origin
 * still sends nothing to any other site.
 */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
} as const;

export function sendPage(res: ServerResponse, status: number, title: string, body: string, headers: Record<string, string | string[]> = {}): void {
  const html = `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body><h1>${escapeHtml(title)}</h1>\n${body}\n</body></html>\n`;
  res.writeHead(status, { ...PAGE_HEADERS, ...headers, 'content-length': Buffer.byteLength(html) }).end(html);
}

/** A page that only says something (done, refused, expired). */
export function sendMessage(res: ServerResponse, status: number, title: string, text: string, headers?: Record<string, string | string[]>): void {
  sendPage(res, status, title, `<p>${escapeHtml(text)}</p>`, headers);
}

export function redirect(res: ServerResponse, location: string, headers: Record<string, string | string[]> = {}, status = 302): void {
  res.writeHead(status, { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', ...headers, location, 'content-length': 0 }).end();
}

const hidden = (name: string, value: string) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;

/** sendPage for a page holding a form (see PAGE_HEADERS). */
export function sendForm(res: ServerResponse, title: string, body: string, headers: Record<string, string | string[]> = {}): void {
  sendPage(res, 200, title, body, { ...headers, 'referrer-policy': 'same-origin' });
}

/** The static-token login: the gateway token a client profile uses, POSTed, never in a URL. */
export function tokenForm(action: string, server: string, ticket: string): string {
  return [
    `<p>To connect <strong>${escapeHtml(server)}</strong>, first show who you are: enter the token your MCP client uses with this gateway.</p>`,
    `<form method="post" action="${escapeHtml(action)}">`,
    hidden('action', 'login'),
    hidden('ticket', ticket),
    '<p><label>Gateway token <input type="password" name="token" autocomplete="off" required></label></p>',
    '<p><button type="submit">Continue</button></p>',
    '</form>',
  ].join('\n');
}

/** One password field per secret the server needs, labelled with its description. */
export function secretsForm(action: string, server: string, secrets: readonly { name: string; description?: string }[], csrf: string): string {
  const fields = secrets.map(
    (s, i) =>
      `<p><label>${escapeHtml(s.description ?? s.name)} <small>(${escapeHtml(s.name)})</small> <input type="password" name="secret.${escapeHtml(s.name)}" autocomplete="off" required${i === 0 ? ' autofocus' : ''}></label></p>`,
  );
  return [
    `<p>The gateway will keep these for you alone, encrypted, and use them only to reach <strong>${escapeHtml(server)}</strong> for you.</p>`,
    `<form method="post" action="${escapeHtml(action)}">`,
    hidden('action', 'secrets'),
    hidden('csrf', csrf),
    ...fields,
    '<p><button type="submit">Save</button></p>',
    '</form>',
  ].join('\n');
}
