// The dashboard on the built gateway with real fixture servers: its pages and their access rules,
// then, in headless Chromium (Debian's chromium, driven by puppeteer-core), what a person sees —
// server rows, states, tool counts, a chart drawn, search filtering the catalog, and markup from a
// server shown as text, never run. Screenshot: artifacts/dashboard.png (docs/dashboard.png too
// with SWITCHBOARD_UPDATE_SCREENSHOT=1).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { cleanup, connectHttpClient, fixture, fixtureServer, nodeBin, repoRoot, startGateway, yamlServers, type HttpGateway } from '../helpers/index.js';

const OPS = 'ops-token-0123456789';
const AGENT = 'agent-token-0123456789';
const UPDATE = process.env.SWITCHBOARD_UPDATE_SCREENSHOT === '1';

const config = yamlServers(
  [
    fixtureServer('echo', 'echo'),
    { name: 'markup', command: nodeBin, args: [fixture('markup')] },
    { name: 'broken', command: nodeBin, args: [fixture('markup'), '--fail-with', 'fatal: <img src=x onerror="window.__pwned = \'stderr\'"> not configured'], reconnect: { initialDelay: '30s' } },
  ],
  {
    // warn: flagged text is served as it is, so the markup reaches the dashboard untouched.
    sanitize: { action: 'warn' },
    clients: [
      { name: 'ops', token: OPS, operator: true },
      { name: 'agent', token: AGENT, tools: { allow: ['echo__*', 'markup__weather'], deny: [] } },
    ],
  },
);

