import { LATE_ID_NOTES } from '../networks/definitions.js';
import type { PostIdFollowUp, PostWarning } from './posts.js';

/**
 * A published post whose network id comes later (a network that declares `lateIdNotes`: TikTok hands
 * a public post's id out only once its moderation approves it, usually within a minute, sometimes
 * hours): the worker asks the network again on a growing schedule, a minute after the last look-up
 * doubling each time up to four hours apart, for three days; then it stops and says so on the post.
 */
export const FOLLOW_UP_FIRST_SECONDS = 60;
export const FOLLOW_UP_LONGEST_SECONDS = 4 * 60 * 60;
export const FOLLOW_UP_FOR_MS = 3 * 24 * 60 * 60 * 1000;

/** The networks' own reasons, in parentheses within a warning's sentence; nothing when none declares one. */
function aside(notes: readonly string[]): string {
  return notes.length === 0 ? '' : ` (${notes.join('; ')})`;
}

export const POST_ID_PENDING: PostWarning = {
  code: 'PLATFORM_POST_ID_PENDING',
  message: `The network published the post but has not given its id yet${aside(LATE_ID_NOTES.map((notes) => notes.pending))}. The service keeps asking and fills in platformPostId and platformPostUrl when it comes.`,
};

export const POST_ID_UNAVAILABLE: PostWarning = {
  code: 'PLATFORM_POST_ID_UNAVAILABLE',
  message: `The network published the post but gave no id for it within three days${aside(LATE_ID_NOTES.map((notes) => notes.unavailable))}. The post may still be on the account.`,
};

/** The first follow-up of a post published at `now` without its id. */
export function startFollowUp(progress: string, checkAfterSeconds: number, now: number): PostIdFollowUp {
  return {
    progress,
    checks: 0,
    since: new Date(now).toISOString(),
    nextCheckAt: new Date(now + Math.max(1, checkAfterSeconds) * 1000).toISOString(),
  };
}

/** After a look-up that found no id: the next one, or `give_up` once three days have passed. */
export function nextFollowUp(current: PostIdFollowUp, now: number): PostIdFollowUp | 'give_up' {
  const checks = current.checks + 1;
  const delaySeconds = Math.min(FOLLOW_UP_LONGEST_SECONDS, FOLLOW_UP_FIRST_SECONDS * 2 ** (checks - 1));
  const next = now + delaySeconds * 1000;
  if (next - Date.parse(current.since) > FOLLOW_UP_FOR_MS) return 'give_up';
  return { ...current, checks, nextCheckAt: new Date(next).toISOString() };
}

/** The post's warnings without `code`, and with `add` (each code once). */
export function withWarning(
  warnings: readonly PostWarning[] | undefined,
  add: PostWarning | undefined,
  drop?: string,
): PostWarning[] {
  const kept = (warnings ?? []).filter((w) => w.code !== drop && w.code !== add?.code);
  return add ? [...kept, add] : kept;
}
