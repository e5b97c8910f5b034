// twitter-text's own parseTweet, imported alone: the package's index also brings autoLink and the
// extractors (about 28 KiB of every bundle, as the definitions reach every function).
declare module 'twitter-text/dist/parseTweet.js' {
  import type { ParsedTweet, ParseTweetOptions } from 'twitter-text';
  export default function parseTweet(text: string, options?: ParseTweetOptions): ParsedTweet;
}
