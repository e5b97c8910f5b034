/** What bench/zod-mini.ts asks of both variants (classic.ts, mini.ts): one bad body, and its details. */

/** A post's body with a mistake in most fields. */
export const BAD_POST = {
  text: 42,
  targets: [{ accountId: 'nope', text: '' }],
  media: [{ mediaId: 'x' }],
  scheduledAt: 'tomorrow',
  status: 'later',
  externalId: 'has space',
  link: { url: 'not a url' },
  firstComment: 7,
  extra: true,
};

/** A zod issue, as both variants report it. */
interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

/** The error details our envelope gives for these issues: each field's messages. */
export function detailsOf(issues: readonly Issue[]): Record<string, string[]> {
  const details: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = issue.path.join('.') || '(body)';
    details[field] = [...(details[field] ?? []), issue.message];
  }
  return details;
}
