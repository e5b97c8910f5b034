import { linkedInError, type Reply, replies } from './http.js';
import { type ApiContext, personUrn, type RouteContext } from './route.js';

/** The caller's token, as LinkedIn checks it: present, known, not revoked, not expired. */
export function authenticate(context: RouteContext): ApiContext | Reply {
  const header = context.headers.authorization ?? '';
  const match = /^Bearer (.+)$/.exec(header);
  const token = match?.[1] ? context.store.accessTokens.get(match[1]) : undefined;
  if (!token) return replies.invalidToken();
  if (token.revoked) return replies.revokedToken();
  if (token.expiresAt <= context.settings.now()) return replies.expiredToken();
  const member = context.store.members.get(token.member);
  if (!member) return replies.invalidToken();
  return { ...context, token, member, memberUrn: personUrn(member.sub) };
}

/**
 * The headers every versioned call needs (linkedin.md §1): a `LinkedIn-Version` month LinkedIn
 * still serves, and Rest.li protocol 2.0.0.
 */
export function versionProblem(context: RouteContext): Reply | undefined {
  const version = context.headers['linkedin-version'];
  if (typeof version !== 'string' || version === '') {
    return linkedInError(
      400,
      'A version must be present. Please specify a version by adding the LinkedIn-Version header.',
      {
        code: 'VERSION_MISSING',
      },
    );
  }
  if (!/^\d{6}(\.\d{2})?$/.test(version) || !context.settings.activeVersions.has(version.slice(0, 6))) {
    return linkedInError(426, `Requested version ${version} is not active`, { code: 'NONEXISTENT_VERSION' });
  }
  if (context.headers['x-restli-protocol-version'] !== '2.0.0') {
    return replies.badRequest('The X-Restli-Protocol-Version header must be 2.0.0.');
  }
  return undefined;
}

export function isReply<T extends object>(value: T | Reply): value is Reply {
  return 'status' in value;
}

/** The JSON body of a call, or a 400 when it is not JSON. */
export function jsonBody(context: RouteContext): { json: unknown } | Reply {
  if (!(context.headers['content-type'] ?? '').startsWith('application/json')) {
    return replies.badRequest('The request body must be application/json.');
  }
  try {
    return { json: JSON.parse(context.body.toString('utf8')) as unknown };
  } catch {
    return replies.badRequest('The request body is not valid JSON.');
  }
}
