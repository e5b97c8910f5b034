import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CreatedUser,
  createUser,
  dashboardClient,
  hostUsers,
  signIn,
} from '../../support/dashboard-client.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';

const h1 = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1];
const alertOf = (html: string) => /<p class="alert" role="alert">([^<]*)<\/p>/.exec(html)?.[1];

/**
 * Sign-in, sign-out, one-time links and your own account over real HTTP against the local host:
 * the cookie's flags, throttling, sessions ended by sign-out and by a password change, CSRF.
 */
describe('dashboard: signing in and out', () => {
  let host: TestHost;
  let tenantId: string;

  beforeAll(async () => {
    host = await startTestHost();
    tenantId = (await host.admin.createTenant({ name: 'Sign-in tenant' })).tenantId;
  });
  afterAll(() => host?.stop());

  const person = (): Promise<CreatedUser> => createUser(host, { tenantId, role: 'owner' });

  /** A GET with exactly this session cookie, as a browser that kept an old one would send it. */
  const getWithCookie = (path: string, session: string) =>
    fetch(`${host.baseUrl}/dashboard${path}`, {
      headers: { Cookie: `sp_session=${session}` },
      redirect: 'manual',
    });

  it('signs in with email and password: 303 to the workspaces, an HttpOnly Lax cookie on /dashboard, not Secure over http', async () => {
    // Prepare
    const { email, password } = await person();
    const client = dashboardClient(host);
    const form = await client.get('/sign-in');

    // Act
    const answer = await client.post('/sign-in', { email: email.toUpperCase(), password });

    // Assess
    expect(form.status).toBe(200);
    expect(h1(form.html)).toBe('Sign in');
    expect(form.html).toContain('<label for="field-email">Email</label>');
    expect(form.html).toContain('<label for="field-password">Password</label>');
    expect(answer.status).toBe(303);
    expect(answer.location).toBe('/dashboard/workspaces');
    const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('sp_session='));
    expect(cookie).toMatch(/^sp_session=[A-Za-z0-9_-]{43};/);
    const flags = (cookie ?? '').split(';').map((flag) => flag.trim().toLowerCase());
    expect(flags).toEqual(
      expect.arrayContaining(['httponly', 'samesite=lax', 'path=/dashboard', 'max-age=43200']),
    );
    expect(flags).not.toContain('secure');
    expect((await client.get('/me')).status).toBe(200);
  });

  it('goes back where it was sent from, but only within the dashboard', async () => {
    // Prepare
    const { email, password } = await person();

    // Act
    const toMe = await dashboardClient(host).post('/sign-in', { email, password, next: '/dashboard/me' });
    const elsewhere = await dashboardClient(host).post('/sign-in', {
      email,
      password,
      next: 'https://evil.example/',
    });
    const unsigned = await dashboardClient(host).get('/me');

    // Assess
    expect(toMe.location).toBe('/dashboard/me');
    expect(elsewhere.location).toBe('/dashboard/workspaces');
    expect(unsigned.status).toBe(303);
    expect(unsigned.location).toBe('/dashboard/sign-in?next=%2Fdashboard%2Fme');
  });

  it('a next with a control character, or one that leaves the dashboard once resolved, goes to the workspaces: never a 500', async () => {
    // Prepare
    const { email, password } = await person();
    const signedIn = await signIn(host, email, password);
    const injected = '/dashboard/me\r\nSet-Cookie: sp_session=stolen';

    // Act
    const formAnswers = await Promise.all(
      [
        injected,
        '/dashboard/m\ne',
        '/dashboard/me?x=\t1',
        '/dashboard/../admin',
        '/dashboard/me?x=\u00851',
      ].map(
        async (next) => (await dashboardClient(host).post('/sign-in', { email, password, next })).location,
      ),
    );
    const encoded = await dashboardClient(host).post('/sign-in', {
      email,
      password,
      next: '/dashboard/posts?q=Zoë €',
    });
    const pageSignedIn = await signedIn.get(`/sign-in?next=${encodeURIComponent(injected)}`);
    const pageSignedOut = await dashboardClient(host).get(`/sign-in?next=${encodeURIComponent(injected)}`);

    // Assess
    expect(formAnswers).toEqual(Array(5).fill('/dashboard/workspaces'));
    expect(encoded.status).toBe(303);
    expect(encoded.location).toBe('/dashboard/posts?q=Zo%C3%AB%20%E2%82%AC');
    expect(pageSignedIn.status).toBe(303);
    expect(pageSignedIn.location).toBe('/dashboard/workspaces');
    expect(pageSignedOut.status).toBe(200);
    expect(pageSignedOut.html).not.toContain('name="next"');
  });

  it('refuses a wrong password with 401, the same words as an unknown email, and no session', async () => {
    // Prepare
    const { email } = await person();
    const client = dashboardClient(host);

    // Act
    const wrong = await client.post('/sign-in', { email, password: 'not the password at all' });
    const unknown = await dashboardClient(host).post('/sign-in', {
      email: 'nobody@example.com',
      password: 'not the password at all',
    });

    // Assess
    expect(wrong.status).toBe(401);
    expect(alertOf(wrong.html)).toBe('Email or password is wrong.');
    expect(wrong.html).toContain(`value="${email}"`);
    expect(wrong.html).not.toContain('not the password at all');
    expect(unknown.status).toBe(401);
    expect(alertOf(unknown.html)).toBe('Email or password is wrong.');
    expect(client.cookie('sp_session')).toBeUndefined();
  });

  it('after 5 wrong passwords for an email, answers 429 even to the right one', async () => {
    // Prepare
    const { email, password } = await person();
    const client = dashboardClient(host);
    const refusals: number[] = [];
    for (let i = 0; i < 5; i++)
      refusals.push((await client.post('/sign-in', { email, password: `wrong guess ${i}!` })).status);

    // Act
    const throttled = await client.post('/sign-in', { email, password });

    // Assess
    expect(refusals).toEqual([401, 401, 401, 401, 401]);
    expect(throttled.status).toBe(429);
    expect(alertOf(throttled.html)).toMatch(/^Too many failed sign-ins/);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(client.cookie('sp_session')).toBeUndefined();
  });

  it('signing out ends the session: the cookie is cleared and the old value no longer works', async () => {
    // Prepare
    const { email, password } = await person();
    const client = await signIn(host, email, password);
    const session = client.cookie('sp_session') ?? '';

    // Act
    const answer = await client.post('/sign-out');

    // Assess
    expect(answer.status).toBe(303);
    expect(answer.location).toBe('/dashboard/sign-in');
    expect(answer.headers.getSetCookie().find((line) => line.startsWith('sp_session='))).toMatch(
      /Max-Age=0/i,
    );
    expect(client.cookie('sp_session')).toBeUndefined();
    const replayed = await getWithCookie('/me', session);
    expect(replayed.status).toBe(303);
    expect(replayed.headers.get('location')).toMatch(/^\/dashboard\/sign-in/);
  });

  it('a password change ends every other session and keeps this browser signed in', async () => {
    // Prepare
    const { email, password } = await person();
    const here = await signIn(host, email, password);
    const elsewhere = await signIn(host, email, password);
    const account = await here.get('/me');

    // Act
    const changed = await here.post('/me', {
      currentPassword: password,
      newPassword: 'a brand new password',
    });

    // Assess
    expect(h1(account.html)).toBe('Your account');
    expect(changed.status).toBe(303);
    expect(changed.location).toBe('/dashboard/me?done=password_changed');
    const after = await here.get(changed.location ?? '');
    expect(after.status).toBe(200);
    expect(after.html).toContain('Password changed. Other sessions were signed out.');
    expect((await elsewhere.get('/me')).status).toBe(303);
    expect((await dashboardClient(host).post('/sign-in', { email, password })).status).toBe(401);
    await signIn(host, email, 'a brand new password');
  });

  it('refuses a wrong current password with 422, never echoing a password, and changes nothing', async () => {
    // Prepare
    const { email, password } = await person();
    const client = await signIn(host, email, password);

    // Act
    const refused = await client.post('/me', {
      currentPassword: 'wrong current password',
      newPassword: 'a brand new password',
    });

    // Assess
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('The current password is wrong.');
    expect(refused.html).not.toContain('a brand new password');
    expect(refused.html).not.toContain('wrong current password');
    expect((await client.get('/me')).status).toBe(200);
    await signIn(host, email, password);
  });

  it('a form posted without the CSRF token, or from another origin, is 403 and changes nothing', async () => {
    // Prepare
    const { email, password } = await person();
    const client = await signIn(host, email, password);
    const change = { currentPassword: password, newPassword: 'a brand new password' };

    // Act
    const noToken = await client.post('/me', change, { csrf: false });
    const forgedToken = await client.post('/me', change, { csrf: 'A'.repeat(43) });
    const otherOrigin = await client.post('/me', change, { origin: 'https://evil.example' });
    const noSignOut = await client.post('/sign-out', {}, { csrf: false });

    // Assess
    expect([noToken.status, forgedToken.status, otherOrigin.status, noSignOut.status]).toEqual([
      403, 403, 403, 403,
    ]);
    expect((await client.get('/me')).status).toBe(200);
    await signIn(host, email, password);
  });

  it('a one-time link shows whose it is, sets the password once and signs the person in', async () => {
    // Prepare
    const owner = await person();
    const workspace = await host.admin.createWorkspace({ tenantId, name: 'Main' });
    const link = await hostUsers(host).auth.inviteUser(owner.user, {
      email: 'invited@example.com',
      role: 'viewer',
      workspaceIds: [workspace.workspaceId],
    });
    const client = dashboardClient(host);

    // Act
    const shown = await client.get(`/welcome/${link.token}`);
    const mismatch = await client.post(`/welcome/${link.token}`, {
      password: 'the new password',
      confirm: 'another password',
    });
    const tooShort = await client.post(`/welcome/${link.token}`, { password: 'short', confirm: 'short' });
    const set = await client.post(`/welcome/${link.token}`, {
      password: 'the new password',
      confirm: 'the new password',
    });
    const again = await dashboardClient(host).get(`/welcome/${link.token}`);
    const postAgain = await dashboardClient(host).post(`/welcome/${link.token}`, {
      password: 'yet another password',
      confirm: 'yet another password',
    });

    // Assess
    expect(shown.status).toBe(200);
    expect(h1(shown.html)).toBe('Set your password');
    expect(shown.html).toContain('invited@example.com');
    expect(shown.html).toContain('<label for="field-confirm">Repeat the password</label>');
    expect(mismatch.status).toBe(422);
    expect(mismatch.html).not.toContain('the new password');
    expect(tooShort.status).toBe(422);
    expect(tooShort.html).toContain('Use at least 12 characters.');
    expect(set.status).toBe(303);
    expect(set.location).toBe('/dashboard/workspaces');
    expect((await client.get('/me')).html).toContain('invited@example.com');
    expect(again.status).toBe(410);
    expect(h1(again.html)).toBe('This link no longer works');
    expect(postAgain.status).toBe(410);
    await signIn(host, 'invited@example.com', 'the new password');
    expect(host.logs.some((entry) => JSON.stringify(entry).includes(link.token))).toBe(false);
  });

  it('an unknown link is 410 too', async () => {
    // Act
    const answer = await dashboardClient(host).get(`/welcome/${'x'.repeat(43)}`);

    // Assess
    expect(answer.status).toBe(410);
    expect(h1(answer.html)).toBe('This link no longer works');
  });
});
