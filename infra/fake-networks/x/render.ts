import twitter from 'twitter-text';
import type { FakeXStore } from './store.js';

/**
 * A tweet's text as X returns it: each link (as twitter-text finds them, bare domains included)
 * becomes a t.co link, `&`, `<` and `>` are HTML entities, and a tweet with media ends with one
 * more t.co link, to the media. The connector's look-up has to see through all of it.
 */
export function renderText(store: FakeXStore, text: string, hasMedia: boolean): string {
  const shortLink = () => `https://t.co/${store.secret('').slice(0, 10)}`;
  let rendered = '';
  let from = 0;
  for (const { indices } of twitter.extractUrlsWithIndices(text)) {
    const [start, end] = indices;
    rendered += escapeEntities(text.slice(from, start)) + shortLink();
    from = end;
  }
  rendered += escapeEntities(text.slice(from));
  return hasMedia ? `${rendered}${rendered ? ' ' : ''}${shortLink()}` : rendered;
}

function escapeEntities(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** X's count (twitter-text), for refusing text over 280 weighted characters. */
export function isTextTooLong(text: string): boolean {
  return twitter.parseTweet(text).weightedLength > 280;
}
