import twitter from 'twitter-text';

/**
 * Whether a tweet's text, as X returns it, is the text we sent. X changes the text on the way:
 * every link becomes a t.co link, a post with media gets one more t.co link at the end, and `&`,
 * `<` and `>` come back as HTML entities. So both sides drop every link (as twitter-text finds
 * them, bare domains included, the way X does) and compare what is left, NFC-normalised, with
 * runs of white space as one.
 */
export function isSameText(returnedByX: string, sent: string): boolean {
  return comparable(decodeEntities(returnedByX)) === comparable(sent);
}

function decodeEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

function comparable(text: string): string {
  let rest = text.normalize('NFC');
  for (const url of twitter.extractUrls(rest)) rest = rest.split(url).join(' ');
  return rest.replace(/\s+/gu, ' ').trim();
}
