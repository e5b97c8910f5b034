import { describe, expect, it } from 'vitest';
import { makeDashboardApp } from '../../../shared/dashboard/app.js';
import { SESSION_COOKIE } from '../../../shared/dashboard/cookies.js';
import type { DashboardDeps, DashboardSettings } from '../../../shared/dashboard/env.js';
import { silentLogger } from '../../../shared/ports/logger.js';
import type { DashboardAuth } from '../../../shared/services/users/dashboard-auth.js';

const SETTINGS: DashboardSettings = { secureCookies: true, logger: silentLogger };

/** Deps whose only part these requests reach is the session's look-up, which finds none. */
function depsWithoutSessions(): DashboardDeps {
  const auth: Pick<DashboardAuth, 'resolveSession'> = { resolveSession: async () => undefined };
  return { ...SETTINGS, auth } as unknown as DashboardDeps;
}

/** The app as the Lambda makes it, its deps counted each time they are built. */
function lambdaApp(build: () => Promise<DashboardDeps> = async () => depsWithoutSessions()) {
  const counted = { builds: 0 };
  const app = makeDashboardApp({
    ...SETTINGS,
    loadDeps: () => {
      counted.builds += 1;
      return build();
    },
  });
  return { app, counted };
}

const withSession = { headers: { cookie: `${SESSION_COOKIE}=${'a'.repeat(43)}` } };

describe('the dashboard builds its deps on the first request that needs them', () => {
  it('answers the sign-in page, the assets and the redirect to sign in without building them', async () => {
    // Prepare
    const { app, counted } = lambdaApp();

    // Act
    const signIn = await app.request('/dashboard/sign-in');
    const stylesheet = await app.request('/dashboard/assets/dashboard.css');
    const redirect = await app.request('/dashboard/workspaces');

    // Assess
    expect(signIn.status).toBe(200);
    expect(await signIn.text()).toContain('Sign in');
    expect(stylesheet.status).toBe(200);
    expect(redirect.status).toBe(303);
    expect(counted.builds).toBe(0);
  });

  it('builds them for a session cookie, once for the instance', async () => {
    // Prepare
    const { app, counted } = lambdaApp();

    // Act
    const first = await app.request('/dashboard/workspaces', withSession);
    const second = await app.request('/dashboard/workspaces', withSession);

    // Assess: the session is not live, so both go to sign in, through the same deps.
    expect([first.status, second.status]).toEqual([303, 303]);
    expect(counted.builds).toBe(1);
  });

  it('answers a failed build with the error page, and builds again on the next request', async () => {
    // Prepare
    let failures = 1;
    const { app, counted } = lambdaApp(async () => {
      if (failures-- > 0) throw new Error('the first import failed');
      return depsWithoutSessions();
    });

    // Act
    const failed = await app.request('/dashboard/workspaces', withSession);
    const next = await app.request('/dashboard/workspaces', withSession);

    // Assess
    expect(failed.status).toBe(500);
    expect(await failed.text()).toContain('Something went wrong');
    expect(next.status).toBe(303);
    expect(counted.builds).toBe(2);
  });
});
