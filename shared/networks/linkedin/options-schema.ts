import * as z from 'zod';
import type { NetworkOptions } from '../../domain/network-options.js';

/** LinkedIn post `visibility` (networks/linkedin.md); CONTAINER is for group posts, which we do not make. */
export const LINKEDIN_VISIBILITIES = ['PUBLIC', 'CONNECTIONS', 'LOGGED_IN'] as const;
export type LinkedInVisibility = (typeof LINKEDIN_VISIBILITIES)[number];
/** What the connector sends when the caller leaves `visibility` out. */
export const LINKEDIN_DEFAULT_VISIBILITY: LinkedInVisibility = 'PUBLIC';

/** `member` posts as the connected member; an organization URN posts as that Page. */
export const LINKEDIN_MEMBER_AUTHOR = 'member';
export const LINKEDIN_ORGANIZATION_URN = /^urn:li:organization:[0-9]+$/;
const linkedInAuthor = z
  .union([
    z.literal(LINKEDIN_MEMBER_AUTHOR),
    z.string().regex(LINKEDIN_ORGANIZATION_URN, 'Expected member or urn:li:organization:<digits>.'),
  ])
  .describe(
    'member (the default) posts as the connected member; urn:li:organization:<id> posts as that Page, which the member must administer (LinkedIn checks it when the post is published).',
  );

export const linkedInOptionsSchema = z
  .strictObject({
    visibility: z
      .enum(LINKEDIN_VISIBILITIES)
      .optional()
      .describe('PUBLIC (the default), CONNECTIONS or LOGGED_IN.'),
    author: linkedInAuthor.optional(),
  })
  .meta({ id: 'LinkedInOptions' });
export type LinkedInOptions = z.output<typeof linkedInOptionsSchema>;

/** `platformOptions.linkedin`, as the definition declares them. */
export const linkedInOptions = {
  schema: linkedInOptionsSchema,
  description: 'LinkedIn: who sees the post, and whether a Page posts it.',
} satisfies NetworkOptions<typeof linkedInOptionsSchema>;
