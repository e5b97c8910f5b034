import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspacePolicies } from '../../shared/domain/policies.js';
import { checkPolicies } from '../../shared/domain/policy-check.js';
import type { BootstrapResult } from '../../shared/services/admin.js';
import { type AdminCliFixture, startAdminCliFixture } from '../support/admin-cli-fixture.js';

/** Well-formed ids that name nothing. */
const NO_TENANT = 'ten_01ARZ3NDEKTSV4RRFFQ69G5FAV';
const NO_WORKSPACE = 'wks_01ARZ3NDEKTSV4RRFFQ69G5FAV';

/** The admin CLI, pointed at tables of this file's own on the suite's DynamoDB Local. */
let fx: AdminCliFixture;

beforeAll(async () => {
  fx = await startAdminCliFixture('admin-cli-policies');
});

afterAll(() => fx?.close());

/** A fresh workspace, and set-policy's arguments for it. */
async function workspace(): Promise<{ tenantId: string; workspaceId: string; target: string[] }> {
  const { tenantId, workspaceId } = await fx.cliJson<BootstrapResult>(['bootstrap']);
  return { tenantId, workspaceId, target: ['set-policy', '--tenant', tenantId, '--workspace', workspaceId] };
}

async function storedPolicies(tenantId: string, workspaceId: string) {
  return (await fx.store.getWorkspace(tenantId, workspaceId))?.policies;
}

