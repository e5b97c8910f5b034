import type { ServerResponse } from 'node:http';
import { type JsonContentType, type Reply, writeReply as writeJsonOrHtml } from '../shared/http.js';

export { BodyTooLarge, type Reply, readBody } from '../shared/http.js';

/** LinkedIn answers JSON as plain `application/json`, whatever a route set. */
const JSON_CONTENT_TYPE: JsonContentType = { value: 'application/json', routeMayOverride: false };

export function writeReply(response: ServerResponse, reply: Reply): void {
  writeJsonOrHtml(response, reply, JSON_CONTENT_TYPE);
}

/** LinkedIn's error body (networks/linkedin.md §8). */
export function linkedInError(
  status: number,
  message: string,
  extra: { serviceErrorCode?: number; code?: string; inputErrors?: { code: string; field?: string }[] } = {},
): Reply {
  return {
    status,
    json: {
      status,
      message,
      ...(extra.serviceErrorCode !== undefined && { serviceErrorCode: extra.serviceErrorCode }),
      ...(extra.code && { code: extra.code }),
      ...(extra.inputErrors && {
        errorDetails: {
          inputErrors: extra.inputErrors.map((error) => ({
            code: error.code,
            description: message,
            ...(error.field && { input: { inputPath: { fieldPath: error.field } } }),
          })),
        },
      }),
    },
  };
}

/** The OAuth endpoints' error body. */
export function oauthError(status: number, error: string, description: string): Reply {
  return { status, json: { error, error_description: description } };
}

export const replies = {
  invalidToken: () =>
    linkedInError(401, 'Invalid access token', { serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN' }),
  revokedToken: () =>
    linkedInError(401, 'The token used in the request has been revoked by the user', {
      serviceErrorCode: 65601,
      code: 'REVOKED_ACCESS_TOKEN',
    }),
  expiredToken: () =>
    linkedInError(401, 'The token used in the request has expired', {
      serviceErrorCode: 65602,
      code: 'EXPIRED_ACCESS_TOKEN',
    }),
  accessDenied: (what: string) =>
    linkedInError(403, `Not enough permissions to access: ${what}`, {
      serviceErrorCode: 100,
      code: 'ACCESS_DENIED',
    }),
  invalid: (message: string, code = 'INVALID_VALUE', field?: string) =>
    linkedInError(422, message, { inputErrors: [{ code, ...(field && { field }) }] }),
  badRequest: (message: string) => linkedInError(400, message),
  notFound: (message: string) => linkedInError(404, message),
  tooLarge: (message: string) => linkedInError(413, message),
};
