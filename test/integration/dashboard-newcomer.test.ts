// Issue 31, item 8: the dashboard shows live and idle sessions apart, sessions that never opened a
// GET stream (CLI clients that leave without DELETE) are reaped after the shorter
// limits.streamlessSessionIdleTimeout, resources and templates have their own columns, the
// latency chart draws no line across intervals without calls, and /favicon.ico answers. The
// browser part runs the real page in headless Chromium (see dashboard.test.ts).
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { cleanup, connectHttpClient, fixtureServer, startGateway, yamlServers, type HttpGateway } from '../helpers/index.js';

let gw: HttpGateway;
let base: string;
beforeAll(async () => {
  gw = await startGateway(
    yamlServers([fixtureServer('echo', 'echo'), fixtureServer('pages', 'paginated', ['--tools', '3', '--resources', '4', '--templates', '2'])], {
      limits: { streamlessSessionIdleTimeout: '1s' },
    }),
  );
  base = new URL(gw.url).origin;
});
afterAll(cleanup);

interface State {
  sessions: { live: number; idle: number };
  servers: { name: string; resources: number; resourceTemplates: number }[];
}
const state = async (): Promise<State> => (await (await fetch(`${base}/dashboard.json`)).json()) as State;

/** Polls the dashboard's state (as its page does) until `ok`, for at most `ms`. */
async function until(ok: (s: State) => boolean, ms = 10_000): Promise<State> {
  const end = Date.now() + ms;
  let s = await state();
  while (!ok(s) && Date.now() < end) s = await new Promise((r) => setTimeout(r, 100)).then(state);
  return s;
}

/** A session as a CLI client makes it: initialize, no GET stream, never a DELETE. */
async function cliSession(): Promise<string> {
  const res = await fetch(gw.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cli', version: '1' } } }),
  });
  expect(res.status).toBe(200);
  return res.headers.get('mcp-session-id')!;
}
const ping = (id: string) =>
  fetch(gw.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });

describe('sessions on the dashboard', () => {
  it('counts live and idle apart, and reaps a CLI client’s idle session sooner than a client that had a GET stream', async () => {
    const ide = await connectHttpClient(gw.url); // the SDK's transport opens the GET stream
    let s = await until((x) => x.sessions.live === 1);
    expect(s.sessions).toEqual({ live: 1, idle: 0 });

    const cli = await cliSession();
    s = await state();
    expect(s.sessions).toEqual({ live: 1, idle: 1 });
    // streamlessSessionIdleTimeout (1 s here): gone, its next request 404.
    s = await until((x) => x.sessions.idle === 0);
    expect(s.sessions).toEqual({ live: 1, idle: 0 });
    expect((await ping(cli)).status).toBe(404);

    // The IDE client's stream ends without a DELETE: idle, and kept (sessionIdleTimeout, 1 h).
    await ide.close();
    s = await until((x) => x.sessions.live === 0);
    expect(s.sessions).toEqual({ live: 0, idle: 1 });
    // A CLI session made after it went idle is reaped first: the stream one is not on the short timeout.
    await cliSession();
    expect((await state()).sessions).toEqual({ live: 0, idle: 2 });
    s = await until((x) => x.sessions.idle === 1);
    expect(s.sessions).toEqual({ live: 0, idle: 1 });
  }, 30_000);
});

describe('the dashboard’s other pages', () => {
  it('answers /favicon.ico with an icon, no token needed', async () => {
    const res = await fetch(`${base}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(await res.text()).toMatch(/^<svg /);
  });

  it('gives resources and templates apart', async () => {
    const s = await state();
    expect(s.servers.map((x) => [x.name, x.resources, x.resourceTemplates])).toEqual([
      ['echo', 0, 0],
      ['pages', 4, 2],
    ]);
  });
});

describe.skipIf(!CHROMIUM)('the dashboard in a browser', () => {
  let browser: Browser;
  let chromium: Awaited<ReturnType<typeof launchChromium>> | undefined;
  beforeAll(async () => {
    chromium = await launchChromium();
    browser = chromium.browser;
  });
  afterAll(async () => {
    await chromium?.close();
  });

  it('shows the columns apart, draws no latency line across idle intervals, and asks for nothing that 404s', { timeout: 60_000 }, async () => {
    const page = await browser.newPage();
    const missing: string[] = [];
    page.on('response', (r) => void (r.status() >= 400 && missing.push(`${r.status()} ${r.url()}`)));
    // The gateway's own state, with a history made to order: calls, three idle intervals (no
    // latency), calls again; the rate is 0 in between, never missing.
    await page.setRequestInterception(true);
    page.on('request', (req) => {
      if (!req.url().endsWith('/dashboard.json')) return void req.continue();
      void state().then((real) => {
        const now = Date.now();
        const series = Array.from({ length: 10 }, (_, k) => {
          const idle = k >= 3 && k <= 5;
          return { t: now - (9 - k) * 2000, rate: idle ? 0 : 10, p50: idle ? null : 2, p99: idle ? null : 5 };
        });
        const crafted = { ...real, intervalMs: 2000, sessions: { live: 1, idle: 2 }, servers: real.servers.map((s, i) => ({ ...s, series: i === 0 ? series : [] })) };
        void req.respond({ status: 200, contentType: 'application/json', body: JSON.stringify(crafted) });
      });
    });
    await page.goto(`${base}/`);
    await page.waitForSelector('#servers-body tr[data-server="pages"]');
    const cells = await page.$eval('#servers-body tr[data-server="pages"]', (tr) => [tr.querySelector('td.resources')!.textContent, tr.querySelector('td.templates')!.textContent]);
    expect(cells).toEqual(['4', '2']);
    const headers = await page.$$eval('#servers thead th', (ths) => ths.map((th) => th.textContent));
    expect(headers.slice(4, 8)).toEqual(['Tools', 'Prompts', 'Resources', 'Templates']);
    expect(await page.$eval('#sessions-live', (e) => e.textContent)).toBe('1');
    expect(await page.$eval('#sessions-idle', (e) => e.textContent)).toBe('2');
    // Two runs of latency, none across the idle gap; the rate is one line (0 is a value).
    expect(await page.$eval('#chart-latency', (svg) => svg.getAttribute('data-lines'))).toBe('2');
    expect(await page.$$eval('#chart-latency polyline:not([stroke-dasharray])', (p) => p.length)).toBe(2);
    expect(await page.$eval('#chart-rate', (svg) => svg.getAttribute('data-lines'))).toBe('1');
    expect(missing).toEqual([]);
  });
});