describe('admin CLI set-policy', () => {
  it('stores every policy and prints the policies object with --json', async () => {
    // Prepare
    const { tenantId, workspaceId, target } = await workspace();

    // Act
    const printed = await fx.cliJson<WorkspacePolicies>([
      ...target,
      ...['--require-approval', 'true', '--blocked-terms', 'spam, buy now ,spam'],
      ...['--allowed-platforms', 'linkedin,X,twitter', '--posting-window', '09:00-17:00@mon-fri'],
      ...['--blackout-dates', '2026-12-25,2026-12-24', '--require-alt-text', 'false'],
    ]);

    // Assess
    const expected: WorkspacePolicies = {
      requireApproval: true,
      blockedTerms: ['spam', 'buy now'],
      allowedPlatforms: ['linkedin', 'twitter'],
      postingWindow: { start: '09:00', end: '17:00', days: [1, 2, 3, 4, 5] },
      blackoutDates: ['2026-12-24', '2026-12-25'],
      requireAltText: false,
    };
    expect(printed).toEqual(expected);
    expect(await storedPolicies(tenantId, workspaceId)).toEqual(expected);
  });

  it('stores policies that the policy check then applies', async () => {
    const { tenantId, workspaceId, target } = await workspace();
    await fx.cliJson([...target, '--posting-window', '22:00-02:00@fri', '--blocked-terms', 'spam']);

    const policies = await storedPolicies(tenantId, workspaceId);
    const post = { platform: 'linkedin' as const, postType: 'text' as const, media: [] };
    const ctx = { now: 0, mediaKind: () => undefined };

    expect(policies?.postingWindow).toEqual({ start: '22:00', end: '02:00', days: [5] });
    // Saturday 01:00 belongs to Friday's window.
    expect(
      checkPolicies({ ...post, content: 'hi', scheduledAt: '2026-03-07T01:00:00Z' }, policies, ctx),
    ).toBe(undefined);
    expect(
      checkPolicies({ ...post, content: 'Spam!', scheduledAt: '2026-03-07T01:00:00Z' }, policies, ctx)?.facet,
    ).toBe('content');
  });

  it('merges the options over the stored policies: given ones replace, others stay', async () => {
    // Prepare
    const { tenantId, workspaceId, target } = await workspace();
    await fx.cliJson([...target, '--blocked-terms', 'spam,scam', '--require-alt-text', 'true']);

    // Act
    await fx.cliJson([...target, '--posting-window', '22:00-02:00']);
    const replaced = await fx.cliJson<WorkspacePolicies>([...target, '--blocked-terms', 'crypto']);

    // Assess
    const expected: WorkspacePolicies = {
      blockedTerms: ['crypto'],
      requireAltText: true,
      postingWindow: { start: '22:00', end: '02:00' },
    };
    expect(replaced).toEqual(expected);
    expect(await storedPolicies(tenantId, workspaceId)).toEqual(expected);
  });

  it('--unset removes the named policies and keeps the rest', async () => {
    const { tenantId, workspaceId, target } = await workspace();
    await fx.cliJson([...target, '--blocked-terms', 'spam', '--posting-window', '09:00-17:00']);
    await fx.cliJson([...target, '--require-approval', 'true']);

    const result = await fx.cliJson<WorkspacePolicies>([
      ...target,
      '--unset',
      'posting-window,--blocked-terms',
    ]);

    expect(result).toEqual({ requireApproval: true });
    expect(await storedPolicies(tenantId, workspaceId)).toEqual({ requireApproval: true });
  });

  it('--clear starts from no policies, alone or with new ones', async () => {
    const { tenantId, workspaceId, target } = await workspace();
    await fx.cliJson([...target, '--blocked-terms', 'spam', '--allowed-platforms', 'linkedin']);

    const fresh = await fx.cliJson<WorkspacePolicies>([...target, '--clear', '--require-alt-text', 'true']);
    expect(fresh).toEqual({ requireAltText: true });
    expect(await storedPolicies(tenantId, workspaceId)).toEqual({ requireAltText: true });

    const none = await fx.cliJson<WorkspacePolicies>([...target, '--clear']);
    expect(none).toEqual({});
    expect(await storedPolicies(tenantId, workspaceId)).toEqual({});
  });

  it('prints the policies for a person without --json', async () => {
    const { workspaceId, target } = await workspace();

    const result = await fx.cli([
      ...target,
      ...[
        '--posting-window',
        '09:00-17:00@mon,wed',
        '--blocked-terms',
        'spam',
        '--require-approval',
        'false',
      ],
    ]);

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Workspace ${workspaceId} policies:`);
    expect(result.stdout).toMatch(/posting window +09:00–17:00 UTC, on Mon, Wed/);
    expect(result.stdout).toMatch(/blocked terms +"spam"/);
    expect(result.stdout).toMatch(/require approval +no/);
    expect(result.stderr).toContain('target: local host');

    const cleared = await fx.cli([...target, '--clear']);
    expect(cleared.stdout).toBe(`Workspace ${workspaceId} has no policies.\n`);
  });

  it('refuses stored policies that the schema refuses, until they are replaced or cleared', async () => {
    // Prepare: written past the CLI, as an older version might have stored them.
    const { tenantId, workspaceId, target } = await workspace();
    await fx.store.setWorkspacePolicies(tenantId, workspaceId, {
      postingWindow: { start: '9:00', end: '17:00' },
    });

    // Act
    const refused = await fx.cli([...target, '--require-approval', 'true', '--json']);
    const replaced = await fx.cliJson<WorkspacePolicies>([...target, '--posting-window', '09:00-17:00']);

    // Assess
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stdout)).toMatchObject({ error: 'usage' });
    expect(JSON.parse(refused.stdout).message).toContain('--posting-window start');
    expect(replaced).toEqual({ postingWindow: { start: '09:00', end: '17:00' } });
  });
});

describe('admin CLI set-policy failures', () => {
  it('an unknown workspace is a failure (exit 1), not bad usage', async () => {
    const { tenantId } = await fx.cliJson<BootstrapResult>(['bootstrap']);

    const result = await fx.cli([
      ...['set-policy', '--tenant', tenantId, '--workspace', NO_WORKSPACE],
      ...['--require-approval', 'true', '--json'],
    ]);

    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      error: 'not_found',
      message: `No workspace ${NO_WORKSPACE} in tenant ${tenantId}.`,
    });
  });

  it('a workspace of another tenant is not found', async () => {
    const mine = await fx.cliJson<BootstrapResult>(['bootstrap']);
    const theirs = await fx.cliJson<BootstrapResult>(['bootstrap']);

    const result = await fx.cli([
      ...['set-policy', '--tenant', mine.tenantId, '--workspace', theirs.workspaceId],
      ...['--blocked-terms', 'spam'],
    ]);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`error: No workspace ${theirs.workspaceId}`);
    expect(await storedPolicies(theirs.tenantId, theirs.workspaceId)).toBeUndefined();
  });

  const noHost = () => ({ env: { DATA_DIR: fx.tempDir() } });
  const target = ['set-policy', '--tenant', NO_TENANT, '--workspace', NO_WORKSPACE];

  it.each<[string, string[], string]>([
    [
      'an hour past 23',
      ['--posting-window', '25:00-17:00'],
      '--posting-window start: Expected a time of day',
    ],
    [
      'equal start and end',
      ['--posting-window', '09:00-09:00'],
      '--posting-window end: start and end must differ',
    ],
    ['a window without an end', ['--posting-window', '09:00'], '--posting-window must look like 09:00-17:00'],
    ['an unknown day', ['--posting-window', '09:00-17:00@someday'], 'unknown day "someday"'],
    [
      'a date that does not exist',
      ['--blackout-dates', '2026-02-30'],
      '--blackout-dates item 1: Not a calendar date.',
    ],
    [
      'an unknown platform',
      ['--allowed-platforms', 'linkedin,myspace'],
      '--allowed-platforms must be one of',
    ],
    [
      'a boolean that is not true or false',
      ['--require-alt-text', 'yes'],
      '--require-alt-text must be one of true, false',
    ],
    [
      'a term too long',
      ['--blocked-terms', 'a'.repeat(101)],
      '--blocked-terms item 1: A blocked term has at most 100',
    ],
    ['an empty list', ['--blocked-terms', ' , '], '--blocked-terms names at least one term.'],
    ['no change at all', [], 'set-policy needs a policy option, --unset or --clear.'],
    ['unsetting an unknown option', ['--unset', 'tenant'], '--unset takes policy options'],
    [
      'setting and unsetting one option',
      ['--unset', 'blocked-terms', '--blocked-terms', 'x'],
      'both set and unset',
    ],
    [
      'a malformed workspace id',
      ['--workspace', 'ten_nope', '--clear'],
      '--workspace must be a workspace id',
    ],
  ])('refuses %s as bad usage (exit 2) before looking for a host', async (_name, options, message) => {
    // Act
    const result = await fx.cli([...target, ...options], noHost());

    // Assess
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('help');
    expect(result.stderr).not.toContain('No local host');
  });

  it('with --json, an invalid window is one usage error object', async () => {
    const result = await fx.cli([...target, '--posting-window', '09:00-24:00', '--json'], noHost());

    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toEqual({
      error: 'usage',
      message:
        'Invalid policy options: --posting-window end: Expected a time of day as HH:MM, 00:00–23:59 (UTC).',
    });
  });

  it('other commands do not take the policy options', async () => {
    const result = await fx.cli(['create-tenant', '--name', 'x', '--clear'], noHost());

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('create-tenant does not take --clear');
  });

  it('help shows set-policy and its options', async () => {
    const all = await fx.cli(['help'], noHost());
    const one = await fx.cli(['set-policy', '--help'], { env: {} });

    expect(all.stdout).toContain('set-policy');
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('--posting-window 09:00-17:00[@mon-fri|@mon,tue,…]');
    expect(one.stdout).toContain('--clear');
  });
});
