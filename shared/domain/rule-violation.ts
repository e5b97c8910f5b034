/** One platform-rule violation: an item of 422 VALIDATION_FAILED `errors[]` (docs/api-decisions.md). */
export interface RuleViolation {
  /** Where, as a field path: `content`, `content[1].text`, `media[0]`, `postType`, `accountId`. */
  field: string;
  /** Stable code: TEXT_TOO_LONG, TOO_MANY_MEDIA, MEDIA_KIND_NOT_ALLOWED, POST_TYPE_NOT_ALLOWED, ... */
  code: string;
  message: string;
  /** The limit broken, where one applies. */
  limit?: number;
}
