import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planChanges } from '../../src/calendar/diff.js';
import { idempotencyKeyFor } from '../../src/calendar/idempotency.js';
import type { ServiceState } from '../../src/calendar/model.js';
import {
  checkSavedPlan,
  fingerprintState,
  parseSavedPlan,
  readSavedPlan,
  type SavedPlan,
  SavedPlanError,
  savedPlanOf,
  serializeSavedPlan,
  sha256Hex,
  writeSavedPlan,
} from '../../src/calendar/saved-plan.js';
import { desiredPost, postRead, state } from './plan-fixtures.js';

const NOW = new Date('2026-12-01T10:00:00.000Z');

function samplePlan(current: ServiceState): SavedPlan {
  const desired = [
    desiredPost('acme/new'),
    desiredPost('acme/moved', { scheduledAt: '2026-12-09T08:00:00Z' }),
    desiredPost('acme/kept', { scheduledAt: '2026-12-10T08:00:00Z' }),
  ];
  return savedPlanOf({
    baseUrl: 'http://localhost:3000',
    workspaceId: 'wks_1',
    calendar: 'acme',
    now: NOW,
    fileSha256: sha256Hex('calendar: acme\n'),
    state: current,
    items: planChanges(desired, current),
  });
}

function sampleState(): ServiceState {
  return state({
    managed: [
      postRead({ id: 'pst_1', externalId: 'acme/moved' }),
      postRead({ id: 'pst_2', externalId: 'acme/kept', scheduledAt: '2026-12-10T08:00:00.000Z' }),
      postRead({ id: 'pst_3', externalId: 'acme/dropped' }),
      postRead({ id: 'pst_4', externalId: 'acme/new', status: 'cancelled' }),
    ],
  });
}

describe('savedPlanOf', () => {
  it('keeps the changes only, a create with its body and keyed by its generation, a change with its patch', () => {
    // Act
    const plan = samplePlan(sampleState());

    // Assess
    expect(plan).toMatchObject({
      format: 'social-calendar-plan',
      version: 1,
      createdAt: '2026-12-01T10:00:00.000Z',
    });
    expect(plan.items).toEqual([
      { kind: 'cancel', externalId: 'acme/dropped', postId: 'pst_3' },
      {
        kind: 'create',
        externalId: 'acme/new',
        body: desiredPost('acme/new').body,
        // One cancelled post of the entry already: generation 1.
        idempotencyKey: idempotencyKeyFor('wks_1', 'acme/new', 1),
      },
      {
        kind: 'reschedule',
        externalId: 'acme/moved',
        postId: 'pst_1',
        patch: { scheduledAt: '2026-12-09T08:00:00Z' },
      },
    ]);
  });
});

describe('fingerprintState', () => {
  it('does not depend on the order posts were listed in', () => {
    const current = sampleState();
    const reversed = state({ managed: [...current.managed].reverse() });
    expect(fingerprintState(reversed)).toBe(fingerprintState(current));
  });

  it('changes when a post is written or changes status, or a post appears', () => {
    const current = sampleState();
    const base = fingerprintState(current);
    const [first, ...rest] = current.managed;
    if (!first) throw new Error('fixture has posts');
    expect(
      fingerprintState(state({ managed: [{ ...first, updatedAt: '2026-12-01T09:00:00.000Z' }, ...rest] })),
    ).not.toBe(base);
    expect(fingerprintState(state({ managed: [{ ...first, status: 'queued' }, ...rest] }))).not.toBe(base);
    expect(fingerprintState({ ...current, others: [postRead({ id: 'pst_9' })] })).not.toBe(base);
  });

  it('ignores a write to a published post that leaves it published (its metrics)', () => {
    const published = postRead({ id: 'pst_1', status: 'published' });
    const refreshed = { ...published, updatedAt: '2026-12-02T00:00:00.000Z' };
    expect(fingerprintState(state({ managed: [refreshed] }))).toBe(
      fingerprintState(state({ managed: [published] })),
    );
  });
});

describe('checkSavedPlan', () => {
  const current = sampleState();
  const plan = samplePlan(current);
  const context = {
    baseUrl: 'http://localhost:3000/',
    workspaceId: 'wks_1',
    fileSha256: sha256Hex('calendar: acme\n'),
    stateFingerprint: fingerprintState(current),
  };

  it('lets a plan through while nothing changed', () => {
    expect(checkSavedPlan(plan, context)).toBeNull();
  });

  it('says why a plan may not be applied', () => {
    const moved = state({
      managed: current.managed.map((post) => ({ ...post, updatedAt: '2026-12-01T11:00:00.000Z' })),
    });
    expect(checkSavedPlan(plan, { ...context, stateFingerprint: fingerprintState(moved) })).toMatch(
      /^the service changed since the plan: /,
    );
    expect(checkSavedPlan(plan, { ...context, fileSha256: sha256Hex('calendar: other\n') })).toMatch(
      /^the calendar file changed since the plan/,
    );
    expect(checkSavedPlan(plan, { ...context, workspaceId: 'wks_2' })).toBe(
      'the plan is for workspace wks_1, not wks_2',
    );
    expect(checkSavedPlan(plan, { ...context, baseUrl: 'https://api.example.com' })).toContain(
      'http://localhost:3000',
    );
  });
});

describe('reading and writing a saved plan', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'saved-plan-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads back what it wrote', async () => {
    const plan = samplePlan(sampleState());
    const path = join(dir, 'plan.json');
    await writeSavedPlan(path, plan);
    expect(await readSavedPlan(path)).toEqual(plan);
  });

  it('refuses a file that is not a saved plan, saying so', async () => {
    const path = join(dir, 'calendar.json');
    await writeFile(path, JSON.stringify({ calendar: 'acme', entries: [] }));
    await expect(readSavedPlan(path)).rejects.toThrow(`${path} is not a saved plan of social-calendar`);
    await expect(readSavedPlan(join(dir, 'missing.json'))).rejects.toThrow(
      /cannot read the saved plan .*ENOENT/,
    );
    expect(() => parseSavedPlan('calendar: acme')).toThrow(SavedPlanError);
    expect(() => parseSavedPlan('calendar: acme')).toThrow(
      'the plan file is not a saved plan: it is not JSON',
    );
  });

  it('refuses another version and a plan with a broken item', () => {
    const plan = samplePlan(sampleState());
    expect(() => parseSavedPlan(JSON.stringify({ ...plan, version: 2 }))).toThrow('version 2');
    const broken = { ...plan, items: [{ kind: 'edit', externalId: 'acme/x', postId: 'pst_1' }] };
    expect(() => parseSavedPlan(serializeSavedPlan(broken as SavedPlan))).toThrow(
      'its items are not changes',
    );
  });
});
