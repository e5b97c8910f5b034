const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const encoder = new TextEncoder();
const EMOJI = /\p{Extended_Pictographic}|\u20e3|\p{Regional_Indicator}/u;

/**
 * Threads' own count (threads.md §7), written apart from the connector's so the fake checks it
 * rather than agreeing with it: a grapheme is one, an emoji its UTF-8 bytes.
 */
export function fakeTextLength(text: string): number {
  let length = 0;
  for (const { segment } of segmenter.segment(text))
    length += EMOJI.test(segment) ? encoder.encode(segment).length : 1;
  return length;
}

/** The distinct links of a post: the URLs in its text and its link attachment (threads.md §7). */
export function fakeLinkCount(text: string, linkAttachment: string | null): number {
  const links = new Set<string>();
  for (const match of text.matchAll(/https?:\/\/[^\s<>"]+/giu))
    links.add(match[0].replace(/[.,;:!?)\]]+$/u, '').toLowerCase());
  if (linkAttachment) links.add(linkAttachment.toLowerCase());
  return links.size;
}
