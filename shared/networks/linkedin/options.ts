import type { Post } from '../../domain/posts.js';
import {
  LINKEDIN_DEFAULT_VISIBILITY,
  LINKEDIN_MEMBER_AUTHOR,
  type LinkedInPoll,
  type LinkedInVisibility,
  linkedInOptionsSchema,
} from './options-schema.js';

export type { LinkedInPoll, LinkedInVisibility };

export interface LinkedInPostOptions {
  visibility: LinkedInVisibility;
  /** The Page to post as (`urn:li:organization:<id>`); absent: as the account's member. */
  organization?: string;
  /** A poll, the post's content (text posts only). */
  poll?: LinkedInPoll;
}

/**
 * The post's LinkedIn options with their defaults (PUBLIC, as the member). The create path
 * validated them; they are read through the same schema again because they come back from storage,
 * and an option that does not read is reported rather than replaced by a default, which would
 * publish something other than what the caller asked for.
 */
export function readLinkedInOptions(post: Post): LinkedInPostOptions | { invalid: true } {
  const parsed = linkedInOptionsSchema.safeParse(post.platformOptions?.linkedin ?? {});
  if (!parsed.success) return { invalid: true };
  const { visibility = LINKEDIN_DEFAULT_VISIBILITY, author = LINKEDIN_MEMBER_AUTHOR, poll } = parsed.data;
  return {
    visibility,
    ...(author !== LINKEDIN_MEMBER_AUTHOR && { organization: author }),
    ...(poll && { poll }),
  };
}
