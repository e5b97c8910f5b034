import * as z from 'zod';
import { PLATFORMS } from './platforms.js';
import type { PostingWindow, WorkspacePolicies } from './policies.js';
import { minuteOfDay } from './policy-check.js';

/** At most this many blocked terms: each is a pattern tried against every text of every post. */
export const MAX_BLOCKED_TERMS = 500;
export const MAX_BLOCKED_TERM_LENGTH = 100;
/** A few years of holidays; the list is read on every publish. */
export const MAX_BLACKOUT_DATES = 1000;

const unique = (values: readonly unknown[]) => new Set(values).size === values.length;

/** "HH:MM", 00:00–23:59. */
export const clockTime = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Expected a time of day as HH:MM, 00:00–23:59 (UTC).');

/** A real calendar date, YYYY-MM-DD: 2026-02-30 is refused. */
export const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected a date as YYYY-MM-DD.')
  .refine(
    (value) => {
      const parsed = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
    },
    { message: 'Not a calendar date.', abort: true },
  );

const blockedTerm = z
  .string()
  .min(1, 'A blocked term is not empty.')
  .max(MAX_BLOCKED_TERM_LENGTH, `A blocked term has at most ${MAX_BLOCKED_TERM_LENGTH} characters.`)
  .refine((term) => term.trim() === term, 'A blocked term has no white space at either end.');

export const postingWindowSchema = z
  .strictObject({
    days: z
      .array(z.int().min(0).max(6))
      .min(1, 'List at least one day, or leave days out for every day.')
      .refine(unique, 'Each day once.')
      .optional()
      .describe('0 = Sunday … 6 = Saturday, UTC; absent: every day.'),
    start: clockTime.describe('Inclusive, UTC.'),
    end: clockTime.describe('Exclusive, UTC; earlier than start for a window across midnight.'),
  })
  .refine((window) => minuteOfDay(window.start) !== minuteOfDay(window.end), {
    message: 'start and end must differ; to allow every hour, set no window.',
    path: ['end'],
  }) satisfies z.ZodType<PostingWindow>;

/**
 * A workspace's policies, strictly: unknown members, malformed times and dates, unknown platforms
 * and repeats are refused rather than stored and silently ignored by the policy check. Lists that
 * would block everything (no allowed platform, no allowed day) are refused as well: a workspace
 * that should publish nothing has no accounts to publish with.
 */
export const workspacePoliciesSchema = z.strictObject({
  requireApproval: z.boolean().optional(),
  blockedTerms: z
    .array(blockedTerm)
    .max(MAX_BLOCKED_TERMS, `At most ${MAX_BLOCKED_TERMS} blocked terms.`)
    .optional(),
  allowedPlatforms: z
    .array(z.enum(PLATFORMS))
    .min(1, 'List at least one platform, or leave allowedPlatforms out for every platform.')
    .refine(unique, 'Each platform once.')
    .optional(),
  postingWindow: postingWindowSchema.optional(),
  blackoutDates: z
    .array(calendarDate)
    .max(MAX_BLACKOUT_DATES, `At most ${MAX_BLACKOUT_DATES} blackout dates.`)
    .refine(unique, 'Each date once.')
    .optional(),
  requireAltText: z.boolean().optional(),
}) satisfies z.ZodType<WorkspacePolicies>;
