import type { LinkShape } from '../../domain/post-shape.js';

/**
 * X builds a link's card itself from the page, from the URL in the text (research
 * first-comment-and-link-previews.md §2.3): a post's `link` is its URL in the first tweet's text,
 * on a line of its own after the text, unless the text holds it already.
 */
export function textWithLink(text: string, link: Pick<LinkShape, 'url'> | undefined): string {
  if (!link || text.includes(link.url)) return text;
  return text ? `${text}\n${link.url}` : link.url;
}
