import type { Post, PostStatus } from '../types.js';
import type { DesiredPost, PlanItem, ServiceState } from './model.js';
import {
  type ComparedField,
  differingFields,
  externalIdOf,
  fieldsOfPost,
  readingOfBody,
} from './post-fields.js';

/** The statuses updatePost changes and cancelPost cancels: the calendar may still act on them. */
const EDITABLE: ReadonlySet<PostStatus> = new Set(['draft', 'pending_approval', 'scheduled']);
/** Posts that no longer stand for their entry: a new post may be created in their place. */
export const ENDED: ReadonlySet<PostStatus> = new Set(['cancelled', 'failed']);

/** Why a matched post is left alone though the entry may differ. */
const NOT_EDITABLE_NOTE: Partial<Record<PostStatus, string>> = {
  queued: 'being sent',
  publishing: 'being sent',
  published: 'already published',
  awaiting_creator: "already sent to the creator's inbox",
  rejected: 'rejected in approval',
};

/** The fields that cannot be PATCHed: a change to either needs a new post. */
const FIXED_FIELDS: ReadonlySet<ComparedField> = new Set(['platform', 'accountId']);

/**
 * What apply must do so the service holds the desired posts: one item per desired post (two for a
 * replace), plus a cancel for each editable post of the calendar that no entry names any more.
 * Ordered by time (scheduledAt, then externalId), timeless last; a replace's cancel comes right
 * before its create, so the old post is gone before the new one is made.
 */
export function planChanges(desired: DesiredPost[], state: ServiceState): PlanItem[] {
  const liveByExternalId = groupLiveByExternalId(state.managed);
  const boundById = new Map(state.bound.map((post) => [post.id, post]));
  const named = new Set<string>();
  const planned: SortableItem[] = [];

  for (const want of desired) {
    const { post, duplicates, note } = matchOf(want, liveByExternalId, boundById);
    const sortAt = want.body.scheduledAt;
    for (const duplicate of duplicates) named.add(duplicate.id);
    if (post) named.add(post.id);
    for (const duplicate of duplicates.filter((candidate) => EDITABLE.has(candidate.status))) {
      planned.push({
        sortAt,
        item: {
          kind: 'cancel',
          externalId: want.externalId,
          post: duplicate,
          changedFields: [],
          note: 'a second post with this externalId',
        },
      });
    }
    planned.push(...itemsFor(want, post, note).map((item) => ({ item, sortAt })));
  }

  for (const post of state.managed) {
    if (named.has(post.id) || !EDITABLE.has(post.status)) continue;
    named.add(post.id);
    planned.push({
      sortAt: post.scheduledAt ?? undefined,
      item: { kind: 'cancel', externalId: externalIdOf(post) ?? post.id, post, changedFields: [] },
    });
  }
  return planned.sort(compareSortable).map(({ item }) => item);
}

interface SortableItem {
  item: PlanItem;
  sortAt: string | undefined;
}

interface Match {
  post?: Post;
  /** Other live posts with the same externalId (there should be none). */
  duplicates: Post[];
  note?: string;
}

function matchOf(
  want: DesiredPost,
  liveByExternalId: Map<string, Post[]>,
  boundById: Map<string, Post>,
): Match {
  const sameId = liveByExternalId.get(want.externalId) ?? [];
  if (want.postId !== undefined) {
    const bound = boundById.get(want.postId);
    if (bound && !ENDED.has(bound.status)) {
      return { post: bound, duplicates: sameId.filter((post) => post.id !== want.postId) };
    }
    // The post the entry names is gone: the one made in its place (by externalId) stands for it
    // from then on, so a file still naming the old id never makes a post on every run.
    const [replacement, ...duplicates] = sameId;
    if (replacement) return { post: replacement, duplicates };
    const gone = bound ? `is ${bound.status}` : 'not found';
    return { duplicates, note: `post ${want.postId} ${gone}: created anew` };
  }
  const [post, ...duplicates] = sameId;
  return post ? { post, duplicates } : { duplicates };
}

