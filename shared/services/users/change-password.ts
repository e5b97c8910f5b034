import { InvalidRequestError, RateLimitedError } from '../../domain/errors.js';
import type { User } from '../../domain/users.js';
import type { NewSession } from './dashboard-auth.js';
import type { UsersDeps } from './deps.js';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.js';
import { issueSession } from './sessions.js';
import type { SignInThrottle } from './throttle.js';

/**
 * A signed-in user changes their password: the current one must be right (wrong guesses count
 * as failed sign-ins, so a borrowed session cannot be used to guess it), the new one acceptable.
 * The store bumps the user's session epoch, which ends every session; this browser gets a new one.
 */
export async function changePassword(
  deps: UsersDeps,
  throttle: SignInThrottle,
  signedInUser: User,
  input: { currentPassword: string; newPassword: string },
): Promise<NewSession> {
  // The browser's address is not known here; the user's own counter stands in for it.
  const sourceIp = `user:${signedInUser.userId}`;
  const retryAfterSeconds = await throttle.retryAfter(signedInUser.email, sourceIp);
  if (retryAfterSeconds !== undefined) throw new RateLimitedError('password change', retryAfterSeconds);
  const user = (await deps.users.getUser(signedInUser.tenantId, signedInUser.userId)) ?? signedInUser;
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    await throttle.countFailure(user.email, sourceIp);
    throw new InvalidRequestError('The current password is wrong.', {
      currentPassword: ['The current password is wrong.'],
    });
  }
  const problem = passwordProblem(input.newPassword);
  if (problem) throw new InvalidRequestError(problem, { newPassword: [problem] });
  const updated = await deps.users.setPassword(
    user.tenantId,
    user.userId,
    await hashPassword(input.newPassword),
  );
  deps.logger.info('dashboard: password changed; every other session ended', {
    tenantId: updated.tenantId,
    userId: updated.userId,
  });
  return issueSession(deps, updated);
}
