import * as z from 'zod';
import type { CommentOutcome, PublishProgress } from '../../ports/connector.js';
import { readJson } from '../http/json-answer.js';
import { NoAnswerError, RequestNotSentError } from '../http/network-fetch.js';
import type { FailedOutcome } from '../publish/failed-outcome.js';

const Created = z.object({ id: z.union([z.string(), z.number()]).transform(String) });

/**
 * What a comment attempt keeps before it sends (the port's PublishProgress): when it was sent, so
 * that the look-up after an unknown outcome reads the post's comments from then on.
 */
export function commentProgress(sentAt: string): PublishProgress {
  return { v: 1, sentAt };
}

const CommentProgress = z.object({ v: z.literal(1), sentAt: z.string() });

/** When an earlier attempt sent its comment, from its progress; undefined when it said nothing readable. */
export function sentAtOf(progress: PublishProgress | undefined): string | undefined {
  const parsed = CommentProgress.safeParse(progress);
  return parsed.success ? parsed.data.sentAt : undefined;
}

export interface GraphCommentSend {
  /** The network's name, for our messages. */
  network: string;
  /** ISO 8601, recorded in the progress of an `unknown` outcome. */
  sentAt: string;
  /** Sends the one call that makes the comment (`POST /{object-id}/comments`). */
  send(): Promise<Response>;
  /** The network's refusal as a failed outcome, in our words. */
  refusal(response: Response): Promise<FailedOutcome>;
  /** The comment's address, from its id. */
  urlOf(commentId: string): string;
}

/**
 * A Graph comment call's outcome (Instagram's and Facebook's `POST /{id}/comments` answer `{id}`):
 * a refusal is `failed` (nothing was made); no answer after the request may have left, or an
 * answer that names nothing, is `unknown` with when it was sent, for the look-up; a request that
 * never left is `failed` and may be sent again.
 */
export async function sendGraphComment(input: GraphCommentSend): Promise<CommentOutcome> {
  const unknown = (code: string, message: string): CommentOutcome => ({
    kind: 'unknown',
    code,
    message,
    progress: commentProgress(input.sentAt),
  });
  try {
    const response = await input.send();
    if (!response.ok) return await input.refusal(response);
    const created = Created.safeParse(await readJson(response));
    if (!created.success) {
      return unknown('PLATFORM_NO_COMMENT_ID', `${input.network} accepted the comment without naming it.`);
    }
    return {
      kind: 'published',
      platformPostId: created.data.id,
      platformPostUrl: input.urlOf(created.data.id),
    };
  } catch (error) {
    if (error instanceof RequestNotSentError) {
      return {
        kind: 'failed',
        failure: 'transient',
        code: 'PLATFORM_UNREACHABLE',
        message: `${input.network} could not be reached.`,
      };
    }
    if (error instanceof NoAnswerError) {
      return unknown(
        error.code === 'ABORTED' ? 'PLATFORM_TIMEOUT' : 'PLATFORM_NO_ANSWER',
        `${input.network} did not answer the comment request; it may have made the comment.`,
      );
    }
    throw error;
  }
}
