import type { SignInOutcome } from './dashboard-auth.js';
import type { UsersDeps } from './deps.js';
import { normalizeEmail } from './emails.js';
import { verifyPassword } from './passwords.js';
import { issueSession } from './sessions.js';
import type { SignInThrottle } from './throttle.js';

/**
 * Email and password to a session. Throttling is checked before the password (a throttled guess
 * is never tried) and only failures count. Every refusal looks the same to the caller: unknown
 * email, no password yet, wrong password or a tenant that is gone.
 */
export async function signIn(
  deps: UsersDeps,
  throttle: SignInThrottle,
  input: { email: string; password: string; sourceIp: string },
): Promise<SignInOutcome> {
  const email = normalizeEmail(input.email);
  const retryAfterSeconds = await throttle.retryAfter(email, input.sourceIp);
  if (retryAfterSeconds !== undefined) {
    deps.logger.info('dashboard: sign-in throttled', { retryAfterSeconds });
    return { kind: 'throttled', retryAfterSeconds };
  }
  const user = await deps.users.findUserByEmail(email);
  const matches = await verifyPassword(input.password, user?.passwordHash);
  const tenant = user && matches ? await deps.tenancy.getTenant(user.tenantId) : undefined;
  if (!user || !tenant) {
    await throttle.countFailure(email, input.sourceIp);
    deps.logger.info('dashboard: sign-in refused', { ...(user && { userId: user.userId }) });
    return { kind: 'refused' };
  }
  const issued = await issueSession(deps, user);
  deps.logger.info('dashboard: signed in', { tenantId: user.tenantId, userId: user.userId });
  return { kind: 'signed_in', user, ...issued };
}
