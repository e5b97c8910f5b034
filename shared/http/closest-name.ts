import { distance } from 'fastest-levenshtein';

/** `post_id`, `postId`, `post-id` and `POSTID` are one name to a person typing it. */
function folded(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

/**
 * The valid name a caller most likely meant by `name`: one that differs only in case and
 * separators (`post_id` → `postId`), else the nearest by edit distance when that is at most a third
 * of the name's length, or two edits (`contnet` → `content`, `txet` → `text`). Undefined when nothing is that close: a far guess
 * misleads more than the list of valid names does.
 */
export function closestName(name: string, valid: readonly string[]): string | undefined {
  const wanted = folded(name);
  // Two edits at least (a swapped pair of letters), never the whole name.
  const maxDistance = Math.min(wanted.length - 1, Math.max(2, Math.floor(wanted.length / 3)));
  let best: { name: string; distance: number } | undefined;
  for (const candidate of valid) {
    const apart = distance(wanted, folded(candidate));
    if (apart <= maxDistance && (!best || apart < best.distance)) best = { name: candidate, distance: apart };
  }
  return best?.name;
}

/**
 * What an error says of a name the caller sent that is not one of `valid`:
 * "Unknown argument `post_id`; did you mean `postId`?", or the valid names when none is close.
 */
export function unknownNameMessage(
  kind: 'argument' | 'field',
  name: string,
  valid: readonly string[],
): string {
  const meant = closestName(name, valid);
  if (meant) return `Unknown ${kind} \`${name}\`; did you mean \`${meant}\`?`;
  if (valid.length === 0) return `Unknown ${kind} \`${name}\`; none is taken here.`;
  return `Unknown ${kind} \`${name}\`; expected one of ${valid.map((each) => `\`${each}\``).join(', ')}.`;
}
