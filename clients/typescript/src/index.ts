export { type ClientOptions, createClient, type SocialPublishingClient } from './client.js';
export type { ApiClient } from './context.js';
export {
  ApiError,
  NetworkError,
  retryAfterSeconds,
  UnexpectedResponseError,
  WaitTimeoutError,
} from './errors.js';
export type { UploadInput } from './media.js';
export { type Page, type PageFetcher, type PageResult, paginate, paginatePages } from './paginate.js';
export {
  type CreateOptions,
  type SchedulePostBody,
  SETTLED_STATUSES,
  type WaitOptions,
} from './posts.js';
export { backoffDelayMs, DEFAULT_RETRY_POLICY, type RetryPolicy, type Timing } from './retry.js';
export type {
  CreatedPost,
  CreatePostBody,
  components,
  ErrorCode,
  ErrorCodeOf,
  ErrorEnvelope,
  Media,
  operations,
  Post,
  PostStatus,
  paths,
  RuleViolation,
  UploadUrl,
} from './types.js';
