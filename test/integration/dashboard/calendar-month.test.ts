import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../shared/ports/clock.js';
import type { BootstrapResult } from '../../../shared/services/admin.js';
import { type DashboardClient, signedInAs } from '../../support/dashboard-client.js';
import { postsClient, tweet } from '../../support/post-fixtures.js';
import { startTestHost, type TestHost } from '../../support/test-host.js';

// Wednesday 9 January 2030. The month's grid: Monday 31 December 2029 to Sunday 3 February 2030.
const NOW = Date.parse('2030-01-09T10:00:20Z');

/** The cell of one day, from its opening tag to its end. */
function cellOf(page: string, day: string): string {
  const match = new RegExp(`<td[^>]*><h3 id="day-${day}">[\\s\\S]*?</td>`).exec(page);
  return match?.[0] ?? '';
}

/**
 * The calendar's month over real HTTP: whole weeks Monday first with a column heading per weekday,
 * the days of the months beside it muted and listing their posts, today marked, the filters and
 * the collisions as in the week.
 */
describe('dashboard: the calendar month', () => {
  const clock = fixedClock(NOW);
  let host: TestHost;
  let tenant: BootstrapResult;
  let admin: DashboardClient;
  const ids: Record<string, string> = {};
  const month = (query = '') =>
    admin.get(`/workspaces/${tenant.workspaceId}/calendar?view=month&date=2030-01-20${query}`);

  beforeAll(async () => {
    host = await startTestHost({ clock });
    tenant = await host.admin.bootstrap({ name: 'Month', planTier: 'enterprise' });
    ({ client: admin } = await signedInAs(host, {
      role: 'workspace_admin',
      tenantId: tenant.tenantId,
      workspaceIds: [tenant.workspaceId],
    }));
    const posts = postsClient(host, tenant);
    const create = async (name: string, body: Record<string, unknown>) => {
      const response = await posts.create(tweet(tenant, body));
      expect(response.status).toBe(201);
      ids[name] = ((await response.json()) as { id: string }).id;
    };
    // A draft may carry any planned time, the past included: the grid's leading day.
    await create('leading', { status: 'draft', content: 'Year end', scheduledAt: '2029-12-31T09:00:00Z' });
    await create('inMonth', {
      status: 'scheduled',
      content: 'Mid month',
      scheduledAt: '2030-01-20T09:00:00Z',
    });
    await create('close', { status: 'scheduled', content: 'Too close', scheduledAt: '2030-01-20T09:05:00Z' });
    await create('trailing', {
      status: 'scheduled',
      content: 'Early Feb',
      scheduledAt: '2030-02-02T09:00:00Z',
    });
    await create('beyond', {
      status: 'scheduled',
      content: 'Past the grid',
      scheduledAt: '2030-02-04T09:00:00Z',
    });
  });
  afterAll(() => host?.stop());

  it('is a table of whole weeks, Monday first, with a column heading per weekday', async () => {
    // Act
    const shown = await month();

    // Assess
    expect(shown.status).toBe(200);
    expect(shown.html).toContain('<h2 id="calendar-heading">January 2030</h2>');
    expect(shown.html).toContain(
      '<thead><tr><th scope="col">Monday</th><th scope="col">Tuesday</th><th scope="col">Wednesday</th><th scope="col">Thursday</th><th scope="col">Friday</th><th scope="col">Saturday</th><th scope="col">Sunday</th></tr></thead>',
    );
    const body = /<tbody>([\s\S]*)<\/tbody>/.exec(shown.html)?.[1] ?? '';
    expect(body.match(/<tr>/g)).toHaveLength(5);
    expect(body.match(/<td /g)).toHaveLength(35);
    expect(body).toMatch(/^<tr><td class="calendar-day outside"><h3 id="day-2029-12-31">/);
    expect(body).not.toContain('id="day-2029-12-30"');
    expect(body).toContain('id="day-2030-02-03"');
    expect(body).not.toContain('id="day-2030-02-04"');
  });

  it("mutes the days of the months beside it but lists their posts; today's cell is marked", async () => {
    // Act
    const shown = await month();

    // Assess
    const leading = cellOf(shown.html, '2029-12-31');
    expect(leading).toMatch(/^<td class="calendar-day outside">/);
    expect(leading).toContain(`data-post-id="${ids.leading}"`);
    expect(leading).toContain('<ul aria-labelledby="day-2029-12-31">');
    expect(cellOf(shown.html, '2030-02-02')).toContain(`data-post-id="${ids.trailing}"`);
    expect(cellOf(shown.html, '2030-02-01')).toMatch(/^<td class="calendar-day outside empty">/);
    expect(cellOf(shown.html, '2030-02-01')).toContain('<p class="visually-hidden">No posts.</p>');
    expect(cellOf(shown.html, '2030-01-20')).toMatch(/^<td class="calendar-day">/);
    expect(cellOf(shown.html, '2030-01-09')).toMatch(
      /^<td class="calendar-day empty" aria-current="date"><h3 id="day-2030-01-09">.*<span class="badge today">Today<\/span><\/h3>/,
    );
    expect(shown.html.match(/aria-current="date"/g)).toHaveLength(1);
    expect(shown.html).not.toContain(ids.beyond);
  });

  it('keeps the collisions, the filters and the months either side', async () => {
    // Act
    const all = await month();
    const drafts = await month('&status=draft');

    // Assess
    const day = cellOf(all.html, '2030-01-20');
    expect(day).toContain(`<li class="calendar-post collision" data-post-id="${ids.inMonth}">`);
    expect(day).toContain(`<li class="calendar-post collision" data-post-id="${ids.close}">`);
    expect(all.html).toContain('view=month&amp;date=2029-12-01">Previous month</a>');
    expect(all.html).toContain('view=month&amp;date=2030-02-01">Next month</a>');
    expect(drafts.html).toContain(`data-post-id="${ids.leading}"`);
    expect(drafts.html).not.toContain(`data-post-id="${ids.inMonth}"`);
    expect(drafts.html).not.toContain(`data-post-id="${ids.trailing}"`);
  });
});