let gw: HttpGateway;
let base: string;
beforeAll(async () => {
  gw = await startGateway(config);
  base = new URL(gw.url).origin;
});
afterAll(cleanup);

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe('dashboard pages', () => {
  it('serves the page, its script and style without a token, under a CSP that allows only them', async () => {
    for (const p of ['/', '/dashboard', '/dashboard.js', '/dashboard.css']) {
      const res = await fetch(base + p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
    const html = await (await fetch(`${base}/`)).text();
    expect(html).not.toMatch(/<script>|\son[a-z]+=/); // no inline script or handler in the page itself
  });

  it('gives its data to an operator token only', async () => {
    expect((await fetch(`${base}/dashboard.json`)).status).toBe(401);
    expect((await fetch(`${base}/dashboard.json`, bearer(AGENT))).status).toBe(403);
    expect((await fetch(`${base}/dashboard/catalog.json`, bearer(AGENT))).status).toBe(403);
    const state = (await (await fetch(`${base}/dashboard.json`, bearer(OPS))).json()) as any;
    expect(state.servers.map((s: any) => [s.name, s.tools])).toEqual([
      ['echo', 2],
      ['markup', 4],
      ['broken', 0],
    ]);
    expect(state.servers[2].problem).toContain('<img src=x onerror=');
    expect(state.metrics).toBe(true);
  });

  it('lists the catalog as each profile sees it', async () => {
    const catalog = (await (await fetch(`${base}/dashboard/catalog.json`, bearer(OPS))).json()) as any;
    expect(catalog.views.map((v: any) => v.profile)).toEqual([null, 'ops', 'agent']);
    expect(catalog.views[2].tools.map((t: any) => t.name)).toEqual(['echo__echo', 'echo__add', 'markup__weather']);
    expect(catalog.views[0].tools.find((t: any) => t.name === 'markup__hostile_script').description).toContain('<script>');
  });
});

describe.skipIf(!CHROMIUM)('dashboard in a browser', () => {
  let browser: Browser;
  let chromium: Awaited<ReturnType<typeof launchChromium>> | undefined;
  beforeAll(async () => {
    chromium = await launchChromium();
    browser = chromium.browser;
  });
  afterAll(async () => {
    await chromium?.close();
  });

  it("shows servers, a chart, findings and a searchable catalog, and runs none of the servers' markup", { timeout: 150_000 }, async () => {
    const client = await connectHttpClient(gw.url, bearer(AGENT));
    // Traffic for the chart: calls keep coming until the page has drawn some (paced at most one per
    // 5 ms: the SDK client's fetches each leave an abort listener behind until collected).
    let traffic = true;
    const calls = (async () => {
      while (traffic) {
        await client.callTool({ name: 'echo__echo', arguments: { text: 'x' } });
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })().catch((err: unknown) => err);

    const page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 1000 });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('dialog', (d) => (errors.push(`dialog: ${d.message()}`), void d.dismiss()));
    await page.goto(`${base}/`);

    // No token yet: the page asks for one, and takes it.
    await page.waitForSelector('#login:not([hidden])');
    await page.type('#token', OPS);
    await page.click('#login-form button[type=submit]');
    await page.waitForSelector('#servers-body tr[data-server="broken"]');

    const rows = await page.$$eval('#servers-body tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(rows.map((r) => [r[0], r[1], r[4]])).toEqual([
      ['echo', 'ready', '2'],
      ['markup', 'ready', '4'],
      ['broken', expect.stringMatching(/backing-off|failed/), '0'],
    ]);
    expect(rows[2]![12]).toContain('fatal: <img src=x onerror=');

    // A chart drawn from real traffic (waits for the page's own state, polled by the page).
    await page.waitForFunction(
      () => Number(document.querySelector('#chart-rate')?.getAttribute('data-points')) >= 2 && Number(document.querySelector('#servers-body tr[data-server="echo"] td.rate')?.textContent) > 0,
      { timeout: 20_000 },
    );
    // For the picture in docs/operations.md, some history (a few more of the page's 2 s samples).
    if (UPDATE) await page.waitForFunction(() => Number(document.querySelector('#chart-rate')?.getAttribute('data-points')) >= 45, { timeout: 90_000 });
    traffic = false;
    expect(await calls).toBeUndefined();
    expect(await page.$$eval('#chart-rate polyline', (p) => p.length)).toBeGreaterThanOrEqual(1);
    expect(await page.$eval('#servers-body tr[data-server="echo"] td.rate', (td) => Number(td.textContent))).toBeGreaterThan(0);

    // warn mode flagged the HTML comment: the finding is listed, its markup as text.
    await page.waitForFunction(() => document.querySelector('#audit-body')!.textContent!.includes('hostile_comment'));
    expect(await page.$eval('#audit-body', (e) => e.textContent)).toContain('<img src=x onerror=');

    // The catalog, searched: only what matches stays.
    await page.waitForSelector('#catalog-body tr');
    await page.type('#search', 'hostile');
    const found = await page.$$eval('#catalog-body tr td.name', (tds) => tds.map((td) => td.textContent));
    expect(found).toEqual(['markup__hostile_script', 'markup__hostile_image', 'markup__hostile_comment']);
    expect(await page.$eval('#catalog-count', (e) => e.textContent)).toBe('3 of 6');
    const description = await page.$eval('#catalog-body tr:first-child td.description', (td) => td.textContent);
    expect(description).toContain('<script>window.__pwned = "script"</script>');
    // As each profile sees it: the agent's view has no hostile tool.
    await page.select('#view', '2');
    expect(await page.$eval('#catalog-count', (e) => e.textContent)).toBe('0 of 3');
    await page.select('#view', '0');

    // Nothing of it ran: no element made from server text, no script effect, no error.
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
    expect(await page.$$eval('#app img, #app script, #app b', (els) => els.length)).toBe(0);
    expect(errors).toEqual([]);

    // Emptied as a person would (select all, delete): everything is back.
    await page.focus('#search');
    await page.$eval('#search', (el) => (el as HTMLInputElement).select());
    await page.keyboard.press('Backspace');
    expect(await page.$eval('#search', (el) => (el as HTMLInputElement).value)).toBe('');
    expect(await page.$eval('#catalog-count', (e) => e.textContent)).toBe('6 of 6');
    mkdirSync(path.join(repoRoot, 'artifacts'), { recursive: true });
    await page.screenshot({ path: path.join(repoRoot, 'artifacts', 'dashboard.png'), fullPage: true });
    if (UPDATE) await page.screenshot({ path: path.join(repoRoot, 'docs', 'dashboard.png'), fullPage: true });
  });
});

if (!CHROMIUM) console.warn('dashboard.test.ts: no Chromium at /usr/bin/chromium (apt-get install chromium, or set CHROMIUM_PATH): the browser test is skipped');
