// Debian's Chromium for the tests that look at a page in a real browser (puppeteer-core drives it).
// CHROMIUM_PATH overrides where it is; without one, those tests skip and say so. The launch itself
// is test/fixtures/oauth/connect-browser.mjs's (plain JS, so that the attack suite, which runs
// without a TypeScript loader, shares it); this gives it its types.

import type { Browser } from 'puppeteer-core';
import { CHROMIUM as FOUND, launchBrowser } from '../fixtures/oauth/connect-browser.mjs';

export const CHROMIUM: string | undefined = FOUND;

/** A headless Chromium with a profile folder of its own; close() ends it and removes the folder. */
export const launchChromium = launchBrowser as () => Promise<{ browser: Browser; close(): Promise<void> }>;
