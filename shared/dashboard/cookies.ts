import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { SESSION_TTL_SECONDS } from '../services/users/sessions.js';
import { DASHBOARD_BASE, type DashboardEnv } from './env.js';

/** The session cookie: HttpOnly, SameSite=Lax, Secure wherever the scheme is HTTPS. */
export const SESSION_COOKIE = 'sp_session';
/** Before sign-in, the forms' CSRF token lives in this cookie (double submit). */
export const PRE_SESSION_CSRF_COOKIE = 'sp_csrf';

/** How long a session lasts without signing in again: the service's, so cookie and store agree. */
export { SESSION_TTL_SECONDS };

function options(c: Context<DashboardEnv>, maxAge: number) {
  return {
    path: DASHBOARD_BASE,
    httpOnly: true,
    sameSite: 'Lax',
    secure: c.get('settings').secureCookies,
    maxAge,
  } as const;
}

export function readSessionCookie(c: Context<DashboardEnv>): string | undefined {
  return getCookie(c, SESSION_COOKIE);
}

export function writeSessionCookie(c: Context<DashboardEnv>, sessionToken: string): void {
  setCookie(c, SESSION_COOKIE, sessionToken, options(c, SESSION_TTL_SECONDS));
}

export function clearSessionCookie(c: Context<DashboardEnv>): void {
  deleteCookie(c, SESSION_COOKIE, options(c, 0));
}

export function readPreSessionCsrf(c: Context<DashboardEnv>): string | undefined {
  return getCookie(c, PRE_SESSION_CSRF_COOKIE);
}

export function writePreSessionCsrf(c: Context<DashboardEnv>, token: string): void {
  setCookie(c, PRE_SESSION_CSRF_COOKIE, token, options(c, 60 * 60));
}
