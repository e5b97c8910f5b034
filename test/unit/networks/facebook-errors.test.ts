import { describe, expect, it } from 'vitest';
import { failureOf, type GraphErrorFacts, readGraphError } from '../../../shared/networks/facebook/errors.js';

const facts = (code: number | undefined, subcode?: number, status = 400): GraphErrorFacts => ({
  status,
  ...(code !== undefined && { code }),
  ...(subcode !== undefined && { subcode }),
});

describe('Facebook Graph errors as outcomes (docs/networks.md, Facebook Pages: the error map)', () => {
  it.each([
    [facts(190, 458), 'auth_rejected', 'TOKEN_REJECTED'],
    [facts(190, 459), 'auth_rejected', 'TOKEN_REJECTED'],
    [facts(190, 463), 'auth_rejected', 'TOKEN_REJECTED'],
    [facts(102), 'auth_rejected', 'TOKEN_REJECTED'],
    [facts(492), 'auth_rejected', 'TOKEN_REJECTED'],
    [facts(undefined, undefined, 401), 'auth_rejected', 'TOKEN_REJECTED'],
    [facts(200, 1404078), 'permanent', 'PLATFORM_ACTION_REQUIRED'],
    [facts(368, 1404112), 'permanent', 'PLATFORM_REJECTED_POLICY'],
    [facts(613), 'rate_limited', 'RATE_LIMITED'],
    [facts(341), 'rate_limited', 'RATE_LIMITED'],
    [facts(undefined, undefined, 429), 'rate_limited', 'RATE_LIMITED'],
    [facts(10), 'permanent', 'PLATFORM_PERMISSION_DENIED'],
    [facts(299), 'permanent', 'PLATFORM_PERMISSION_DENIED'],
    [facts(100, 2069019), 'permanent', 'MEDIA_TYPE_UNSUPPORTED'],
    [facts(100, 1366051), 'permanent', 'PLATFORM_REJECTED'],
    [facts(100, 1363047), 'transient', 'PLATFORM_ERROR'],
    [facts(undefined, undefined, 503), 'transient', 'PLATFORM_ERROR'],
    [facts(100, 33), 'permanent', 'PLATFORM_REJECTED'],
  ] as const)('%o → %s %s', (given, failure, code) => {
    expect(failureOf(given, 'feed')).toMatchObject({ kind: 'failed', failure, code });
  });

  it('reads the code, the subcode and the wait from the usage header, never the words', async () => {
    const response = new Response(
      JSON.stringify({
        error: { message: 'Unpublished posts must be posted to a page as the page itself.', code: 200 },
      }),
      {
        status: 400,
        headers: {
          'x-business-use-case-usage': JSON.stringify({ '1': [{ estimated_time_to_regain_access: 3 }] }),
        },
      },
    );
    const read = await readGraphError(response);
    expect(read).toEqual({ status: 400, code: 200, retryAfterSeconds: 180, notAsPage: true });
    expect(failureOf(read, 'photo')).toMatchObject({ failure: 'auth_rejected', platformRawCode: '200' });
    expect(JSON.stringify(failureOf(read, 'photo'))).not.toContain('as the page itself');
  });
});
