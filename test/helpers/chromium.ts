// Debian's Chromium for the tests that look at a page in a real browser (puppeteer-core drives it).
// CHROMIUM_PATH overrides where it is; without one, those tests skip and say so.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'puppeteer-core';

export const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p));

/** A headless Chromium with a profile folder of its own; close() ends it and removes the folder. */
export async function launchChromium(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const puppeteer = (await import('puppeteer-core')).default;
  const profileDir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM!,
    headless: true,
    userDataDir: profileDir,
    // The machine has no network but loopback: Chromium's own background traffic stays off.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}
