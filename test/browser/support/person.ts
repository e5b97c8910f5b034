import type { Page, Response } from 'playwright-core';
import { expect } from 'vitest';

/** The page's one heading (its title). */
export async function headingOf(page: Page): Promise<string> {
  return (await page.locator('h1').innerText()).trim();
}

/** Waits for a page whose heading is `title` (after a click that navigates). */
export async function expectHeading(page: Page, title: string | RegExp): Promise<void> {
  await page.locator('h1', { hasText: title }).waitFor();
  const heading = await headingOf(page);
  if (typeof title === 'string') expect(heading).toBe(title);
  else expect(heading).toMatch(title);
}

/** The text of the page's notice (role=status), once it shows. */
export async function noticeOf(page: Page): Promise<string> {
  return (await page.locator('p.notice[role="status"]').innerText()).trim();
}

/** The text of the page's alert (role=alert), once it shows. */
export async function alertOf(page: Page): Promise<string> {
  return (await page.locator('[role="alert"]').first().innerText()).trim();
}

/** A one-time link followed: the password set, signed in, on the workspaces page. */
export async function setPasswordThrough(page: Page, link: string, password: string): Promise<void> {
  await page.goto(link);
  await expectHeading(page, 'Set your password');
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  await Promise.all([
    page.waitForURL(/\/dashboard\/workspaces$/),
    page.getByRole('button', { name: 'Set password' }).click(),
  ]);
  await expectHeading(page, 'Workspaces');
}

/** The sign-in page filled and sent; answers the response of the form's POST. */
export async function signIn(
  page: Page,
  signInUrl: string,
  email: string,
  password: string,
): Promise<Response> {
  await page.goto(signInUrl);
  await expectHeading(page, 'Sign in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  const [answer] = await Promise.all([
    page.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().includes('/sign-in'),
    ),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  await page.waitForLoadState();
  return answer;
}

/** The CSRF token the page's forms carry (the session's). */
export async function csrfTokenOf(page: Page): Promise<string> {
  const token = await page.locator('input[name="_csrf"]').first().getAttribute('value');
  expect(token).toBeTruthy();
  return String(token);
}

/**
 * The form controls a person could not tell apart without seeing them: every visible input,
 * select and textarea needs a `<label for>`, a wrapping label, `aria-label` or `aria-labelledby`.
 * Answers a description of each control that has none (empty when all are labelled). The check
 * runs in the page (a script expression: the tests compile without the DOM's types).
 */
export function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const controls = Array.from(document.querySelectorAll('input, select, textarea'));
    const unlabelled = [];
    for (const control of controls) {
      const type = (control.getAttribute('type') || '').toLowerCase();
      if (['hidden', 'submit', 'button', 'reset', 'image'].includes(type)) continue;
      const labelledBy = (control.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean);
      const named =
        (control.getAttribute('aria-label') || '').trim() !== '' ||
        labelledBy.some((id) => (document.getElementById(id)?.textContent || '').trim() !== '') ||
        Array.from(control.labels || []).some((label) => label.textContent.trim() !== '');
      if (!named) unlabelled.push(control.outerHTML.slice(0, 120));
    }
    return unlabelled;
  })()`);
}

/** What the page's markup holds that a strict CSP would refuse: inline scripts, style attributes and elements, inline handlers. */
export function inlineCode(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const found = [];
    for (const script of document.querySelectorAll('script:not([src])')) found.push('script: ' + script.textContent.slice(0, 60));
    for (const style of document.querySelectorAll('style')) found.push('style element');
    for (const element of document.querySelectorAll('*')) {
      if (element.hasAttribute('style')) found.push('style attribute on ' + element.tagName);
      for (const attribute of element.getAttributeNames()) {
        if (attribute.startsWith('on')) found.push(attribute + ' on ' + element.tagName);
      }
    }
    return found;
  })()`);
}

/** Describes the focused element: its tag, name or id, and its text. */
export function focused(page: Page): Promise<string> {
  return page.evaluate<string>(`(() => {
    const element = document.activeElement;
    if (!element) return 'nothing';
    const name = element.getAttribute('name') || element.id || '';
    return element.tagName.toLowerCase() + (name ? '[' + name + ']' : '') + ' ' + (element.textContent || '').trim().slice(0, 40);
  })()`);
}
