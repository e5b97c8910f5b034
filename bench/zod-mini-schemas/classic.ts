/**
 * A post's request body, as our schemas are written (zod's classic, chaining API): the variant
 * bench/zod-mini.ts weighs beside mini.ts, which says the same thing with `zod/mini`.
 */
import * as z from 'zod';
import { BAD_POST, detailsOf } from './bad-post.js';

const media = z.object({
  mediaId: z.string().regex(/^med_[0-9A-Z]{26}$/),
  altText: z.string().max(1000).optional(),
});

const target = z.object({
  accountId: z.string().regex(/^acc_[0-9A-Z]{26}$/),
  text: z.string().min(1).max(3000).optional(),
  platformOptions: z.record(z.string(), z.unknown()).optional(),
});

const link = z.object({ url: z.url(), title: z.string().max(200).optional() });

export const createPostBody = z
  .object({
    text: z.string().max(63206),
    targets: z.array(target).min(1).max(20),
    media: z.array(media).max(20).default([]),
    scheduledAt: z.iso.datetime({ offset: true }).nullable().optional(),
    status: z.enum(['draft', 'scheduled']).optional(),
    externalId: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[!-~]+$/)
      .optional(),
    link: link.optional(),
    firstComment: z.union([z.string().max(1000), z.object({ text: z.string().max(1000) })]).optional(),
  })
  .strict()
  .refine((body) => body.status !== 'draft' || !body.scheduledAt, {
    message: 'A draft has no scheduledAt.',
    path: ['scheduledAt'],
  });

/** The error details our envelope gives for a body with a mistake in most fields. */
export function detailsOfBadPost(): Record<string, string[]> {
  return detailsOf(createPostBody.safeParse(BAD_POST).error?.issues ?? []);
}
