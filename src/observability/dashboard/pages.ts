// The dashboard's pages on the HTTP face. The shell, script and style are public (static, no
// data; a browser cannot send a token with a page load); the two JSON documents the script polls
// are operator pages, like /status. Every reply forbids framing, sniffing and referrers.

import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { GatewayFacts } from '../facts.js';
import { catalogState, dashboardState, type DashboardSources } from './data.js';
import { CSP, DASHBOARD_CSS, DASHBOARD_HTML, FAVICON_SVG } from './page.js';
import { DASHBOARD_SCRIPT } from './script.js';

/** A page beside the MCP path (the HTTP endpoint's Page). */
export interface ObservedPage {
  access: 'public' | 'operator';
  serve(req: IncomingMessage, res: ServerResponse, principal: string | undefined): void;
}

const SAFE: OutgoingHttpHeaders = {
  'content-security-policy': CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

export function reply(req: IncomingMessage, res: ServerResponse, type: string, body: string, cache: string): void {
  res.writeHead(200, { ...SAFE, 'content-type': type, 'content-length': Buffer.byteLength(body), 'cache-control': cache });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function fixed(type: string, body: string): ObservedPage {
  return { access: 'public', serve: (req, res) => reply(req, res, type, body, 'no-cache') };
}

function json(make: () => unknown): ObservedPage {
  return { access: 'operator', serve: (req, res) => reply(req, res, 'application/json; charset=utf-8', JSON.stringify(make()), 'no-store') };
}

/** The catalog with exact token figures, the ones `check` prints (the tokenizer loads on the first view). */
function catalogPage(facts: GatewayFacts): ObservedPage {
  return {
    access: 'operator',
    serve(req, res) {
      void facts
        .exactTokens()
        .catch(() => undefined) // no tokenizer: the figures say they are estimates
        .then(() => reply(req, res, 'application/json; charset=utf-8', JSON.stringify(catalogState(facts)), 'no-store'));
    },
  };
}

/** Paths: / and /dashboard (the page), /dashboard.js, /dashboard.css, /favicon.ico, /dashboard.json, /dashboard/catalog.json. */
export function dashboardPages(sources: DashboardSources & { facts: GatewayFacts }): Map<string, ObservedPage> {
  const html = fixed('text/html; charset=utf-8', DASHBOARD_HTML);
  return new Map<string, ObservedPage>([
    // Also at /dashboard, for a gateway whose MCP path is / itself.
    ['/', html],
    ['/dashboard', html],
    ['/dashboard.js', fixed('text/javascript; charset=utf-8', DASHBOARD_SCRIPT)],
    ['/dashboard.css', fixed('text/css; charset=utf-8', DASHBOARD_CSS)],
    // Browsers ask for it on every page of the origin: an icon, not a 404 in the console.
    ['/favicon.ico', { access: 'public', serve: (req, res) => reply(req, res, 'image/svg+xml', FAVICON_SVG, 'max-age=86400') }],
    ['/dashboard.json', json(() => dashboardState(sources))],
    ['/dashboard/catalog.json', catalogPage(sources.facts)],
  ]);
}
