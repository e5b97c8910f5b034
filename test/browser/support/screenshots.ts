import { mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Where the browser tests put their screenshots: DASHBOARD_SCREENSHOTS (the docs' run:
 * `DASHBOARD_SCREENSHOTS=docs/images/dashboard npx vitest run test/browser`), else one folder
 * under the system's temp folder that each run overwrites (the files' names differ per page).
 */
function screenshotFolder(): string {
  const folder = resolve(process.env.DASHBOARD_SCREENSHOTS ?? join(tmpdir(), 'smcp-dashboard-screenshots'));
  mkdirSync(folder, { recursive: true });
  return folder;
}

let folder: string | undefined;

/**
 * A PNG of the page as the viewport shows it, named `<name>.png`. `hide`: what must not be in a
 * picture (a new key's plaintext), painted over. Answers the file's path; the file is not empty.
 */
export async function screenshot(page: Page, name: string, hide: Locator[] = []): Promise<string> {
  folder ??= screenshotFolder();
  const path = join(folder, `${name}.png`);
  await page.screenshot({
    path,
    type: 'png',
    animations: 'disabled',
    caret: 'hide',
    mask: hide,
    maskColor: '#57606a',
  });
  expect(statSync(path).size).toBeGreaterThan(1000);
  return path;
}
