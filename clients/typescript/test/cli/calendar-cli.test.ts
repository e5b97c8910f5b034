import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { BootstrapResult } from '../../../../shared/services/admin.js';
import { startTestHost, type TestHost } from '../../../../test/support/test-host.js';
import { createClient } from '../../src/index.js';
import { paginate } from '../../src/paginate.js';
import type { Post } from '../../src/types.js';
import { type CliTarget, runCli, startCli } from './run-calendar-cli.js';

const DAY_MS = 86_400_000;
/** A local date `days` from now, YYYY-MM-DD (UTC's: far enough ahead that the zone never matters). */
const dayAhead = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

/**
 * social-calendar as a user runs it: a child process against the local host (HTTP, DynamoDB Local,
 * the sandbox networks), the key and address from the environment.
 */
describe('social-calendar against the local host', () => {
  let host: TestHost;
  let dir: string;

  beforeAll(async () => {
    host = await startTestHost();
    dir = mkdtempSync(join(tmpdir(), 'social-calendar-'));
  });
  afterAll(async () => {
    await host.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const tenantOf = async (name: string) => {
    const tenant = await host.admin.bootstrap({ name, planTier: 'pro' });
    const target: CliTarget = { baseUrl: host.baseUrl, apiKey: tenant.apiKey };
    const run = (...args: string[]) => runCli(target, [...args, '--workspace', tenant.workspaceId], dir);
    return { tenant, target, run };
  };
  const write = (name: string, calendar: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof calendar === 'string' ? calendar : stringify(calendar));
    return path;
  };
  const postsOf = async (tenant: BootstrapResult, externalIdPrefix: string): Promise<Post[]> => {
    const client = createClient({ baseUrl: host.baseUrl, apiKey: tenant.apiKey });
    const posts: Post[] = [];
    for await (const post of paginate((cursor) =>
      client.api.GET('/v1/workspaces/{workspace_id}/posts', {
        params: {
          path: { workspace_id: tenant.workspaceId },
          query: { externalIdPrefix, limit: 100, ...(cursor && { cursor }) },
        },
      }),
    ))
      posts.push(post);
    return posts;
  };

  it('plans a month from an empty workspace, applies it, then plans nothing; a pulled file is a no-op; one edit plans one change', async () => {
    const { tenant, run } = await tenantOf('Calendar round trip');
    const day = dayAhead(3);
    const path = write('launch.yaml', {
      calendar: 'launch',
      timezone: 'Europe/Berlin',
      slots: [
        {
          accountId: tenant.accounts.twitter,
          days: ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'],
          times: ['07:30'],
        },
      ],
      posts: [
        {
          key: 'teaser',
          platform: 'twitter',
          accountId: tenant.accounts.twitter,
          postType: 'text',
          content: 'Soon.',
          at: `${day}T09:00`,
        },
        {
          key: 'daily-tip',
          platform: 'linkedin',
          accountId: tenant.accounts.linkedin,
          postType: 'text',
          content: 'A tip a day.',
          repeat: { rule: 'FREQ=DAILY;COUNT=3', start: `${day}T08:00` },
        },
        {
          key: 'evergreen-1',
          platform: 'twitter',
          accountId: tenant.accounts.twitter,
          postType: 'text',
          content: 'First from the queue.',
        },
        {
          key: 'evergreen-2',
          platform: 'twitter',
          accountId: tenant.accounts.twitter,
          postType: 'text',
          content: 'Second from the queue.',
        },
        {
          key: 'idea',
          platform: 'twitter',
          accountId: tenant.accounts.twitter,
          postType: 'text',
          content: 'Later, maybe.',
          status: 'draft',
        },
      ],
    });

    const planned = await run('plan', path);
    expect(planned.stderr).toBe('');
    expect(planned.code).toBe(2);
    expect(planned.stdout).toContain(
      'Plan: 7 to create, 0 to reschedule, 0 to edit, 0 to cancel, 0 unchanged.',
    );
    // The slot entries take the next two free 07:30 slots, in file order, and say so.
    expect(planned.stdout).toMatch(/launch\/evergreen-1[^\n]*07:30[^\n]*slot/);
    expect(planned.stdout).toContain('Quota forecast');

    const applied = await run('apply', path);
    expect(applied.code).toBe(0);
    expect(applied.stderr).toContain('[7/7]');
    const posts = await postsOf(tenant, 'launch/');
    expect(posts.map((post) => post.externalId).sort()).toEqual(
      [
        `launch/daily-tip@${day}T08:00`,
        'launch/evergreen-1',
        'launch/evergreen-2',
        'launch/idea',
        'launch/teaser',
      ]
        .concat([1, 2].map((offset) => `launch/daily-tip@${dayAhead(3 + offset)}T08:00`))
        .sort(),
    );
    const teaser = posts.find((post) => post.externalId === 'launch/teaser');
    expect(teaser?.scheduledAt).toBe(new Date(`${day}T09:00:00+01:00`).toISOString());

    const again = await run('plan', path);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      'Plan: 0 to create, 0 to reschedule, 0 to edit, 0 to cancel, 7 unchanged.',
    );

    const pulled = await run('pull', '--calendar', 'launch');
    expect(pulled.code).toBe(0);
    const pulledPath = write('pulled.yaml', pulled.stdout);
    const noop = await run('plan', pulledPath, '--calendar', 'launch');
    expect(noop.stdout).toContain('0 to create, 0 to reschedule, 0 to edit, 0 to cancel, 7 unchanged.');
    expect(noop.code).toBe(0);

    const edited = parse(pulled.stdout) as { posts: { key: string; content: string }[] };
    const teaserEntry = edited.posts.find((entry) => entry.key === 'teaser');
    if (!teaserEntry) throw new Error('the pulled file lost the teaser');
    teaserEntry.content = 'Sooner than you think.';
    const one = await run('plan', write('edited.yaml', edited), '--markdown');
    expect(one.code).toBe(2);
    expect(one.stdout).toContain('0 to create, 0 to reschedule, 1 to edit, 0 to cancel, 6 unchanged.');
    expect(one.stdout).toMatch(/\|.*edit.*launch\/teaser.*\|/);
  });

  it('an apply killed halfway and run again ends with every post exactly once', async () => {
    const { tenant, target, run } = await tenantOf('Calendar kill');
    const total = 40;
    const day = dayAhead(5);
    const path = write('bulk.yaml', {
      calendar: 'bulk',
      posts: Array.from({ length: total }, (_, index) => ({
        key: `post-${index}`,
        platform: 'twitter',
        accountId: tenant.accounts.twitter,
        postType: 'text',
        content: `Bulk post ${index}`,
        at: `${day}T${String(8 + Math.floor(index / 6)).padStart(2, '0')}:${String((index % 6) * 10).padStart(2, '0')}`,
      })),
    });

    const child = startCli(target, ['apply', path, '--workspace', tenant.workspaceId], dir);
    const killedAt = await new Promise<number>((resolve, reject) => {
      let seen = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        seen += chunk.toString('utf8');
        const step = [...seen.matchAll(/\[(\d+)\/40\]/g)].at(-1);
        if (step && Number(step[1]) >= 10) {
          child.kill('SIGKILL');
          resolve(Number(step[1]));
        }
      });
      child.on('close', () => reject(new Error(`apply ended before it was killed: ${seen}`)));
    });
    await new Promise((resolve) => child.once('close', resolve));
    const partial = await postsOf(tenant, 'bulk/');
    expect(partial.length).toBeGreaterThanOrEqual(killedAt);
    expect(partial.length).toBeLessThan(total);

    const rerun = await run('apply', path);
    expect(rerun.code).toBe(0);
    const posts = await postsOf(tenant, 'bulk/');
    const externalIds = posts.map((post) => post.externalId);
    expect(posts).toHaveLength(total);
    expect(new Set(externalIds).size).toBe(total);
    expect((await run('plan', path)).code).toBe(0);
  });

  it('flags a day over the daily limit before anything is created, and apply refuses it', async () => {
    const { tenant, run } = await tenantOf('Calendar over quota');
    const day = dayAhead(4);
    // Facebook's ceiling is 30 posts a day per Page; three already scheduled leave room for 27, not 28.
    const client = createClient({ baseUrl: host.baseUrl, apiKey: tenant.apiKey });
    for (const minute of [0, 1, 2]) {
      await client.createPost(tenant.workspaceId, {
        platform: 'facebook',
        accountId: tenant.accounts.facebook,
        postType: 'text',
        status: 'scheduled',
        content: `Made elsewhere ${minute}`,
        scheduledAt: `${day}T06:0${minute}:00Z`,
      });
    }
    const path = write('crowded.yaml', {
      calendar: 'crowded',
      posts: Array.from({ length: 28 }, (_, index) => ({
        key: `p${index}`,
        platform: 'facebook',
        accountId: tenant.accounts.facebook,
        postType: 'text',
        content: `Crowded ${index}`,
        at: `${day}T10:${String(index).padStart(2, '0')}:00Z`,
      })),
    });
    const planned = await run('plan', path);
    expect(planned.code).toBe(1);
    expect(planned.stdout).toMatch(new RegExp(`${day}[^\\n]*28[^\\n]*3[^\\n]*30[^\\n]*over`, 'i'));
    expect(await postsOf(tenant, 'crowded/')).toEqual([]);

    const applied = await run('apply', path);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain('not applied');
    expect(await postsOf(tenant, 'crowded/')).toEqual([]);
  });

  it("shows a policy's refusal and the approvals a workspace asks for in the plan", async () => {
    const { tenant, run } = await tenantOf('Calendar policies');
    await host.admin.setPolicies(tenant.tenantId, tenant.workspaceId, {
      blockedTerms: ['guaranteed returns'],
      requireApproval: true,
    });
    const day = dayAhead(2);
    const path = write('reviewed.yaml', {
      calendar: 'reviewed',
      posts: [
        {
          key: 'fine',
          platform: 'twitter',
          accountId: tenant.accounts.twitter,
          postType: 'text',
          content: 'Hello.',
          at: `${day}T10:00:00Z`,
        },
        {
          key: 'hype',
          platform: 'twitter',
          accountId: tenant.accounts.twitter,
          postType: 'text',
          content: 'Guaranteed returns!',
          at: `${day}T11:00:00Z`,
        },
      ],
    });
    const planned = await run('plan', path);
    expect(planned.code).toBe(1);
    expect(planned.stdout).toMatch(/needs approval/i);
    expect(planned.stdout).toMatch(/refused:[^\n]*content policy[^\n]*guaranteed returns/i);
    expect(await postsOf(tenant, 'reviewed/')).toEqual([]);
  });

  it('apply --plan makes the saved plan, and refuses it once the service changed', async () => {
    const { tenant, run } = await tenantOf('Calendar saved plan');
    const day = dayAhead(6);
    const entry = (key: string, hour: number) => ({
      key,
      platform: 'twitter',
      accountId: tenant.accounts.twitter,
      postType: 'text',
      content: `Saved ${key}`,
      at: `${day}T${hour}:00:00Z`,
    });
    const path = write('saved.yaml', { calendar: 'saved', posts: [entry('a', 10), entry('b', 11)] });
    const savedPlan = join(dir, 'saved-plan.json');
    expect((await run('plan', path, '--out', savedPlan)).code).toBe(2);
    expect((await run('apply', path, '--plan', savedPlan)).code).toBe(0);
    expect(await postsOf(tenant, 'saved/')).toHaveLength(2);

    // Plan a change, then let someone move a post before the plan is applied.
    writeFileSync(path, stringify({ calendar: 'saved', posts: [entry('a', 12), entry('b', 11)] }));
    expect((await run('plan', path, '--out', savedPlan)).code).toBe(2);
    const b = (await postsOf(tenant, 'saved/b')).at(0);
    if (!b) throw new Error('no post b');
    const client = createClient({ baseUrl: host.baseUrl, apiKey: tenant.apiKey });
    await client.reschedulePost(tenant.workspaceId, b.id, `${day}T13:00:00Z`);
    const refused = await run('apply', path, '--plan', savedPlan);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the service changed since the plan');
    const a = (await postsOf(tenant, 'saved/a')).at(0);
    expect(a?.scheduledAt).toBe(`${day}T10:00:00.000Z`);
    expect(JSON.parse(readFileSync(savedPlan, 'utf8'))).toMatchObject({ format: 'social-calendar-plan' });
  });

  it('puts a weekly post at its declared local time on both sides of a DST change', async () => {
    const { tenant, run } = await tenantOf('Calendar DST');
    const zone = 'Europe/Berlin';
    const change = nextOffsetChange(zone);
    const start = change.subtract({ days: 14 });
    const path = write('weekly.yaml', {
      calendar: 'weekly',
      timezone: zone,
      horizonDays: 366,
      posts: [
        {
          key: 'digest',
          platform: 'twitter',
          accountId: tenant.accounts.twitter,
          postType: 'text',
          content: 'The weekly digest.',
          repeat: { rule: 'FREQ=WEEKLY;COUNT=4', start: `${start.toString()}T09:00` },
        },
      ],
    });
    expect((await run('apply', path)).code).toBe(0);
    const posts = await postsOf(tenant, 'weekly/');
    const local = posts.map((post) =>
      Temporal.Instant.from(post.scheduledAt ?? '')
        .toZonedDateTimeISO(zone)
        .toPlainTime()
        .toString(),
    );
    expect(local).toEqual(['09:00:00', '09:00:00', '09:00:00', '09:00:00']);
    // The same wall-clock time is another UTC hour after the change.
    const utcHours = new Set(posts.map((post) => new Date(post.scheduledAt ?? '').getUTCHours()));
    expect(utcHours.size).toBe(2);
    expect(posts.map((post) => post.externalId)).toEqual(
      [start, start.add({ days: 7 }), change, change.add({ days: 7 })].map(
        (day) => `weekly/digest@${day.toString()}T09:00`,
      ),
    );
  });

  it('says what is wrong with a file, every problem at once, and exits 1', async () => {
    const { run } = await tenantOf('Calendar bad file');
    const path = write('bad.yaml', {
      calendar: 'bad',
      posts: [
        {
          key: 'x',
          platform: 'twitter',
          accountId: 'acc_1',
          postType: 'text',
          content: 'x',
          at: 'tomorrow',
          colour: 'red',
        },
      ],
    });
    const planned = await run('plan', path);
    expect(planned.code).toBe(1);
    expect(planned.stderr).toContain('posts[0].at');
    expect(planned.stderr).toContain('posts[0].colour');
    expect(planned.stderr).not.toMatch(/\n\s+at /);
  });
});

/**
 * The first day, at least 16 days ahead (so two weeks before it are still ahead too), whose noon in
 * `zone` has another UTC offset than the day before's: a DST change.
 */
function nextOffsetChange(zone: string): Temporal.PlainDate {
  let day = Temporal.Now.plainDateISO(zone).add({ days: 16 });
  const offsetAt = (date: Temporal.PlainDate) =>
    date.toZonedDateTime({ timeZone: zone, plainTime: '12:00' }).offsetNanoseconds;
  for (let step = 0; step < 370; step++) {
    const next = day.add({ days: 1 });
    if (offsetAt(next) !== offsetAt(day)) return next;
    day = next;
  }
  throw new Error(`${zone} has no offset change within a year`);
}
