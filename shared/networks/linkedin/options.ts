import { z } from 'zod';
import type { Post } from '../../domain/posts.js';

export const LINKEDIN_VISIBILITIES = ['PUBLIC', 'CONNECTIONS', 'LOGGED_IN'] as const;
export type LinkedInVisibility = (typeof LINKEDIN_VISIBILITIES)[number];

const ORGANIZATION_URN = /^urn:li:organization:[0-9]+$/;

/** `platformOptions.linkedin` (shared/domain/platform-options.ts validates it on create). */
const LinkedInOptions = z.object({
  visibility: z.enum(LINKEDIN_VISIBILITIES).optional(),
  author: z.union([z.literal('member'), z.string().regex(ORGANIZATION_URN)]).optional(),
});

export interface LinkedInPostOptions {
  visibility: LinkedInVisibility;
  /** The Page to post as (`urn:li:organization:<id>`); absent: as the account's member. */
  organization?: string;
}

/**
 * The post's LinkedIn options with their defaults (PUBLIC, as the member). Read defensively: the
 * create path validates them, but a post stored before they existed has none, and an option this
 * connector does not know is not a reason to publish something else, so an invalid value is an
 * error for the caller to report, not a silent default.
 */
export function readLinkedInOptions(post: Post): LinkedInPostOptions | { invalid: true } {
  const options = 'platformOptions' in post ? post.platformOptions : undefined;
  const raw = typeof options === 'object' && options !== null ? Reflect.get(options, 'linkedin') : undefined;
  if (raw === undefined) return { visibility: 'PUBLIC' };
  const parsed = LinkedInOptions.safeParse(raw);
  if (!parsed.success) return { invalid: true };
  const { visibility = 'PUBLIC', author = 'member' } = parsed.data;
  return author === 'member' ? { visibility } : { visibility, organization: author };
}