function itemsFor(want: DesiredPost, post: Post | undefined, note: string | undefined): PlanItem[] {
  if (!post)
    return [
      withNote({ kind: 'create', externalId: want.externalId, desired: want, changedFields: [] }, note),
    ];
  const desiredReading = readingOfBody(want.body);
  const current = fieldsOfPost(post);
  const differing = differingFields(desiredReading, current);
  const base = { externalId: want.externalId, desired: want, post };

  if (!EDITABLE.has(post.status)) {
    // A sent post's status is no longer a calendar status; only its content can be told apart.
    const shown = differing.filter((field) => field !== 'status');
    return [
      {
        ...base,
        kind: 'unchanged',
        changedFields: shown,
        note: NOT_EDITABLE_NOTE[post.status] ?? post.status,
      },
    ];
  }
  if (differing.length === 0) return [{ ...base, kind: 'unchanged', changedFields: [] }];

  if (differing.some((field) => FIXED_FIELDS.has(field))) {
    const why = `${differing.filter((field) => FIXED_FIELDS.has(field)).join(' and ')} cannot be changed on a post: cancelled and created anew`;
    return [
      { kind: 'cancel', externalId: want.externalId, post, changedFields: differing, note: why },
      { kind: 'create', externalId: want.externalId, desired: want, changedFields: differing, note: why },
    ];
  }
  const patch = patchOf(want, differing);
  const kind = differing.length === 1 && differing[0] === 'scheduledAt' ? 'reschedule' : 'edit';
  return [{ ...base, kind, patch, changedFields: differing }];
}

/**
 * updatePost's body for the differing fields. An optional field the entry leaves out is removed
 * (null; media []), as the post must end up as the entry says. A status change always carries the
 * time, as a draft submitted for scheduling needs one.
 */
function patchOf(want: DesiredPost, differing: ComparedField[]): Record<string, unknown> {
  const body = want.body;
  const patch: Record<string, unknown> = {};
  for (const field of differing) {
    switch (field) {
      case 'status':
        patch.status = body.status === 'draft' ? 'draft' : 'scheduled';
        patch.scheduledAt = body.scheduledAt ?? null;
        break;
      case 'scheduledAt':
        patch.scheduledAt = body.scheduledAt ?? null;
        break;
      case 'content':
        patch.content = body.content;
        break;
      case 'postType':
        patch.postType = body.postType;
        break;
      case 'media':
        patch.media = body.media ?? [];
        break;
      case 'platformOptions':
        patch.platformOptions = body.platformOptions ?? null;
        break;
      case 'firstComment':
        patch.firstComment = body.firstComment ?? null;
        break;
      case 'link':
        patch.link = body.link ?? null;
        break;
      case 'platform':
      case 'accountId':
        // Never reached: a change to either is a replace (itemsFor).
        break;
    }
  }
  return patch;
}

function withNote(item: PlanItem, note: string | undefined): PlanItem {
  return note === undefined ? item : { ...item, note };
}

/** Live (not cancelled or failed) managed posts by externalId, the earliest created first. */
export function groupLiveByExternalId(managed: Post[]): Map<string, Post[]> {
  const groups = new Map<string, Post[]>();
  for (const post of managed) {
    const externalId = externalIdOf(post);
    if (externalId === undefined || ENDED.has(post.status)) continue;
    const group = groups.get(externalId) ?? [];
    group.push(post);
    groups.set(externalId, group);
  }
  for (const group of groups.values()) {
    group.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }
  return groups;
}

const KIND_ORDER: Record<PlanItem['kind'], number> = {
  cancel: 0,
  create: 1,
  reschedule: 2,
  edit: 3,
  unchanged: 4,
};

function compareSortable(a: SortableItem, b: SortableItem): number {
  const aTime = a.sortAt === undefined ? Number.POSITIVE_INFINITY : Date.parse(a.sortAt);
  const bTime = b.sortAt === undefined ? Number.POSITIVE_INFINITY : Date.parse(b.sortAt);
  if (aTime !== bTime) return aTime < bTime ? -1 : 1;
  if (a.item.externalId !== b.item.externalId) return a.item.externalId < b.item.externalId ? -1 : 1;
  return KIND_ORDER[a.item.kind] - KIND_ORDER[b.item.kind];
}
