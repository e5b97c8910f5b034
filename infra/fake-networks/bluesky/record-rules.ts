import type { FakeBlueskyStore } from './store.js';

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const graphemes = (text: string) => [...segmenter.segment(text)].length;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export interface RecordRules {
  maxImageBytes: number;
  maxBlobBytes: number;
  blobLifetimeMs: number;
  now: () => number;
}

/**
 * Why the PDS refuses an `app.bsky.feed.post` record (its lexicon, research §2 "Rules the fake must
 * enforce"), or undefined. The PDS answers these 400 InvalidRequest "Invalid app.bsky.feed.post record: …".
 */
export function postRecordProblem(
  record: unknown,
  did: string,
  store: FakeBlueskyStore,
  rules: RecordRules,
): string | undefined {
  if (!isObject(record)) return 'Record must be an object';
  if (record.$type !== 'app.bsky.feed.post') return 'Record/$type must be app.bsky.feed.post';
  if (typeof record.text !== 'string') return 'Record must have the property "text"';
  if (graphemes(record.text) > 300) return 'Record/text must not be longer than 300 graphemes';
  if (Buffer.byteLength(record.text, 'utf8') > 3000)
    return 'Record/text must not be longer than 3000 characters';
  if (typeof record.createdAt !== 'string' || Number.isNaN(Date.parse(record.createdAt))) {
    return 'Record/createdAt must be a valid datetime';
  }
  if (record.langs !== undefined && (!Array.isArray(record.langs) || record.langs.length > 3)) {
    return 'Record/langs must not have more than 3 elements';
  }
  return (
    facetsProblem(record.text, record.facets) ??
    embedProblem(record.embed, did, store, rules) ??
    replyProblem(record.reply, store)
  );
}

function facetsProblem(text: string, facets: unknown): string | undefined {
  if (facets === undefined) return undefined;
  if (!Array.isArray(facets)) return 'Record/facets must be an array';
  const bytes = Buffer.from(text, 'utf8');
  for (const facet of facets) {
    if (!isObject(facet) || !isObject(facet.index) || !Array.isArray(facet.features))
      return 'Record/facets has an invalid facet';
    const { byteStart, byteEnd } = facet.index;
    if (
      typeof byteStart !== 'number' ||
      typeof byteEnd !== 'number' ||
      byteStart < 0 ||
      byteEnd <= byteStart ||
      byteEnd > bytes.length
    ) {
      return 'Record/facets byte range is out of the text';
    }
    // A range must not cut a UTF-8 character: neither end may fall on a continuation byte.
    const continuation = (at: number) => at < bytes.length && ((bytes[at] ?? 0) & 0xc0) === 0x80;
    if (continuation(byteStart) || continuation(byteEnd))
      return 'Record/facets byte range splits a character';
    for (const feature of facet.features) {
      if (!isObject(feature)) return 'Record/facets has an invalid feature';
      if (feature.$type === 'app.bsky.richtext.facet#mention') {
        if (typeof feature.did !== 'string' || !feature.did.startsWith('did:'))
          return 'Record/facets mention must have a did';
      } else if (feature.$type === 'app.bsky.richtext.facet#link') {
        if (typeof feature.uri !== 'string' || !URL.canParse(feature.uri))
          return 'Record/facets link must have a uri';
      } else if (feature.$type === 'app.bsky.richtext.facet#tag') {
        if (typeof feature.tag !== 'string' || feature.tag.startsWith('#') || graphemes(feature.tag) > 64)
          return 'Record/facets tag is invalid';
      } else {
        return 'Record/facets has an unknown feature';
      }
    }
  }
  return undefined;
}

function blobProblem(
  blob: unknown,
  did: string,
  store: FakeBlueskyStore,
  accept: string,
  maxBytes: number,
  rules: RecordRules,
): string | undefined {
  if (!isObject(blob) || blob.$type !== 'blob' || !isObject(blob.ref) || typeof blob.ref.$link !== 'string')
    return 'blob ref is invalid';
  const stored = store.blobs.get(blob.ref.$link);
  if (!stored || stored.did !== did) return 'Could not find blob';
  if (!stored.referenced && stored.uploadedAt + rules.blobLifetimeMs < rules.now())
    return 'Could not find blob';
  if (!stored.mimeType.startsWith(accept)) return `blob must be ${accept}*`;
  if (stored.size > maxBytes) return `blob is too big: ${stored.size} > ${maxBytes}`;
  return undefined;
}

function embedProblem(
  embed: unknown,
  did: string,
  store: FakeBlueskyStore,
  rules: RecordRules,
): string | undefined {
  if (embed === undefined) return undefined;
  if (!isObject(embed)) return 'Record/embed must be an object';
  switch (embed.$type) {
    case 'app.bsky.embed.images': {
      const images = embed.images;
      if (!Array.isArray(images) || images.length < 1 || images.length > 4)
        return 'Record/embed/images must have 1 to 4 elements';
      for (const image of images) {
        if (!isObject(image) || typeof image.alt !== 'string')
          return 'Record/embed/images must have the property "alt"';
        const problem = blobProblem(image.image, did, store, 'image/', rules.maxImageBytes, rules);
        if (problem) return `Record/embed/images/image ${problem}`;
      }
      return undefined;
    }
    case 'app.bsky.embed.video': {
      const problem = blobProblem(embed.video, did, store, 'video/mp4', rules.maxBlobBytes, rules);
      return problem && `Record/embed/video ${problem}`;
    }
    case 'app.bsky.embed.external': {
      const external = embed.external;
      if (
        !isObject(external) ||
        typeof external.uri !== 'string' ||
        typeof external.title !== 'string' ||
        typeof external.description !== 'string'
      ) {
        return 'Record/embed/external must have uri, title and description';
      }
      if (!URL.canParse(external.uri)) return 'Record/embed/external/uri must be a uri';
      // Lexicon app.bsky.embed.external#external: thumb is an image/* blob of at most 1,000,000 bytes.
      if (external.thumb === undefined) return undefined;
      const problem = blobProblem(external.thumb, did, store, 'image/', EXTERNAL_THUMB_MAX_BYTES, rules);
      return problem && `Record/embed/external/thumb ${problem}`;
    }
    default:
      return 'Record/embed has an unknown type';
  }
}

function replyProblem(reply: unknown, store: FakeBlueskyStore): string | undefined {
  if (reply === undefined) return undefined;
  if (!isObject(reply) || !isObject(reply.root) || !isObject(reply.parent))
    return 'Record/reply must have root and parent';
  for (const ref of [reply.root, reply.parent]) {
    const found = typeof ref.uri === 'string' ? store.records.get(ref.uri) : undefined;
    if (!found || found.cid !== ref.cid) return 'Record/reply refers to a record that does not exist';
  }
  return undefined;
}

/** Lexicon `app.bsky.embed.external#external.thumb`: maxSize 1000000. */
const EXTERNAL_THUMB_MAX_BYTES = 1_000_000;

/** The blobs a post record references: kept from then on (the PDS deletes only unreferenced ones). */
export function referencedBlobs(record: Record<string, unknown>): string[] {
  const embed = record.embed;
  if (!isObject(embed)) return [];
  const refs = [
    ...(Array.isArray(embed.images)
      ? embed.images.map((image) => (isObject(image) ? image.image : undefined))
      : []),
    embed.video,
    isObject(embed.external) ? embed.external.thumb : undefined,
  ];
  return refs.flatMap((blob) =>
    isObject(blob) && isObject(blob.ref) && typeof blob.ref.$link === 'string' ? [blob.ref.$link] : [],
  );
}
