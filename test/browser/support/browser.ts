import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's Chromium (.ci/run installs it); CHROMIUM_PATH points elsewhere. Never a downloaded browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The machine's network is closed: without these, Chromium's background services (updates,
 * sync, safe browsing, QUIC probes) try to reach Google and fill the output with failures.
 */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The size every page and screenshot has: small PNGs for docs/dashboard.md. */
export const VIEWPORT = { width: 1200, height: 800 } as const;

/** What a page said on its console that a test cares about. */
export interface PageWatch {
  /** Console messages about a Content-Security-Policy refusal (an inline script or style ran into it). */
  cspViolations: string[];
  /** Uncaught errors of the page's own script. */
  pageErrors: string[];
}

export interface Person {
  context: BrowserContext;
  page: Page;
  watch: PageWatch;
}

export interface TestBrowser {
  browser: Browser;
  /**
   * A fresh context (its own cookies and storage): one person in one browser window.
   * `javaScriptEnabled: false`: a browser without script, for the pages' fallbacks.
   */
  newPerson(options?: { javaScriptEnabled?: boolean }): Promise<Person>;
  close(): Promise<void>;
}

function watchPage(page: Page): PageWatch {
  const watch: PageWatch = { cspViolations: [], pageErrors: [] };
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) watch.cspViolations.push(message.text());
  });
  page.on('pageerror', (error) => watch.pageErrors.push(error.message));
  return watch;
}

/**
 * One Chromium per test file. Playwright gives each launch a user-data folder of its own (and
 * removes it on close); each person gets a context of their own, so nothing is shared between them.
 */
export async function launchBrowser(): Promise<TestBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    timeout: 60_000,
  });
  return {
    browser,
    async newPerson(options = {}) {
      const context = await browser.newContext({
        viewport: VIEWPORT,
        locale: 'en-GB',
        timezoneId: 'UTC',
        javaScriptEnabled: options.javaScriptEnabled ?? true,
      });
      context.setDefaultTimeout(15_000);
      context.setDefaultNavigationTimeout(20_000);
      const page = await context.newPage();
      return { context, page, watch: watchPage(page) };
    },
    async close() {
      await browser.close();
    },
  };
}
