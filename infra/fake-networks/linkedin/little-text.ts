/** Little text's reserved characters (linkedin.md §2). */
const RESERVED = new Set(['|', '{', '}', '@', '[', ']', '(', ')', '<', '>', '#', '*', '_', '~', '\\']);

/**
 * What LinkedIn publishes of a commentary: escapes resolved; at the first reserved character that
 * is not escaped (markup the fake does not model) the text stops, as LinkedIn silently cuts it.
 */
export function publishedText(commentary: string): string {
  let out = '';
  const chars = [...commentary];
  for (let i = 0; i < chars.length; i += 1) {
    const char = chars[i] as string;
    if (char === '\\') {
      const next = chars[i + 1];
      if (next === undefined || !RESERVED.has(next)) return out;
      out += next;
      i += 1;
    } else if (RESERVED.has(char)) {
      return out;
    } else {
      out += char;
    }
  }
  return out;
}
