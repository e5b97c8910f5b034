import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspacePolicies } from '../../../shared/domain/policies.js';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { type DashboardClient, signedInAs } from '../../support/dashboard-client.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';

/** Every facet of set-policy, filled in. */
const EVERY_FACET = {
  requireApproval: 'on',
  blockedTerms: 'spam\r\n  buy now \r\n\r\nspam',
  allowedPlatforms: ['linkedin', 'twitter'],
  windowDays: ['1', '2', '3', '4', '5'],
  windowStart: '09:00',
  windowEnd: '17:00',
  blackoutDates: '2026-12-25\n2026-12-24',
  requireAltText: 'on',
};

/**
 * The policies page over real HTTP: every facet of the admin CLI's set-policy round-trips; bad
 * input answers 422 with the field's error and saves nothing; a viewer reads and changes nothing.
 */
describe('dashboard: policies', () => {
  let host: TestHost;
  let tenant: BootstrapResult;
  let admin: DashboardClient;
  let viewer: DashboardClient;
  let policiesPage: string;

  beforeAll(async () => {
    host = await startTestHost();
    tenant = await host.admin.bootstrap({ name: 'Policies page' });
    const mine = { tenantId: tenant.tenantId, workspaceIds: [tenant.workspaceId] };
    ({ client: admin } = await signedInAs(host, { ...mine, role: 'workspace_admin' }));
    ({ client: viewer } = await signedInAs(host, { ...mine, role: 'viewer' }));
    policiesPage = `/workspaces/${tenant.workspaceId}/policies`;
  });
  afterAll(() => host?.stop());

  const stored = async () =>
    (await host.deps.tenancy.getWorkspace(tenant.tenantId, tenant.workspaceId))?.policies;

  it('saves every facet and shows them again in the form', async () => {
    // Act
    const saved = await admin.post(policiesPage, EVERY_FACET);
    const page = await admin.get(String(saved.location));

    // Assess
    expect(saved.status).toBe(303);
    const expected: WorkspacePolicies = {
      requireApproval: true,
      blockedTerms: ['spam', 'buy now'],
      allowedPlatforms: ['linkedin', 'twitter'],
      postingWindow: { start: '09:00', end: '17:00', days: [1, 2, 3, 4, 5] },
      blackoutDates: ['2026-12-24', '2026-12-25'],
      requireAltText: true,
    };
    expect(await stored()).toEqual(expected);
    expect(page.html).toContain('Policies saved.');
    expect(page.html).toMatch(/name="requireApproval" value="on" checked>/);
    expect(page.html).toMatch(/name="requireAltText" value="on" checked>/);
    expect(page.html).toContain('>spam\nbuy now</textarea>');
    expect(page.html).toContain('>2026-12-24\n2026-12-25</textarea>');
    expect(page.html).toMatch(/name="allowedPlatforms" value="linkedin" checked>/);
    expect(page.html).not.toMatch(/name="allowedPlatforms" value="youtube" checked>/);
    expect(page.html).toMatch(/name="windowDays" value="1" checked>/);
    expect(page.html).not.toMatch(/name="windowDays" value="0" checked>/);
    expect(page.html).toContain('name="windowStart" type="text" value="09:00"');
    expect(page.html).toContain('name="windowEnd" type="text" value="17:00"');
  });

  it('removes every policy when the form is emptied', async () => {
    // Prepare
    await admin.post(policiesPage, EVERY_FACET);

    // Act
    const saved = await admin.post(policiesPage, {
      blockedTerms: '',
      blackoutDates: '',
      windowStart: '',
      windowEnd: '',
    });

    // Assess
    expect(saved.status).toBe(303);
    expect(await stored()).toEqual({});
  });

  it.each<[string, Record<string, string>, string, string]>([
    [
      'a date that does not exist',
      { blackoutDates: '2026-12-24\n2026-02-30' },
      'blackoutDates',
      '2026-02-30: Not a calendar date.',
    ],
    [
      'a date in another shape',
      { blackoutDates: '24/12/2026' },
      'blackoutDates',
      'Expected a date as YYYY-MM-DD.',
    ],
    [
      'an hour past 23',
      { windowStart: '25:00', windowEnd: '17:00' },
      'windowStart',
      'Expected a time of day as HH:MM',
    ],
    ['a window without an end', { windowStart: '09:00' }, 'windowEnd', 'Expected a time of day as HH:MM'],
    [
      'equal start and end',
      { windowStart: '09:00', windowEnd: '09:00' },
      'windowEnd',
      'start and end must differ',
    ],
  ])(
    'refuses %s with 422, the field error and what was typed, saving nothing',
    async (_name, form, field, message) => {
      // Prepare
      await admin.post(policiesPage, { requireAltText: 'on' });

      // Act
      const answer = await admin.post(policiesPage, { requireApproval: 'on', ...form });

      // Assess
      expect(answer.status).toBe(422);
      expect(answer.html).toContain(`id="field-${field}-error"`);
      expect(answer.html).toContain(message);
      expect(answer.html).toMatch(/name="requireApproval" value="on" checked>/);
      for (const value of Object.values(form)) expect(answer.html).toContain(value);
      expect(await stored()).toEqual({ requireAltText: true });
    },
  );

  it('refuses a forged platform or day with 422 on its field, saving nothing', async () => {
    // Prepare
    await admin.post(policiesPage, { requireAltText: 'on' });

    // Act
    const platform = await admin.post(policiesPage, { allowedPlatforms: ['linkedin', 'myspace'] });
    const day = await admin.post(policiesPage, {
      windowDays: ['7'],
      windowStart: '09:00',
      windowEnd: '17:00',
    });

    // Assess
    expect(platform.status).toBe(422);
    expect(platform.html).toContain('id="field-allowedPlatforms-error"');
    expect(day.status).toBe(422);
    expect(day.html).toContain('id="field-windowDays-error"');
    expect(await stored()).toEqual({ requireAltText: true });
  });

  it('shows a viewer the policies without the form and refuses their change', async () => {
    // Prepare
    await admin.post(policiesPage, { blockedTerms: 'spam' });

    // Act
    const page = await viewer.get(policiesPage);
    const forged = await viewer.post(policiesPage, { requireApproval: 'on' });

    // Assess
    expect(page.status).toBe(200);
    expect(page.html).toContain('<dd>spam</dd>');
    expect(page.html).not.toContain('Save policies');
    expect(forged.status).toBe(403);
    expect(await stored()).toEqual({ blockedTerms: ['spam'] });
  });
});
