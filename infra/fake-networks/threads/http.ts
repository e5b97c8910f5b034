import type { Reply } from '../shared/http.js';

export { writeGraphReply as writeReply } from '../shared/graph-http.js';
export { BodyTooLarge, type Reply, readBody } from '../shared/http.js';

/**
 * The Graph error body as Threads sends it (threads.md §10): `type` THApiException for API
 * refusals, OAuthException for token ones; token errors come as HTTP 400, as Meta's often do.
 */
export function graphError(
  code: number,
  message: string,
  options: { subcode?: number; status?: number; transient?: boolean; type?: string } = {},
): Reply {
  return {
    status: options.status ?? (code === 4 || code === 17 || code === 32 || code === 613 ? 429 : 400),
    json: {
      error: {
        message,
        type: options.type ?? (code === 190 || code === 10 ? 'OAuthException' : 'THApiException'),
        code,
        ...(options.subcode !== undefined && { error_subcode: options.subcode }),
        is_transient: options.transient ?? false,
        fbtrace_id: 'AfakeThreadsTrace',
      },
    },
  };
}

export const replies = {
  invalidToken: () => graphError(190, 'Invalid OAuth access token - Cannot parse access token'),
  expiredToken: () =>
    graphError(190, 'Error validating access token: Session has expired.', { subcode: 463 }),
  revokedToken: () =>
    graphError(190, 'Error validating access token: The user has not authorized application.', {
      subcode: 458,
    }),
  badParameter: (message: string, subcode?: number) =>
    graphError(100, message, subcode === undefined ? {} : { subcode }),
  notFound: (id: string) =>
    graphError(
      100,
      `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      { subcode: 33 },
    ),
};
