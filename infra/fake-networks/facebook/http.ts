import type { Reply } from '../shared/http.js';

export { writeGraphReply as writeReply } from '../shared/graph-http.js';
export { BodyTooLarge, type Reply, readBody } from '../shared/http.js';

const THROTTLE_CODES = [4, 17, 32, 613];

/** The Graph API's error body (facebook-pages.md §5): auth errors come as HTTP 400, as Meta's do. */
export function graphError(
  code: number,
  message: string,
  options: { subcode?: number; status?: number; transient?: boolean; headers?: Record<string, string> } = {},
): Reply {
  return {
    status: options.status ?? (THROTTLE_CODES.includes(code) ? 403 : code === 1 || code === 2 ? 500 : 400),
    json: {
      error: {
        message,
        type: 'OAuthException',
        code,
        ...(options.subcode !== undefined && { error_subcode: options.subcode }),
        is_transient: options.transient ?? false,
        fbtrace_id: 'AfakeFacebookTrace',
      },
    },
    ...(options.headers && { headers: options.headers }),
  };
}

export const replies = {
  invalidToken: () => graphError(190, 'Invalid OAuth access token - Cannot parse access token'),
  expiredToken: () =>
    graphError(190, 'Error validating access token: Session has expired.', { subcode: 463 }),
  revokedToken: () =>
    graphError(190, 'Error validating access token: The user has changed the password.', { subcode: 460 }),
  badParameter: (message: string) => graphError(100, message),
  notFound: (id: string) =>
    graphError(100, `Unsupported get request. Object with ID '${id}' does not exist.`, { subcode: 33 }),
  notAsPage: () => graphError(200, '(#200) Unpublished posts must be posted to a page as the page itself.'),
  noPermission: (permission: string) =>
    graphError(200, `(#200) The permission(s) ${permission} are not available.`),
};
