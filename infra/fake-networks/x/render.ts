import { randomInt } from 'node:crypto';
import twitter from 'twitter-text';

/**
 * A tweet's text as X returns it: each link (as twitter-text finds them, bare domains included)
 * becomes a t.co link, `&`, `<` and `>` are HTML entities, and a tweet with media ends with one
 * more t.co link, to the media. The connector's look-up has to see through all of it.
 */
export function renderText(text: string, hasMedia: boolean): string {
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

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** t.co links are ten letters and digits. */
function shortLink(): string {
  return `https://t.co/${Array.from({ length: 10 }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('')}`;
}

function escapeEntities(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** X's count (twitter-text), for refusing text over 280 weighted characters. */
export function isTextTooLong(text: string): boolean {
  return twitter.parseTweet(text).weightedLength > 280;
}
