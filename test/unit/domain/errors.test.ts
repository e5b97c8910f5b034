import { describe, expect, it } from 'vitest';
import {
  type AppError,
  ConflictError,
  INTERNAL_ERROR_ENVELOPE,
  InvalidRequestError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  PlanInactiveError,
  RateLimitedError,
  toEnvelope,
  UnauthorizedError,
  WorkspaceRequiredError,
} from '../../../shared/domain/errors.js';

describe('toEnvelope', () => {
  it.each<[string, AppError, number, string]>([
    ['InvalidRequestError', new InvalidRequestError('Bad body.'), 400, 'INVALID_REQUEST'],
    ['UnauthorizedError', new UnauthorizedError(), 401, 'unauthorized'],
    ['PermissionDeniedError', new PermissionDeniedError('posts:write'), 403, 'permission_denied'],
    ['PlanInactiveError', new PlanInactiveError(), 403, 'plan_inactive'],
    ['WorkspaceRequiredError', new WorkspaceRequiredError(['wks_A', 'wks_B']), 403, 'workspace_required'],
    ['NotFoundError', new NotFoundError(), 404, 'not_found'],
    ['MethodNotAllowedError', new MethodNotAllowedError('PUT', ['GET']), 405, 'method_not_allowed'],
    ['ConflictError', new ConflictError('Already revoked.'), 409, 'conflict'],
    ['PayloadTooLargeError', new PayloadTooLargeError(1_048_576), 413, 'payload_too_large'],
    ['RateLimitedError', new RateLimitedError('posts_create', 7), 429, 'rate_limited'],
  ])('maps %s to status %i and code %s, with its message', (_name, error, status, code) => {
    // Act
    const envelope = toEnvelope(error);

    // Assess
    expect(error.status).toBe(status);
    expect(envelope.error).toBe(code);
    expect(envelope.message).toBe(error.message);
    expect(envelope.message.length).toBeGreaterThan(0);
    expect(error).toBeInstanceOf(Error);
  });

  it('carries the validation details of an InvalidRequestError', () => {
    // Prepare
    const details = { 'content[0].text': ['Too long.'], platform: ['Unknown platform.'] };

    // Act
    const envelope = toEnvelope(new InvalidRequestError('The request does not match the schema.', details));

    // Assess
    expect(envelope).toEqual({
      error: 'INVALID_REQUEST',
      message: 'The request does not match the schema.',
      details,
    });
  });

  it('leaves details out of an InvalidRequestError that has none', () => {
    // Act
    const envelope = toEnvelope(new InvalidRequestError('Bad.'));

    // Assess
    expect(envelope).toEqual({ error: 'INVALID_REQUEST', message: 'Bad.' });
    expect('details' in envelope).toBe(false);
  });

  it('names the missing permission in `required` for permission_denied', () => {
    // Act
    const envelope = toEnvelope(new PermissionDeniedError('webhooks:manage'));

    // Assess
    expect(envelope).toEqual({
      error: 'permission_denied',
      message: expect.stringContaining('webhooks:manage'),
      required: 'webhooks:manage',
    });
  });

  it('lists the choices in `available_workspaces` for workspace_required', () => {
    // Act
    const envelope = toEnvelope(new WorkspaceRequiredError(['wks_A', 'wks_B']));

    // Assess
    expect(envelope).toEqual({
      error: 'workspace_required',
      message: expect.any(String),
      available_workspaces: ['wks_A', 'wks_B'],
    });
  });

  it('gives a 409 its own code when one is named, e.g. upload_incomplete', () => {
    // Act
    const error = new ConflictError('Nothing was uploaded.', 'upload_incomplete');

    // Assess
    expect(error.status).toBe(409);
    expect(toEnvelope(error)).toEqual({ error: 'upload_incomplete', message: 'Nothing was uploaded.' });
  });

  it.each<[string, AppError]>([
    ['UnauthorizedError', new UnauthorizedError()],
    ['PlanInactiveError', new PlanInactiveError()],
    ['NotFoundError', new NotFoundError()],
    ['ConflictError', new ConflictError('x')],
    ['PayloadTooLargeError', new PayloadTooLargeError(10)],
    ['RateLimitedError', new RateLimitedError('other', 3)],
    ['MethodNotAllowedError', new MethodNotAllowedError('PUT', ['GET'])],
  ])('gives %s an envelope of exactly error and message (no details, no extra fields)', (_name, error) => {
    expect(Object.keys(toEnvelope(error)).sort()).toEqual(['error', 'message']);
  });

  it('never puts details on an envelope of another class, even one carrying a details property', () => {
    // Prepare: a NotFoundError that someone decorated with details.
    const error = Object.assign(new NotFoundError(), { details: { id: ['secret internals'] } });

    // Act
    const envelope = toEnvelope(error);

    // Assess
    expect(envelope.details).toBeUndefined();
  });
});

describe('error headers', () => {
  it('sets Retry-After to the whole seconds of a RateLimitedError', () => {
    // Act
    const error = new RateLimitedError('posts_create', 42);

    // Assess
    expect(error.headers).toEqual({ 'Retry-After': '42' });
    expect(error.retryAfterSeconds).toBe(42);
    expect(error.message).toContain('posts_create');
  });

  it('sets Allow to the allowed methods of a MethodNotAllowedError', () => {
    // Act
    const error = new MethodNotAllowedError('DELETE', ['GET', 'POST']);

    // Assess
    expect(error.headers).toEqual({ Allow: 'GET, POST' });
    expect(error.message).toContain('DELETE');
  });

  it('keeps headers out of the envelope body', () => {
    // Act
    const envelope = toEnvelope(new RateLimitedError('other', 5));

    // Assess
    expect(envelope).not.toHaveProperty('Retry-After');
    expect(envelope).not.toHaveProperty('headers');
  });

  it('gives errors without special headers none', () => {
    expect(new NotFoundError().headers).toEqual({});
    expect(new PermissionDeniedError('posts:read').headers).toEqual({});
  });

  it('does not share fields or headers between instances', () => {
    // Prepare
    const first = new PermissionDeniedError('posts:read');
    const second = new PermissionDeniedError('posts:write');

    // Assess
    expect(first.fields).toEqual({ required: 'posts:read' });
    expect(second.fields).toEqual({ required: 'posts:write' });
    expect(new NotFoundError().fields).toEqual({});
  });
});

describe('INTERNAL_ERROR_ENVELOPE', () => {
  it('is the generic internal_error with no details', () => {
    expect(INTERNAL_ERROR_ENVELOPE.error).toBe('internal_error');
    expect(INTERNAL_ERROR_ENVELOPE.details).toBeUndefined();
  });
});
