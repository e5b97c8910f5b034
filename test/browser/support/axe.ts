import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's browser build, read once: it is evaluated in each page checked. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The rules checked: WCAG 2.0, 2.1 and 2.2 at levels A and AA (axe's own tags). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] as const;

/**
 * What axe finds wrong on the page as it stands, one line per element: the rule, the element and
 * what to fix (empty when the page is clean). axe is evaluated through the DevTools protocol, which
 * the page's Content-Security-Policy does not govern: the dashboard itself still runs no inline code.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(`${AXE_SOURCE}\n;true`);
  return page.evaluate<string[]>(`axe
    .run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_TAGS)} }, resultTypes: ['violations'] })
    .then((results) => results.violations.flatMap((violation) =>
      violation.nodes.map((node) =>
        violation.id + ' at ' + node.target.join(' ') + ': ' + (node.failureSummary || violation.help).replace(/\\s+/g, ' '),
      ),
    ))`);
}
