import type { Context, Hono } from 'hono';
import { InvalidRequestError, RateLimitedError } from '../../domain/errors.js';
import { clearSessionCookie, readSessionCookie, writeSessionCookie } from '../cookies.js';
import { withDeps } from '../deps-on-demand.js';
import { DASHBOARD_BASE, type DashboardEnv } from '../env.js';
import { type FormProblem, problemFrom, readForm, textOf } from '../forms.js';
import { page } from '../pages.js';
import { safeNext } from '../session.js';
import { accountBody, linkGoneBody, setPasswordForm, signInForm } from '../views/auth-pages.js';

const HOME = `${DASHBOARD_BASE}/workspaces`;

/** Confirmations after a redirect, by `?done=` code: never the query's own text. */
const NOTICES: Record<string, string> = {
  password_changed: 'Password changed. Other sessions were signed out.',
};

/** A form field as typed: passwords are never trimmed (spaces are part of them). */
function rawOf(form: Record<string, string | string[]>, name: string): string {
  const value = form[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/**
 * The browser's address, for throttling sign-in per address: handed in by the handler as the
 * app's env (`sourceIp` of the API Gateway event); '' when it did not, and only the email counts.
 */
function sourceIpOf(c: Context<DashboardEnv>): string {
  const env: unknown = c.env;
  if (env && typeof env === 'object' && 'sourceIp' in env && typeof env.sourceIp === 'string') {
    return env.sourceIp;
  }
  return '';
}

function minutes(seconds: number): string {
  const count = Math.max(1, Math.ceil(seconds / 60));
  return `${count} minute${count === 1 ? '' : 's'}`;
}

const linkGone = (c: Context<DashboardEnv>) =>
  page(c, { title: 'This link no longer works', body: linkGoneBody }, 410);

/**
 * Sign-in and the one-time links: reachable without a session. The sign-in form itself needs no
 * store (the first page of a cold start); what checks a password or a link builds the deps.
 */
export function registerPublicAuthRoutes(app: Hono<DashboardEnv>): void {
  app.get('/sign-in', (c) => {
    const next = safeNext(c.req.query('next'));
    if (c.var.signedIn) return c.redirect(next ?? HOME, 303);
    return page(c, { title: 'Sign in', body: signInForm(c, { ...(next && { next }) }) });
  });

  app.post('/sign-in', withDeps, async (c) => {
    const form = await readForm(c);
    const email = textOf(form, 'email');
    const next = safeNext(textOf(form, 'next'));
    const outcome = await c.var.deps.auth.signIn({
      email,
      password: rawOf(form, 'password'),
      sourceIp: sourceIpOf(c),
    });
    if (outcome.kind === 'signed_in') {
      writeSessionCookie(c, outcome.sessionToken);
      return c.redirect(next ?? HOME, 303);
    }
    const body = signInForm(c, { email, ...(next && { next }) });
    if (outcome.kind === 'throttled') {
      c.header('Retry-After', String(outcome.retryAfterSeconds));
      return page(
        c,
        {
          title: 'Sign in',
          alert: `Too many failed sign-ins. Try again in ${minutes(outcome.retryAfterSeconds)}.`,
          body,
        },
        429,
      );
    }
    return page(c, { title: 'Sign in', alert: 'Email or password is wrong.', body }, 401);
  });

  app.get('/welcome/:token', withDeps, async (c) => {
    const token = c.req.param('token');
    const user = await c.var.deps.auth.peekSetPasswordLink(token);
    if (!user) return linkGone(c);
    return page(c, { title: 'Set your password', body: setPasswordForm(c, { token, email: user.email }) });
  });

  app.post('/welcome/:token', withDeps, async (c) => {
    const token = c.req.param('token');
    const user = await c.var.deps.auth.peekSetPasswordLink(token);
    if (!user) return linkGone(c);
    const form = await readForm(c);
    const password = rawOf(form, 'password');
    const again = (problem: FormProblem) =>
      page(
        c,
        { title: 'Set your password', body: setPasswordForm(c, { token, email: user.email, problem }) },
        422,
      );
    if (password !== rawOf(form, 'confirm')) {
      return again({
        message: 'The two passwords differ.',
        fields: { confirm: ['Type the same password twice.'] },
      });
    }
    try {
      const done = await c.var.deps.auth.setPasswordWithLink(token, password);
      if (!done) return linkGone(c);
      writeSessionCookie(c, done.sessionToken);
      return c.redirect(HOME, 303);
    } catch (error) {
      if (error instanceof InvalidRequestError) return again(problemFrom(error));
      throw error;
    }
  });
}

/** Signing out and your own account: behind sign-in. */
export function registerAuthRoutes(app: Hono<DashboardEnv>): void {
  app.post('/sign-out', async (c) => {
    const token = readSessionCookie(c);
    if (token) await c.var.deps.auth.signOut(token);
    clearSessionCookie(c);
    c.var.logger.info('dashboard: signed out');
    return c.redirect(`${DASHBOARD_BASE}/sign-in`, 303);
  });

  app.get('/me', (c) => {
    const notice = NOTICES[c.req.query('done') ?? ''];
    return page(c, {
      title: 'Your account',
      body: accountBody(c, { user: c.var.signedIn.user }),
      ...(notice && { notice }),
    });
  });

  app.post('/me', async (c) => {
    const form = await readForm(c);
    const { user } = c.var.signedIn;
    try {
      const fresh = await c.var.deps.auth.changePassword(user, {
        currentPassword: rawOf(form, 'currentPassword'),
        newPassword: rawOf(form, 'newPassword'),
      });
      writeSessionCookie(c, fresh.sessionToken);
      return c.redirect(`${DASHBOARD_BASE}/me?done=password_changed`, 303);
    } catch (error) {
      if (!(error instanceof InvalidRequestError || error instanceof RateLimitedError)) throw error;
      if (error instanceof RateLimitedError) c.header('Retry-After', String(error.retryAfterSeconds));
      const problem =
        error instanceof RateLimitedError
          ? {
              message: `Too many wrong passwords. Try again in ${minutes(error.retryAfterSeconds)}.`,
              fields: {},
            }
          : problemFrom(error);
      return page(
        c,
        { title: 'Your account', body: accountBody(c, { user, problem }) },
        error instanceof RateLimitedError ? 429 : 422,
      );
    }
  });
}
