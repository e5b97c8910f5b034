import { InvalidRequestError } from '../../domain/errors.js';

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const EMAIL_MAX_LENGTH = 254;

/** An email as users are keyed by it: trimmed and lower-case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isEmail(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && EMAIL_SHAPE.test(email);
}

/** The normalized email, or InvalidRequestError (field `email`). */
export function requireEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (!isEmail(normalized)) {
    throw new InvalidRequestError('Enter a valid email address.', {
      email: ['Enter an email address such as name@example.com.'],
    });
  }
  return normalized;
}
