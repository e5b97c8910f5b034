import { expect } from 'vitest';

/** Asserts the documented error envelope and returns it for further checks. */
export async function expectEnvelope(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('x-request-id')).toBeTruthy();
  const body = (await response.json()) as Record<string, unknown>;
  expect(body.error).toBe(code);
  expect(typeof body.message).toBe('string');
  expect(JSON.stringify(body)).not.toMatch(/\bat .*\.(ts|js):\d+/);
  return body;
}
