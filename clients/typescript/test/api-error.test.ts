import { describe, expect, it } from 'vitest';
import { ApiError, errorFromResponse } from '../src/errors.js';

/** An answer of the service with this envelope, as openapi-fetch hands it over (the body parsed). */
function answer(status: number, body: Record<string, unknown>) {
  const response = new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' },
  });
  return errorFromResponse(response, body);
}

describe('ApiError carries every member the envelope has', () => {
  it('details and errors whenever the envelope has them, whatever the code', () => {
    // Prepare
    const details = { body: ['Unknown field `contnet`; did you mean `content`?'] };
    const errors = [
      { field: 'accountId', code: 'ACCOUNT_PLATFORM_MISMATCH', message: 'Not a twitter account.' },
    ];

    // Act
    const invalid = answer(400, { error: 'INVALID_REQUEST', message: 'See details.', details });
    const failed = answer(422, { error: 'VALIDATION_FAILED', message: 'The post breaks 1 rule.', errors });
    const both = answer(422, { error: 'VALIDATION_FAILED', message: 'Both.', details, errors });

    // Assess
    expect(invalid).toBeInstanceOf(ApiError);
    expect(invalid).toMatchObject({ details, errors: undefined, requestId: 'req_1' });
    expect(failed).toMatchObject({ details: undefined, errors });
    expect(both).toMatchObject({ details, errors });
  });

  it('the message is the envelope message, for a not_found that names what is missing', () => {
    const missing = answer(404, { error: 'not_found', message: 'No account acc_1 in this workspace.' });
    expect(missing).toMatchObject({
      status: 404,
      code: 'not_found',
      message: 'No account acc_1 in this workspace.',
    });
  });
});
