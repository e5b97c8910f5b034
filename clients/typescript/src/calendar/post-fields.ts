import type { CreatePostBody, Post } from '../types.js';
import type { PostFields } from './model.js';

/** The status a calendar entry can ask for. */
export type CalendarStatus = 'scheduled' | 'draft';

/** What a post stands for in a calendar: its create fields, status and time. */
export interface PostReading {
  post: PostFields;
  status: CalendarStatus;
  /** UTC (Z) when the post has a time. */
  scheduledAt?: string;
}

/** The fields compared between a calendar entry and a post, in display order. */
export const COMPARED_FIELDS = [
  'platform',
  'accountId',
  'postType',
  'status',
  'scheduledAt',
  'content',
  'media',
  'platformOptions',
  'firstComment',
  'link',
] as const;
export type ComparedField = (typeof COMPARED_FIELDS)[number];

type MediaRefIn = NonNullable<CreatePostBody['media']>[number];
type MediaRefRead = Post['media'][number];

/** The externalId a post carries, if any (the read says null when none). */
export function externalIdOf(post: Post): string | undefined {
  return post.externalId ?? undefined;
}

/**
 * The createPost-shaped fields a post read stands for. Delivery bookkeeping (a first comment's
 * status and ids, the post's own ids, errors) is left out: a pulled file must recreate the post,
 * and planning that file against the same post must find nothing to do.
 */
export function fieldsOfPost(post: Post): PostReading {
  const fields: PostFields = {
    platform: post.platform,
    accountId: post.accountId,
    postType: post.postType,
    content: typeof post.content === 'string' ? post.content : post.content.map(contentItemOf),
  };
  if (post.media.length > 0) fields.media = post.media.map(mediaRefOf);
  if (post.platformOptions && Object.keys(post.platformOptions).length > 0) {
    fields.platformOptions = post.platformOptions;
  }
  if (post.firstComment) {
    fields.firstComment = { text: post.firstComment.text };
    if (post.firstComment.media.length > 0)
      fields.firstComment.media = post.firstComment.media.map(mediaRefOf);
  }
  if (post.link) {
    const { url, title, description, thumbnail } = post.link;
    fields.link = { url };
    if (title !== undefined) fields.link.title = title;
    if (description !== undefined) fields.link.description = description;
    if (thumbnail !== undefined) fields.link.thumbnail = mediaRefOf(thumbnail);
  }
  const reading: PostReading = { post: fields, status: calendarStatusOf(post) };
  if (post.scheduledAt) reading.scheduledAt = post.scheduledAt;
  return reading;
}

/**
 * A post waiting for approval is what a scheduled entry asked for (the approval is the
 * workspace's step, not the file's); one without a time can only have been a draft in a file.
 */
function calendarStatusOf(post: Post): CalendarStatus {
  if (post.status === 'draft') return 'draft';
  return post.scheduledAt ? 'scheduled' : 'draft';
}

function contentItemOf(
  item: Exclude<Post['content'], string>[number],
): Exclude<PostFields['content'], string>[number] {
  const out: Exclude<PostFields['content'], string>[number] = {};
  if (item.text !== undefined) out.text = item.text;
  if (item.media && item.media.length > 0) out.media = item.media.map(mediaRefOf);
  return out;
}

/** A media reference as create takes it: id or url/type, alt, userTags. */
function mediaRefOf(ref: MediaRefRead): MediaRefIn {
  const out: MediaRefIn = {};
  if (ref.id !== undefined) out.id = ref.id;
  if (ref.url !== undefined) out.url = ref.url;
  if (ref.type !== undefined) out.type = ref.type;
  if (ref.alt !== undefined) out.alt = ref.alt;
  if (ref.userTags && ref.userTags.length > 0) out.userTags = ref.userTags.map((tag) => ({ ...tag }));
  return out;
}

/** What a create body stands for, read the same way as a post (status publish counts as scheduled). */
export function readingOfBody(body: CreatePostBody): PostReading {
  const { status, scheduledAt, ...rest } = body;
  const fields: PostFields = {
    platform: rest.platform,
    accountId: rest.accountId,
    postType: rest.postType,
    content: rest.content,
  };
  if (rest.media !== undefined) fields.media = rest.media;
  if (rest.platformOptions) fields.platformOptions = rest.platformOptions;
  if (rest.firstComment) fields.firstComment = rest.firstComment;
  if (rest.link) fields.link = rest.link;
  const reading: PostReading = { post: fields, status: status === 'draft' ? 'draft' : 'scheduled' };
  if (scheduledAt) reading.scheduledAt = scheduledAt;
  return reading;
}

/** The fields in which two readings differ (canonically compared), in COMPARED_FIELDS order. */
export function differingFields(a: PostReading, b: PostReading): ComparedField[] {
  return COMPARED_FIELDS.filter(
    (field) => canonicalJson(field, fieldValue(a, field)) !== canonicalJson(field, fieldValue(b, field)),
  );
}

export function sameFields(a: PostReading, b: PostReading): boolean {
  return differingFields(a, b).length === 0;
}

/** The fields a desired create body would change on a post. */
export function changedFields(desired: CreatePostBody, post: Post): ComparedField[] {
  return differingFields(readingOfBody(desired), fieldsOfPost(post));
}

function fieldValue(reading: PostReading, field: ComparedField): unknown {
  if (field === 'status') return reading.status;
  if (field === 'scheduledAt') return reading.scheduledAt;
  return reading.post[field];
}

/**
 * One spelling per meaning: keys sorted; absent, undefined, null, [] and {} alike for optional
 * values; `x` as `twitter` (the service stores it so); a time as its instant.
 */
export function canonicalJson(field: ComparedField, value: unknown): string {
  if (field === 'scheduledAt') return JSON.stringify(instantOf(value));
  if (field === 'platform') return JSON.stringify(value === 'x' ? 'twitter' : value);
  if (field === 'platformOptions' && isRecord(value) && 'x' in value) {
    const { x, ...rest } = value;
    return JSON.stringify(canonical({ ...rest, twitter: x }) ?? null);
  }
  return JSON.stringify(canonical(value) ?? null);
}

function instantOf(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}

/** Sorted keys, empty optional values dropped; undefined when the whole value is empty. */
function canonical(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    return value.map((item) => canonical(item) ?? null);
  }
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const inner = canonical(value[key]);
      if (inner !== undefined) out[key] = inner;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
