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
export const FACEBOOK_THROTTLE_RETRY_SECONDS = 15 * 60;
/** 368, "temporarily blocked": Meta says wait and retry; an hour. */
export const FACEBOOK_BLOCKED_RETRY_SECONDS = 60 * 60;

/** What a Graph error answer says (facebook-pages.md §5); its text is never kept. */
export interface GraphErrorFacts extends GraphCodes {
  /** From `X-Business-Use-Case-Usage`'s `estimated_time_to_regain_access` (minutes), when throttled. */
  retryAfterSeconds?: number;
  /**
   * Meta's one error told only by its words: publishing with a user token rather than the Page's
   * ("…must be posted to a page as the page itself"). The flag is kept, never the words.
   */
  notAsPage?: boolean;
}

export async function readGraphError(response: Response): Promise<GraphErrorFacts> {
  const answer = await readGraphErrorAnswer(response);
  const facts: GraphErrorFacts = answer.facts;
  const regain = regainSecondsOf(response.headers);
  if (regain !== undefined) facts.retryAfterSeconds = regain;
  const message = answer.error?.message;
  if (typeof message === 'string' && /as the page itself/i.test(message)) facts.notAsPage = true;
  return facts;
}

export type FacebookStep = 'photo' | 'feed' | 'video' | 'reel' | 'status' | 'lookup' | 'comment' | 'comments';
const STEP_NAMES: Readonly<Record<FacebookStep, string>> = {
  photo: 'the photo upload',
  feed: 'the post',
  video: 'the video upload',
  reel: 'the reel upload',
  status: 'the video status check',
  lookup: "the Page's post listing",
  comment: 'the first comment',
  comments: "the post's comment listing",
};

/** Token dead (190 and its subcodes), session (102), no role on the Page any more (492). */
const TOKEN_CODES = new Set([190, 102, 492]);
const THROTTLE_CODES = new Set([4, 17, 32, 613, 341]);
/** Meta's service failures that pass (Postiz: 1363047, 1609010). */
const TRANSIENT_SUBCODES = new Set([1363047, 1609010]);
/** Refused as against the Community Standards or abusive (Postiz), or the Page limited for days. */
const POLICY_SUBCODES = new Set([1346003, 1404102, 1404112]);
/** Something the person must do on facebook.com first: Page Publishing Authorization, identity check. */
const ACTION_SUBCODES = new Set([1404078, 4854002]);

/** A Graph error as a `failed` outcome (docs/networks.md "Facebook": the error map). */
export function failureOf(facts: GraphErrorFacts, step: FacebookStep): FailedOutcome {
  const what = STEP_NAMES[step];
  const fail = graphFailure(facts);
  const { code, subcode } = facts;
  if (
    (code !== undefined && TOKEN_CODES.has(code)) ||
    facts.notAsPage ||
    (code === undefined && facts.status === 401)
  ) {
    // A Page token has no refresh: the worker's forced refresh finds none and the account must be
    // reconnected (459 and 464: the person must first sort their account out on facebook.com).
    return fail('auth_rejected', 'TOKEN_REJECTED', `Facebook refused the Page's access token at ${what}.`);
  }
  if (subcode !== undefined && ACTION_SUBCODES.has(subcode)) {
    return fail(
      'permanent',
      'PLATFORM_ACTION_REQUIRED',
      'Facebook asks a person managing the Page to confirm their identity or authorize publishing on facebook.com first.',
    );
  }
  if (subcode !== undefined && POLICY_SUBCODES.has(subcode)) {
    return fail(
      'permanent',
      'PLATFORM_REJECTED_POLICY',
      'Facebook refused the post under its Community Standards.',
    );
  }
  if ((code !== undefined && THROTTLE_CODES.has(code)) || facts.status === 429) {
    return {
      ...fail('rate_limited', 'RATE_LIMITED', `Facebook throttled the app or the Page at ${what}.`),
      retryAfterSeconds: facts.retryAfterSeconds ?? FACEBOOK_THROTTLE_RETRY_SECONDS,
    };
  }
  if (code === 368) {
    return {
      ...fail(
        'rate_limited',
        'TEMPORARILY_BLOCKED',
        'Facebook has temporarily blocked the Page from posting.',
      ),
      retryAfterSeconds: facts.retryAfterSeconds ?? FACEBOOK_BLOCKED_RETRY_SECONDS,
    };
  }
  if (code === 10 || (code !== undefined && code >= 200 && code <= 299)) {
    return fail(
      'permanent',
      'PLATFORM_PERMISSION_DENIED',
      step === 'comment' || step === 'comments'
        ? `Facebook refused ${what}: the Page's grant lacks pages_manage_engagement or the person lost the task to moderate the Page (reconnect it).`
        : `Facebook refused ${what}: the Page's grant lacks a permission or the person lost the task to create content (reconnect it).`,
    );
  }
  if (code === 506) {
    return fail(
      'permanent',
      'DUPLICATE_CONTENT',
      'Facebook refused the post as a duplicate of the Page’s last post.',
    );
  }
  if (code === 1609005 || subcode === 1609005 || subcode === 1609008 || subcode === 2061006) {
    return fail(
      'permanent',
      'LINK_PREVIEW_FAILED',
      'Facebook could not read the link to preview it (unreachable, invalid, or a facebook.com link).',
    );
  }
  if (subcode === 1366046) {
    return fail(
      'permanent',
      'MEDIA_TOO_LARGE',
      'Facebook refused the photo: over 4 MB or not a JPEG, PNG, GIF, BMP or TIFF.',
    );
  }
  if (subcode === 2069019) {
    return fail('permanent', 'MEDIA_TYPE_UNSUPPORTED', 'Facebook refused the media file as invalid.');
  }
  if (subcode === 1366051) {
    return fail('permanent', 'PLATFORM_REJECTED', 'Facebook refused the photos: they were posted already.');
  }
  if (
    facts.status >= 500 ||
    code === 1 ||
    code === 2 ||
    (subcode !== undefined && TRANSIENT_SUBCODES.has(subcode))
  ) {
    return fail('transient', 'PLATFORM_ERROR', `Facebook failed with a server error at ${what}.`);
  }
  if (facts.status >= 400)
    return fail('permanent', 'PLATFORM_REJECTED', `Facebook refused ${what} as invalid.`);
  return fail('transient', 'PLATFORM_ERROR', `Facebook gave an unexpected answer at ${what}.`);
}

/** A step's failure carried up to `publish`, which adds the progress. Never leaves the connector. */
export class FacebookStepFailed extends Error {
  override readonly name = 'FacebookStepFailed';
  constructor(readonly outcome: FailedOutcome) {
    super(outcome.message);
  }
}

export async function failOnError(response: Response, step: FacebookStep): Promise<void> {
  if (response.ok) return;
  throw new FacebookStepFailed(failureOf(await readGraphError(response), step));
}

/**
 * Meta accepted the call that makes the post (a 2xx) and its answer does not name it: the post may
 * well exist, so this is never a failure to retry blindly (publish answers `unknown`).
 */
export class AcceptedWithoutId extends Error {
  override readonly name = 'AcceptedWithoutId';
}

export function unreadable(what: string): FacebookStepFailed {
  return new FacebookStepFailed({
    kind: 'failed',
    failure: 'transient',
    code: 'PLATFORM_ERROR',
    message: `Facebook answered ${what} unreadably.`,
  });
}
