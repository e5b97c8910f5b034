import type { NetworkQuotaReading } from '../../domain/account-quotas.js';
import type { DeliveryMedia } from '../../ports/connector.js';
import { failed } from '../publish/failed-outcome.js';
import { readJson } from './api.js';
import {
  carouselItemParams,
  carouselParams,
  type ItemPlace,
  singleMediaParams,
  textParams,
} from './container-params.js';
import { type FailedOutcome, failureOf, readGraphError } from './errors.js';
import type { Search } from './find-post.js';
import {
  type ContainerStatus,
  Created,
  containerStatus,
  createContainer,
  type GraphContext,
  publishContainer,
} from './graph.js';
import type { ThreadsItem } from './items.js';
import { THREADS_CHECK_AFTER_SECONDS } from './limits.js';
import type { ThreadsOptions } from './options-schema.js';
import type { ChildContainer, ItemState } from './progress.js';
import { assertRoomToPublish } from './publishing-limit.js';

/** How one item's attempt ended: on Threads (its id), or an outcome for the whole post (progress added by the caller). */
export type ItemStep =
  | { kind: 'posted'; id: string }
  | { kind: 'pending'; checkAfterSeconds: number }
  | { kind: 'failed'; outcome: FailedOutcome }
  | { kind: 'unknown'; code: string; message: string };

export interface ItemInput {
  context: GraphContext;
  item: ThreadsItem;
  options: ThreadsOptions;
  place: ItemPlace;
  /** The item's state, changed in place: the caller writes it into the progress. */
  state: ItemState;
  now: () => number;
  /** A presigned URL Threads fetches the media from. */
  urlOf(media: DeliveryMedia): Promise<string>;
  /** Finds the item among the account's posts (find-post.ts). */
  search(since: number): Promise<Search>;
  recordQuota?: (reading: NetworkQuotaReading) => Promise<void>;
}

const notFoundYet: ItemStep = {
  kind: 'unknown',
  code: 'PLATFORM_NO_POST_ID',
  message: 'Threads published the container, and the post could not be found on the account yet.',
};

function checkAfter(item: ThreadsItem): number {
  if (item.media.some((entry) => entry.media.kind === 'video')) return THREADS_CHECK_AFTER_SECONDS.video;
  return item.media.length > 0 ? THREADS_CHECK_AFTER_SECONDS.image : THREADS_CHECK_AFTER_SECONDS.text;
}

/** A container that is not ready yet (pending), or one that never will be (failed); undefined when FINISHED. */
function notReady(status: ContainerStatus, what: string): 'pending' | FailedOutcome | undefined {
  switch (status.code) {
    case 'FINISHED':
    case 'PUBLISHED':
      return undefined;
    case 'IN_PROGRESS':
      return 'pending';
    case 'EXPIRED':
      return failed(
        'transient',
        'CONTAINER_EXPIRED',
        `Threads let ${what} expire before it was published; it will be made again.`,
        {
          platformRawCode: 'EXPIRED',
        },
      );
    case 'ERROR': {
      const reason = status.errorMessage ?? 'UNKNOWN';
      // UNKNOWN is Meta's own failure: worth one more container; the others are the media's.
      return failed(
        reason === 'UNKNOWN' ? 'transient' : 'permanent',
        'MEDIA_PROCESSING_FAILED',
        `Threads could not process the media of ${what} (${reason}).`,
        { platformRawCode: `ERROR/${reason}` },
      );
    }
  }
}

/**
 * One Threads post of the whole (threads.md §4), as steps that survive the end of an invocation:
 * 1. an earlier `threads_publish` without an answer: its container says whether it went out;
 * 2. room in the 24-hour allowance, then the container (a carousel's items first, each FINISHED);
 * 3. the container's status: IN_PROGRESS is `pending` (checked again later, never slept on);
 *    ERROR or EXPIRED fail the attempt and a retry makes a new container;
 * 4. `threads_publish`; no answer is `unknown`, settled through the container's status.
 */
export async function publishItem(input: ItemInput): Promise<ItemStep> {
  const { context, item, state } = input;
  if (state.publishSentAt && state.container) {
    const earlier = await containerStatus(context, state.container);
    if (earlier.code === 'PUBLISHED') return adopt(input, Date.parse(state.publishSentAt));
  }
  delete state.publishSentAt;

  if (!state.container) {
    await assertRoomToPublish(context, input.place.replyToId !== undefined, input.now, input.recordQuota);
    const made = await makeContainer(input);
    if (made) return made;
  }
  const container = state.container;
  if (!container)
    return {
      kind: 'failed',
      outcome: failed('transient', 'PLATFORM_ERROR', 'No Threads container was made.'),
    };

  const status = await containerStatus(context, container);
  if (status.code === 'PUBLISHED') return adopt(input, Date.parse(state.containerAt ?? ''));
  const outcome = notReady(status, 'the post');
  if (outcome === 'pending') return { kind: 'pending', checkAfterSeconds: checkAfter(item) };
  if (outcome) {
    delete state.container;
    delete state.containerAt;
    if (status.code === 'EXPIRED') delete state.children;
    return { kind: 'failed', outcome };
  }

  state.publishSentAt = new Date(input.now()).toISOString();
  const response = await publishContainer(context, container);
  if (!response.ok) {
    delete state.publishSentAt;
    return { kind: 'failed', outcome: failureOf(await readGraphError(response), 'publish') };
  }
  const answer = Created.safeParse(await readJson(response));
  if (!answer.success)
    return {
      kind: 'unknown',
      code: 'PLATFORM_NO_POST_ID',
      message: 'Threads accepted the post without naming it.',
    };
  return { kind: 'posted', id: answer.data.id };
}

/** A container Threads reports PUBLISHED: the post it became, found among the account's posts. */
async function adopt(input: ItemInput, since: number): Promise<ItemStep> {
  const found = await input.search(since);
  return found.kind === 'found' ? { kind: 'posted', id: found.post.platformPostId } : notFoundYet;
}

/** The item's container (and a carousel's items first); a step to return when it is not made yet. */
async function makeContainer(input: ItemInput): Promise<ItemStep | undefined> {
  const { context, item, state, options, place } = input;
  if (item.media.length >= 2) {
    const children: ChildContainer[] = [];
    for (const [index, child] of (state.children ?? []).entries()) {
      if (child.ref !== item.media[index]?.ref) break;
      children.push(child);
    }
    state.children = children;
    for (const [index, entry] of item.media.entries()) {
      if (children[index]) continue;
      const id = await createContainer(
        context,
        carouselItemParams(entry.media, await input.urlOf(entry.media)),
      );
      children[index] = { ref: entry.ref, id };
    }
    for (const [index, child] of children.entries()) {
      const outcome = notReady(await containerStatus(context, child.id), `carousel item ${index + 1}`);
      if (outcome === 'pending') return { kind: 'pending', checkAfterSeconds: checkAfter(item) };
      if (outcome) {
        // That item (and those after it) are made again on a retry; those before it stand.
        children.length = index;
        return { kind: 'failed', outcome };
      }
    }
    state.container = await createContainer(
      context,
      carouselParams(
        children.map((child) => child.id),
        item.text,
        options,
        place,
      ),
    );
  } else {
    const [entry] = item.media;
    state.container = await createContainer(
      context,
      entry
        ? singleMediaParams(entry.media, await input.urlOf(entry.media), item.text, options, place)
        : textParams(item.text, options, place),
    );
  }
  state.containerAt = new Date(input.now()).toISOString();
  return undefined;
}
