import { BLUESKY_MAX_TAG_GRAPHEMES, graphemeLength } from './limits.js';

/** A rich-text facet (lexicon `app.bsky.richtext.facet`): UTF-8 byte range, start inclusive, end exclusive. */
export interface Facet {
  index: { byteStart: number; byteEnd: number };
  features: FacetFeature[];
}
export type FacetFeature =
  | { $type: 'app.bsky.richtext.facet#link'; uri: string }
  | { $type: 'app.bsky.richtext.facet#mention'; did: string }
  | { $type: 'app.bsky.richtext.facet#tag'; tag: string };

/** Resolves a handle to its DID, or undefined when it does not resolve (then the mention stays text). */
export type HandleResolver = (handle: string) => Promise<string | undefined>;

const LINK = /(?<=^|[\s(])https?:\/\/[^\s]+/giu;
const MENTION = /(?<=^|[\s(])@(([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?)/giu;
const TAG = /(?<=^|\s)[#＃]([^\s#＃]*[^\d\s\p{P}][^\s#＃]*)/gu;
/** A link or tag does not end on the punctuation that follows it in a sentence. */
const TRAILING = /[.,;:!?'")\]]+$/u;

interface Span {
  start: number;
  end: number;
  feature: FacetFeature;
}

const bytes = (text: string, index: number) => Buffer.byteLength(text.slice(0, index), 'utf8');

/**
 * The facets Bluesky needs to make links, mentions and hashtags of plain text (research §2a: a URL
 * without a facet is not a link): byte offsets of UTF-8. A mention's handle is resolved to its DID;
 * a handle that does not resolve is left as text rather than fail the post.
 */
export async function detectFacets(text: string, resolve: HandleResolver): Promise<Facet[]> {
  const spans: Span[] = [];
  for (const match of text.matchAll(LINK)) {
    const uri = match[0].replace(TRAILING, '');
    if (!URL.canParse(uri)) continue;
    spans.push({
      start: match.index,
      end: match.index + uri.length,
      feature: { $type: 'app.bsky.richtext.facet#link', uri },
    });
  }
  for (const match of text.matchAll(MENTION)) {
    const handle = (match[1] ?? '').toLowerCase();
    if (overlaps(spans, match.index)) continue;
    const did = await resolve(handle);
    if (!did) continue;
    spans.push({
      start: match.index,
      end: match.index + match[0].length,
      feature: { $type: 'app.bsky.richtext.facet#mention', did },
    });
  }
  for (const match of text.matchAll(TAG)) {
    const tag = (match[1] ?? '').replace(TRAILING, '');
    if (tag === '' || graphemeLength(tag) > BLUESKY_MAX_TAG_GRAPHEMES || overlaps(spans, match.index))
      continue;
    spans.push({
      start: match.index,
      end: match.index + 1 + tag.length,
      feature: { $type: 'app.bsky.richtext.facet#tag', tag },
    });
  }
  return spans
    .sort((a, b) => a.start - b.start)
    .map((span) => ({
      index: { byteStart: bytes(text, span.start), byteEnd: bytes(text, span.end) },
      features: [span.feature],
    }));
}

function overlaps(spans: readonly Span[], index: number): boolean {
  return spans.some((span) => index >= span.start && index < span.end);
}
