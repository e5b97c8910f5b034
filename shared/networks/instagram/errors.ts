import {
  type GraphErrorFacts as GraphCodes,
  graphFailure,
  readGraphErrorAnswer,
  regainSecondsOf,
} from '../graph-api/error-answer.js';
import type { FailedOutcome } from '../publish/failed-outcome.js';

export { rawCodeOf } from '../graph-api/error-answer.js';
export type { FailedOutcome } from '../publish/failed-outcome.js';

/** A throttle that names no time to wait: Meta's usage windows are an hour long. */
export const INSTAGRAM_THROTTLE_RETRY_SECONDS = 15 * 60;
/** The daily publishing limit without a readable window: try again in an hour. */
export const INSTAGRAM_PUBLISH_LIMIT_RETRY_SECONDS = 60 * 60;

/** What a Graph error answer says (networks/instagram.md §5); its text is never kept. */
export interface GraphErrorFacts extends GraphCodes {
  /** From `X-Business-Use-Case-Usage`'s `estimated_time_to_regain_access` (minutes), when throttled. */
  retryAfterSeconds?: number;
}

export async function readGraphError(response: Response): Promise<GraphErrorFacts> {
  const { facts } = await readGraphErrorAnswer(response);
  const regain = regainSecondsOf(response.headers);
  return regain === undefined ? facts : { ...facts, retryAfterSeconds: regain };
}

export type InstagramStep = 'container' | 'status' | 'publish' | 'limit' | 'profile' | 'comment' | 'comments';
const STEP_NAMES: Readonly<Record<InstagramStep, string>> = {
  container: 'a media container',
  status: 'the container status check',
  publish: 'the publish step',
  limit: 'the publishing-limit check',
  profile: 'the profile read',
  comment: 'the first comment',
  comments: 'the comment look-up',
};

/** What a missing permission is for, by step: reconnecting grants it. */
function permissionFor(step: InstagramStep): string {
  return step === 'comment' || step === 'comments'
    ? 'comments (instagram_business_manage_comments)'
    : 'content publishing';
}

const THROTTLE_CODES = new Set([4, 17, 32, 613, 80002]);
const TOKEN_CODE = 190;
/** Subcodes of a container that may work if made again (instagram.md §5: -2, -1 families). */
const RECREATE_SUBCODES = new Set([2207003, 2207020, 2207001, 2207032, 2207053]);

/** A Graph error as a `failed` outcome (shared/networks/README "Common mapping"; docs/networks.md). */
export function failureOf(facts: GraphErrorFacts, step: InstagramStep): FailedOutcome {
  const what = STEP_NAMES[step];
  const fail = graphFailure(facts);
  const { code, subcode } = facts;
  if (code === TOKEN_CODE || (code === undefined && facts.status === 401)) {
    // Token errors come as 400 as often as 401; a refresh may fix an expired one: the worker tries once.
    return fail(
      'auth_rejected',
      'TOKEN_REJECTED',
      `Instagram refused the account's access token at ${what}.`,
    );
  }
  if (subcode === 2207042 || code === 9) {
    return {
      ...fail(
        'rate_limited',
        'PUBLISH_LIMIT_REACHED',
        "The account's daily Instagram publishing limit is reached.",
      ),
      retryAfterSeconds: facts.retryAfterSeconds ?? INSTAGRAM_PUBLISH_LIMIT_RETRY_SECONDS,
    };
  }
  if (subcode === 2207051) {
    return fail('permanent', 'PLATFORM_REJECTED_SPAM', 'Instagram refused the post as spam-like activity.');
  }
  if ((code !== undefined && THROTTLE_CODES.has(code)) || facts.status === 429) {
    return {
      ...fail('rate_limited', 'RATE_LIMITED', `Instagram throttled the app or account at ${what}.`),
      retryAfterSeconds: facts.retryAfterSeconds ?? INSTAGRAM_THROTTLE_RETRY_SECONDS,
    };
  }
  if (code === 36000 || subcode === 2207004) {
    return fail('permanent', 'MEDIA_TOO_LARGE', 'Instagram refused the image: it is larger than 8 MiB.');
  }
  if (code === 368) {
    return {
      ...fail(
        'rate_limited',
        'TEMPORARILY_BLOCKED',
        'Instagram has temporarily blocked the account from posting.',
      ),
      retryAfterSeconds: INSTAGRAM_PUBLISH_LIMIT_RETRY_SECONDS,
    };
  }
  if (code === 10 || (code !== undefined && code >= 200 && code <= 299)) {
    return fail(
      'permanent',
      'PLATFORM_PERMISSION_DENIED',
      `Instagram refused ${what}: the account lacks a permission (reconnect it to grant ${permissionFor(step)}).`,
    );
  }
  if (subcode !== undefined && RECREATE_SUBCODES.has(subcode)) {
    return fail(
      'transient',
      'MEDIA_PROCESSING_FAILED',
      `Instagram could not prepare the media at ${what}; it will be tried again.`,
    );
  }
  if (subcode === 2207057) {
    return fail(
      'permanent',
      'PLATFORM_REJECTED',
      'Instagram refused the reel cover offset (thumbOffsetMs is past the video).',
    );
  }
  if (facts.status >= 500 || code === 1 || code === 2) {
    return fail('transient', 'PLATFORM_ERROR', `Instagram failed with a server error at ${what}.`);
  }
  if (facts.status >= 400)
    return fail('permanent', 'PLATFORM_REJECTED', `Instagram refused ${what} as invalid.`);
  return fail('transient', 'PLATFORM_ERROR', `Instagram gave an unexpected answer at ${what}.`);
}

/** A step's failure carried up to `publish`, which adds the progress. Never leaves the connector. */
export class InstagramStepFailed extends Error {
  override readonly name = 'InstagramStepFailed';
  constructor(readonly outcome: FailedOutcome) {
    super(outcome.message);
  }
}

export async function failOnError(response: Response, step: InstagramStep): Promise<void> {
  if (response.ok) return;
  throw new InstagramStepFailed(failureOf(await readGraphError(response), step));
}

export function unreadable(what: string): InstagramStepFailed {
  return new InstagramStepFailed({
    kind: 'failed',
    failure: 'transient',
    code: 'PLATFORM_ERROR',
    message: `Instagram answered ${what} unreadably.`,
  });
}
