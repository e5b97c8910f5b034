import type { Problems } from './calendar-error.js';
import { childPath, describeType, isRecord, readString, refuseUnknownFields } from './document-fields.js';
import { isTimeZone, localToZoned, parseAt } from './local-time.js';
import type { CalendarEntry, PostFields, Recurrence } from './model.js';
import { buildRule } from './recurrence.js';

type Platform = PostFields['platform'];
type PostType = PostFields['postType'];
type Content = PostFields['content'];
type MediaList = NonNullable<PostFields['media']>;

/**
 * The API's enums, as records so the compiler insists on every value: a platform or post type the
 * regenerated types add (or drop) fails the typecheck here rather than being refused at run time.
 */
const PLATFORMS: Record<Platform, true> = {
  twitter: true,
  x: true,
  linkedin: true,
  instagram: true,
  tiktok: true,
  youtube: true,
  bluesky: true,
  facebook: true,
  threads: true,
};
const POST_TYPES: Record<PostType, true> = {
  text: true,
  image: true,
  video: true,
  thread: true,
  carousel: true,
  document: true,
  reel: true,
  story: true,
  short: true,
};

/** The fields of an entry, in the order the file writes them. */
export const ENTRY_FIELDS = [
  'key',
  'platform',
  'accountId',
  'postType',
  'content',
  'at',
  'timezone',
  'status',
  'media',
  'platformOptions',
  'firstComment',
  'link',
  'repeat',
  'postId',
] as const;

export const KEY_PATTERN = /^[A-Za-z0-9._-]{1,100}$/;

function isPlatform(value: string): value is Platform {
  return Object.hasOwn(PLATFORMS, value);
}
function isPostType(value: string): value is PostType {
  return Object.hasOwn(POST_TYPES, value);
}

/**
 * A list of media references. Only the outer shape is checked: what a reference holds (id or url,
 * type, alt…) is the service's rule, which `plan` asks of validatePost, so it is not copied here.
 */
function isMediaList(value: unknown): value is MediaList {
  return Array.isArray(value) && value.every(isRecord);
}

type PlatformOptions = PostFields['platformOptions'];
type FirstComment = PostFields['firstComment'];
type Link = PostFields['link'];

/**
 * The API's option mappings, or null for none. As with media, only what the type itself requires
 * is checked (a comment's text, a link's url); the rest is validatePost's to judge.
 */
function isPlatformOptions(value: unknown): value is PlatformOptions {
  return value === null || isRecord(value);
}
function isFirstComment(value: unknown): value is FirstComment {
  return value === null || (isRecord(value) && typeof value.text === 'string');
}
function isLink(value: unknown): value is Link {
  return value === null || (isRecord(value) && typeof value.url === 'string');
}

/** The entry at `path`, or undefined when it has a problem (recorded). `fileZone` is the default zone. */
export function readEntry(
  raw: unknown,
  path: string,
  fileZone: string,
  problems: Problems,
): CalendarEntry | undefined {
  if (!isRecord(raw)) {
    problems.add(path, `must be a mapping (got ${describeType(raw)})`);
    return undefined;
  }
  const before = problems.list.length;
  refuseUnknownFields(raw, ENTRY_FIELDS, path, problems);
  const key = readString(raw, 'key', path, problems, {
    required: true,
    pattern: KEY_PATTERN,
    expected: 'a key of 1 to 100 letters, digits, dots, underscores and hyphens',
  });
  const post = readPostFields(raw, path, problems);
  const timezone = readString(raw, 'timezone', path, problems);
  if (timezone !== undefined && !isTimeZone(timezone)) {
    problems.add(childPath(path, 'timezone'), `unknown time zone "${timezone}"`);
  }
  const zone = timezone !== undefined && isTimeZone(timezone) ? timezone : fileZone;
  const at = readString(raw, 'at', path, problems);
  if (at !== undefined) {
    try {
      parseAt(at, zone);
    } catch (error) {
      problems.add(childPath(path, 'at'), messageOf(error));
    }
  }
  const statusText = readString(raw, 'status', path, problems);
  if (statusText !== undefined && statusText !== 'scheduled' && statusText !== 'draft') {
    problems.add(childPath(path, 'status'), `"${statusText}" is not scheduled or draft`);
  }
  const repeat =
    raw.repeat === undefined ? undefined : readRepeat(raw.repeat, childPath(path, 'repeat'), zone, problems);
  const postId = readString(raw, 'postId', path, problems, { pattern: /^\S+$/, expected: 'a post id' });
  if (raw.repeat !== undefined) {
    if (at !== undefined) problems.add(childPath(path, 'repeat'), 'give either at or repeat, not both');
    if (statusText === 'draft') {
      problems.add(
        childPath(path, 'repeat'),
        'a recurring entry makes scheduled posts; status draft cannot repeat',
      );
    }
    if (raw.postId !== undefined) {
      problems.add(childPath(path, 'postId'), 'an entry bound to one post by postId cannot repeat');
    }
  }

  if (problems.list.length > before || key === undefined || post === undefined) return undefined;
  const entry: CalendarEntry = { key, post, status: statusText === 'draft' ? 'draft' : 'scheduled' };
  if (at !== undefined) entry.at = at;
  if (timezone !== undefined) entry.timezone = timezone;
  if (repeat !== undefined) entry.repeat = repeat;
  if (postId !== undefined) entry.postId = postId;
  return entry;
}

