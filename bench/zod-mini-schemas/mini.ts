/**
 * classic.ts's schemas with `zod/mini` (functional API), for bench/zod-mini.ts. English messages
 * configured, as our error details carry zod's messages (mini says "Invalid input" otherwise).
 */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { BAD_POST, detailsOf } from './bad-post.js';

z.config(en());

const media = z.object({
  mediaId: z.string().check(z.regex(/^med_[0-9A-Z]{26}$/)),
  altText: z.optional(z.string().check(z.maxLength(1000))),
});

const target = z.object({
  accountId: z.string().check(z.regex(/^acc_[0-9A-Z]{26}$/)),
  text: z.optional(z.string().check(z.minLength(1), z.maxLength(3000))),
  platformOptions: z.optional(z.record(z.string(), z.unknown())),
});

const link = z.object({ url: z.url(), title: z.optional(z.string().check(z.maxLength(200))) });

export const createPostBody = z
  .strictObject({
    text: z.string().check(z.maxLength(63206)),
    targets: z.array(target).check(z.minLength(1), z.maxLength(20)),
    media: z._default(z.array(media).check(z.maxLength(20)), []),
    scheduledAt: z.optional(z.nullable(z.iso.datetime({ offset: true }))),
    status: z.optional(z.enum(['draft', 'scheduled'])),
    externalId: z.optional(z.string().check(z.minLength(1), z.maxLength(200), z.regex(/^[!-~]+$/))),
    link: z.optional(link),
    firstComment: z.optional(
      z.union([z.string().check(z.maxLength(1000)), z.object({ text: z.string().check(z.maxLength(1000)) })]),
    ),
  })
  .check(
    z.refine((body) => body.status !== 'draft' || !body.scheduledAt, {
      message: 'A draft has no scheduledAt.',
      path: ['scheduledAt'],
    }),
  );

/** The error details our envelope gives for a body with a mistake in most fields. */
export function detailsOfBadPost(): Record<string, string[]> {
  return detailsOf(createPostBody.safeParse(BAD_POST).error?.issues ?? []);
}
