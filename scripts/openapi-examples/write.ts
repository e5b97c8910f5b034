import { writeFileSync } from 'node:fs';

/** Objects with their keys sorted, recursively; arrays keep their order (it is the answer's). */
export function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([key, item]) => [key, sortedKeys(item)]));
  }
  return value;
}

/** 2-space JSON with sorted keys and a final newline: a new recording diffs only where answers changed. */
export function writeExamples(path: string, examples: unknown): void {
  writeFileSync(path, `${JSON.stringify(sortedKeys(examples), null, 2)}\n`);
}
