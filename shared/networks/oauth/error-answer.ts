import * as z from 'zod';

/** An OAuth error answer (RFC 6749 §5.2); only its code is kept, never its description. */
const OAuthErrorAnswer = z.object({ error: z.string().min(1) });

/** The OAuth error code a body names; undefined when it is not an OAuth error. */
export function oauthErrorCode(body: unknown): string | undefined {
  const parsed = OAuthErrorAnswer.safeParse(body);
  return parsed.success ? parsed.data.error : undefined;
}
