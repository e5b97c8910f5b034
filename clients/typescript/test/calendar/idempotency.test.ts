import { describe, expect, it } from 'vitest';
import { planChanges } from '../../src/calendar/diff.js';
import { generationOf, generationOfCreate, idempotencyKeyFor } from '../../src/calendar/idempotency.js';
import { desiredPost, postRead, state } from './plan-fixtures.js';

describe('idempotencyKeyFor', () => {
  it('is cal- and 64 hex digits, the same for the same entry and generation', () => {
    const key = idempotencyKeyFor('wks_1', 'acme/launch', 0);
    expect(key).toMatch(/^cal-[0-9a-f]{64}$/);
    expect(idempotencyKeyFor('wks_1', 'acme/launch', 0)).toBe(key);
  });

  it('differs by workspace, entry and generation', () => {
    const key = idempotencyKeyFor('wks_1', 'acme/launch', 0);
    expect(idempotencyKeyFor('wks_2', 'acme/launch', 0)).not.toBe(key);
    expect(idempotencyKeyFor('wks_1', 'acme/launch2', 0)).not.toBe(key);
    expect(idempotencyKeyFor('wks_1', 'acme/launch', 1)).not.toBe(key);
  });

  it('does not let one part run into the next', () => {
    expect(idempotencyKeyFor('wks_1', 'a1', 0)).not.toBe(idempotencyKeyFor('wks_1a', '1', 0));
  });
});

describe('generations', () => {
  it("counts the entry's cancelled and failed posts only", () => {
    const posts = [
      postRead({ id: 'pst_1', externalId: 'acme/a', status: 'cancelled' }),
      postRead({ id: 'pst_2', externalId: 'acme/a', status: 'failed' }),
      postRead({ id: 'pst_3', externalId: 'acme/a', status: 'published' }),
      postRead({ id: 'pst_4', externalId: 'acme/b', status: 'cancelled' }),
    ];
    expect(generationOf(state({ managed: posts }), 'acme/a')).toBe(2);
    expect(generationOf(state({ managed: posts }), 'acme/c')).toBe(0);
  });

  it("gives a replace's create the generation a re-run will compute once the old post is cancelled", () => {
    // Prepare: the live post was created at generation 0, with key 0.
    const live = postRead({ id: 'pst_1', externalId: 'acme/a' });
    const before = state({ managed: [live] });
    const items = planChanges([desiredPost('acme/a', { accountId: 'acc_li2' })], before);

    // Act
    const planned = generationOfCreate(before, items, 'acme/a');

    // Assess: not the live post's key, and the key of the re-run after the cancel went through.
    const afterCancel = state({ managed: [{ ...live, status: 'cancelled' }] });
    const rerun = planChanges([desiredPost('acme/a', { accountId: 'acc_li2' })], afterCancel);
    expect(planned).toBe(1);
    expect(rerun.map((item) => item.kind)).toEqual(['create']);
    expect(generationOfCreate(afterCancel, rerun, 'acme/a')).toBe(planned);
  });
});
