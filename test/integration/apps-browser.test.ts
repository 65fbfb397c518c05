// MCP Apps rendered for real: a host page in headless Chromium (puppeteer-core) runs the ext-apps
// AppBridge around the npm example apps' HTML, read through the gateway; the bridge hands the
// app's tools/call to this test's SDK client, connected to the gateway as the host's MCP client.
// The apps call tools by their servers' own names, which a fixture server beside them shares.
// Skipped (with a notice) where Debian's chromium is not installed: CHROMIUM_PATH overrides.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import puppeteer, { type Browser, type Frame, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, connectStdioClient, repoRoot, stdioGatewayParams } from '../helpers/index.js';
import { APP_HOST_CAPABILITIES, APP_MIME, appServersYaml } from './apps-config.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) process.stderr.write(`apps-browser: ${CHROMIUM} not found (apt-get install chromium, or set CHROMIUM_PATH); skipped\n`);

const MIME = APP_MIME;
/** Waits on the page end well before the test's own timeout, so a failure says what it waited for. */
const WAIT = { timeout: 15_000 };
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;

/** The host side of the extension, bundled for the page: AppBridge and its postMessage transport. */
async function bridgeBundle(): Promise<string> {
  const out = await build({
    stdin: {
      contents: "import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge'; Object.assign(window, { AppBridge, PostMessageTransport });",
      resolveDir: repoRoot,
    },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

/** Serves the host page (the bridge bundle, nothing else) on 127.0.0.1, port 0. */
async function hostPage(bundle: string): Promise<{ url: string; close: () => void }> {
  const page = `<!doctype html><html><head><meta charset="utf-8"></head><body><script>${bundle.replaceAll('</script', '<\\/script')}</script></body></html>`;
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

describe.skipIf(!haveChromium)('MCP Apps in a browser, through the gateway', () => {
  let host: Client;
  let browser: Browser;
  let page: { url: string; close: () => void };
  /** The tools/call params each app sent, as the bridge handed them over. */
  const appCalls: Record<string, any>[] = [];

  beforeAll(async () => {
    [host, page] = await Promise.all([connectStdioClient(stdioGatewayParams(appServersYaml()), { capabilities: APP_HOST_CAPABILITIES }), bridgeBundle().then(hostPage)]);
    browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    page?.close();
    await cleanup();
  });

  /** Reads the tool's UI through the gateway and renders it in a sandboxed frame behind an AppBridge. */
  async function render(toolName: string, toolResult?: Record<string, any>): Promise<{ tab: Page; app: Frame }> {
    const tool = (await host.listTools()).tools.find((t) => t.name === toolName)!;
    const uri = (tool._meta as any).ui.resourceUri as string;
    expect(uri.startsWith('ui://')).toBe(true);
    const read: any = await host.readResource({ uri });
    expect(read.contents[0].mimeType).toBe(MIME);
    const tab = await browser.newPage();
    await tab.goto(page.url);
    await tab.exposeFunction('hostCallTool', async (params: Record<string, any>) => {
      appCalls.push(params);
      return host.callTool({ name: params.name, arguments: params.arguments ?? {} });
    });
    await tab.evaluate(
      async (html: string, result: Record<string, any> | undefined) => {
        const w = window as any;
        const iframe = document.createElement('iframe');
        iframe.setAttribute('sandbox', 'allow-scripts');
        document.body.appendChild(iframe);
        const bridge = new w.AppBridge(null, { name: 'switchboard-test-host', version: '1.0.0' }, { serverTools: {} });
        bridge.oncalltool = (params: unknown) => w.hostCallTool(params);
        const initialized = new Promise((resolve) => (bridge.oninitialized = resolve));
        await bridge.connect(new w.PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
        iframe.srcdoc = html;
        await initialized;
        if (result) {
          await bridge.sendToolInput({ arguments: {} });
          await bridge.sendToolResult(result);
        }
      },
      read.contents[0].text,
      toolResult,
    );
    const app = tab.frames().find((f) => f !== tab.mainFrame())!;
    return { tab, app };
  }

  it('basic-vanillajs: the app’s own get-time reaches its server, not the fixture that shares the name', async () => {
    const { tab, app } = await render('basic__get-time');
    await app.waitForSelector('#get-time-btn', WAIT);
    await app.click('#get-time-btn');
    await app.waitForFunction((re: string) => new RegExp(re).test(document.getElementById('server-time')?.textContent ?? ''), WAIT, ISO_TIME.source);
    expect(appCalls.map((c) => c.name)).toEqual(['get-time']);
    await tab.close();
  });

  it('system-monitor: the app polls its app-only tool by its own name and shows what its server measured', async () => {
    const info: any = await host.callTool({ name: 'monitor__get-system-info', arguments: {} });
    const { tab, app } = await render('monitor__get-system-info', info);
    await app.waitForFunction(() => /\d+(\.\d+)?%/.test(document.getElementById('memory-percent')?.textContent ?? ''), WAIT);
    expect(await app.$eval('#info-hostname', (e) => e.textContent)).toBe(os.hostname());
    expect(appCalls.some((c) => c.name === 'poll-system-stats')).toBe(true);
    await tab.close();
  });
});
