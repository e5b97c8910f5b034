/**
 * LinkedIn's `commentary` is "little text": these characters are markup (mentions, hashtags,
 * emphasis) and a literal one must be backslash-escaped, or LinkedIn silently cuts the published
 * text at it (networks/linkedin.md §2). The service publishes the caller's text as written, so
 * every one is escaped, the backslash itself included; no mention or hashtag markup is produced.
 */
const RESERVED = /[\\|{}@[\]()<>#*_~]/g;

export function escapeLittleText(text: string): string {
  return text.replace(RESERVED, (char) => `\\${char}`);
}
