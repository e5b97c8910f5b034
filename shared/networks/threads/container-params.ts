import type { DeliveryMedia } from '../../ports/connector.js';
import type { ThreadsOptions } from './options-schema.js';

/** Where the item stands in the post: what it replies to, and whether the post's own options apply. */
export interface ItemPlace {
  /** The post it replies to: the previous item's id, or the `replyToId` option for the first. */
  replyToId?: string;
  /** The first item carries the post's topic, quote and link card; every item its reply control. */
  first: boolean;
}

function shared(options: ThreadsOptions, place: ItemPlace): Record<string, string> {
  return {
    ...(options.replyControl && { reply_control: options.replyControl }),
    ...(place.replyToId && { reply_to_id: place.replyToId }),
    ...(place.first && options.topicTag && { topic_tag: options.topicTag }),
    ...(place.first && options.quotePostId && { quote_post_id: options.quotePostId }),
  };
}

/** A text-only container (media_type TEXT); the link card goes only here (threads.md §4). */
export function textParams(text: string, options: ThreadsOptions, place: ItemPlace): Record<string, string> {
  return {
    media_type: 'TEXT',
    text,
    ...(place.first && options.linkAttachment && { link_attachment: options.linkAttachment }),
    ...shared(options, place),
  };
}

function mediaFields(media: DeliveryMedia, url: string): Record<string, string> {
  return {
    ...(media.kind === 'video'
      ? { media_type: 'VIDEO', video_url: url }
      : { media_type: 'IMAGE', image_url: url }),
    ...(media.alt && { alt_text: media.alt }),
  };
}

/** One image or video post. */
export function singleMediaParams(
  media: DeliveryMedia,
  url: string,
  text: string,
  options: ThreadsOptions,
  place: ItemPlace,
): Record<string, string> {
  return { ...mediaFields(media, url), ...(text && { text }), ...shared(options, place) };
}

/** One carousel item's container: no text (the carousel has it), its alt text kept. */
export function carouselItemParams(media: DeliveryMedia, url: string): Record<string, string> {
  return { ...mediaFields(media, url), is_carousel_item: 'true' };
}

export function carouselParams(
  children: readonly string[],
  text: string,
  options: ThreadsOptions,
  place: ItemPlace,
): Record<string, string> {
  return {
    media_type: 'CAROUSEL',
    children: children.join(','),
    ...(text && { text }),
    ...shared(options, place),
  };
}
