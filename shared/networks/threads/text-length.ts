const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const encoder = new TextEncoder();
/** An emoji grapheme: a pictograph, a keycap, or a flag (regional indicators). */
const EMOJI = /\p{Extended_Pictographic}|\u20e3|\p{Regional_Indicator}/u;

/**
 * The length Threads counts against its 500 (threads.md §7): "Emojis are counted as the number of
 * UTF-8 bytes", graphemes being what the doc splits with. Every other grapheme counts one, the
 * reading the doc's example supports (how CJK or accented letters count is an open question;
 * one per grapheme is what a person sees).
 */
export function threadsTextLength(text: string): number {
  let length = 0;
  for (const { segment } of segmenter.segment(text)) {
    length += EMOJI.test(segment) ? encoder.encode(segment).length : 1;
  }
  return length;
}

/** The distinct URLs of a text, as Threads counts links (http(s) addresses; a trailing dot or comma is not part of one). */
export function linksIn(text: string): string[] {
  const found = text.match(/https?:\/\/[^\s<>"]+/giu) ?? [];
  return found.map((url) => url.replace(/[.,;:!?)\]]+$/u, ''));
}

/** Links counted once each, the text's and the link attachment's together. */
export function distinctLinks(text: string, linkAttachment?: string): number {
  const links = new Set(linksIn(text).map((url) => url.toLowerCase()));
  if (linkAttachment) links.add(linkAttachment.toLowerCase());
  return links.size;
}
