import { UnauthorizedError } from '../domain/errors.js';
import type { Principal } from '../domain/tenancy.js';
import type { Authenticator } from '../services/authenticate.js';

/** A 401 that tells an MCP client which scheme to use (RFC 6750), before any MCP message is read. */
export async function authenticateOrChallenge(
  authenticator: Authenticator,
  authorization: string | undefined,
): Promise<Principal> {
  try {
    return await authenticator.authenticate(authorization);
  } catch (error) {
    if (error instanceof UnauthorizedError) error.headers['WWW-Authenticate'] = 'Bearer';
    throw error;
  }
}
