import type { z } from 'zod';
import type { ValidationDetails } from '../domain/errors.js';

/** `["content", 1, "text"]` → `content[1].text`. */
export function fieldPath(path: readonly PropertyKey[], root: string): string {
  if (path.length === 0) return root;
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
}

/** A zod error as the envelope's `details`: field name → its messages. */
export function toValidationDetails(error: z.ZodError, root: string): ValidationDetails {
  const details: ValidationDetails = {};
  for (const issue of error.issues) {
    const field = fieldPath(issue.path, root);
    details[field] = [...(details[field] ?? []), issue.message];
  }
  return details;
}