/** What the entry posts: the createPost fields besides status and time. */
function readPostFields(
  raw: Record<string, unknown>,
  path: string,
  problems: Problems,
): PostFields | undefined {
  const before = problems.list.length;
  const platform = readString(raw, 'platform', path, problems, { required: true });
  if (platform !== undefined && !isPlatform(platform)) {
    problems.add(
      childPath(path, 'platform'),
      `unknown platform "${platform}" (${Object.keys(PLATFORMS).join(', ')})`,
    );
  }
  const accountId = readString(raw, 'accountId', path, problems, {
    required: true,
    pattern: /\S/,
    expected: 'an account id',
  });
  const postType = readString(raw, 'postType', path, problems, { required: true });
  if (postType !== undefined && !isPostType(postType)) {
    problems.add(
      childPath(path, 'postType'),
      `unknown post type "${postType}" (${Object.keys(POST_TYPES).join(', ')})`,
    );
  }
  const content = readContent(raw.content, childPath(path, 'content'), problems);
  const { media, platformOptions, firstComment, link } = raw;
  if (media !== undefined && !isMediaList(media)) {
    problems.add(childPath(path, 'media'), 'must be a list of media references (mappings)');
  }
  if (platformOptions !== undefined && !isPlatformOptions(platformOptions)) {
    problems.add(
      childPath(path, 'platformOptions'),
      `must be a mapping or null (got ${describeType(platformOptions)})`,
    );
  }
  if (firstComment !== undefined && !isFirstComment(firstComment)) {
    problems.add(childPath(path, 'firstComment'), 'must be a mapping with a text, or null');
  }
  if (link !== undefined && !isLink(link)) {
    problems.add(childPath(path, 'link'), 'must be a mapping with a url, or null');
  }
  if (problems.list.length > before || accountId === undefined || content === undefined) return undefined;
  if (platform === undefined || !isPlatform(platform) || postType === undefined || !isPostType(postType)) {
    return undefined;
  }
  const post: PostFields = { platform, accountId, postType, content };
  if (isMediaList(media)) post.media = media;
  if (platformOptions !== undefined && isPlatformOptions(platformOptions))
    post.platformOptions = platformOptions;
  if (firstComment !== undefined && isFirstComment(firstComment)) post.firstComment = firstComment;
  if (link !== undefined && isLink(link)) post.link = link;
  return post;
}

/** A string, or a list of `{text, media}` parts (a thread's posts, a carousel's cards). */
function readContent(raw: unknown, path: string, problems: Problems): Content | undefined {
  if (raw === undefined || raw === null) {
    problems.add(path, 'required (a text, or a list of {text, media} parts)');
    return undefined;
  }
  if (typeof raw === 'string') return raw;
  if (!Array.isArray(raw)) {
    problems.add(path, `must be a text or a list of {text, media} parts (got ${describeType(raw)})`);
    return undefined;
  }
  const items: Exclude<Content, string> = [];
  raw.forEach((part: unknown, index) => {
    const at = childPath(path, index);
    if (!isRecord(part)) {
      problems.add(at, `must be a mapping {text, media} (got ${describeType(part)})`);
      return;
    }
    refuseUnknownFields(part, ['text', 'media'], at, problems);
    const text = readString(part, 'text', at, problems);
    if (part.media !== undefined && !isMediaList(part.media)) {
      problems.add(childPath(at, 'media'), 'must be a list of media references (mappings)');
    }
    const item: Exclude<Content, string>[number] = {};
    if (text !== undefined) item.text = text;
    if (isMediaList(part.media)) item.media = part.media;
    items.push(item);
  });
  return items;
}

function readRepeat(raw: unknown, path: string, zone: string, problems: Problems): Recurrence | undefined {
  if (!isRecord(raw)) {
    problems.add(path, `must be a mapping {rule, start} (got ${describeType(raw)})`);
    return undefined;
  }
  refuseUnknownFields(raw, ['rule', 'start'], path, problems);
  const rule = readString(raw, 'rule', path, problems, { required: true });
  const start = readString(raw, 'start', path, problems, { required: true });
  if (start !== undefined) {
    try {
      localToZoned(start, zone);
    } catch (error) {
      problems.add(childPath(path, 'start'), `${messageOf(error)} (DTSTART is local, in the entry's zone)`);
      return undefined;
    }
  }
  if (rule === undefined || start === undefined) return undefined;
  try {
    buildRule({ rule, start }, zone);
  } catch (error) {
    problems.add(childPath(path, 'rule'), messageOf(error));
    return undefined;
  }
  return { rule, start };
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
