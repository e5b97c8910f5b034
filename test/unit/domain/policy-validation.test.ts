import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../shared/domain/errors.js';
import { applyPolicyChange, validatedPolicies } from '../../../shared/domain/policy-validation.js';
import { thrownBy } from '../support/thrown.js';

describe('validatedPolicies', () => {
  it('accepts every facet', () => {
    const policies = {
      requireApproval: true,
      blockedTerms: ['spam'],
      allowedPlatforms: ['linkedin' as const],
      postingWindow: { start: '09:00', end: '17:00', days: [1, 5] },
      blackoutDates: ['2026-12-25'],
      requireAltText: true,
    };

    expect(validatedPolicies(policies)).toEqual(policies);
  });

  it('names each problem by its path in the policies', () => {
    const thrown = thrownBy(() =>
      validatedPolicies({
        postingWindow: { start: '25:00', end: '17:00' },
        blackoutDates: ['2026-12-25', '2026-02-30'],
      }),
    );

    expect(thrown).toBeInstanceOf(InvalidRequestError);
    expect((thrown as InvalidRequestError).details).toEqual({
      'postingWindow.start': [expect.stringContaining('HH:MM')],
      'blackoutDates.1': ['Not a calendar date.'],
    });
    expect((thrown as InvalidRequestError).message).toContain('blackoutDates.1: Not a calendar date.');
  });
});

describe('applyPolicyChange', () => {
  const current = { requireApproval: true, blockedTerms: ['spam'] };

  it('sets over the current policies, removes the unset ones, or starts from none', () => {
    expect(applyPolicyChange(current, { set: { requireAltText: true }, unset: ['blockedTerms'] })).toEqual({
      requireApproval: true,
      requireAltText: true,
    });
    expect(applyPolicyChange(current, { set: { requireAltText: true }, clear: true })).toEqual({
      requireAltText: true,
    });
  });
});
