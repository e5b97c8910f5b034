const MB = 1024 * 1024;

/**
 * TikTok's FILE_UPLOAD rules (networks/tiktok.md §3): chunks of 5–64 MB, the last up to 128 MB
 * (it absorbs the remainder), 1–1000 chunks; a file under 5 MB is one chunk of its own size.
 * The connector sends 10 MB chunks: small enough that a chunk fits well within one invocation.
 */
export interface ChunkRules {
  minChunkBytes: number;
  maxChunkBytes: number;
  maxLastChunkBytes: number;
  maxChunks: number;
  /** The chunk size the connector picks when it may. */
  preferredChunkBytes: number;
}

export const TIKTOK_CHUNK_RULES: ChunkRules = {
  minChunkBytes: 5 * MB,
  maxChunkBytes: 64 * MB,
  maxLastChunkBytes: 128 * MB,
  maxChunks: 1000,
  preferredChunkBytes: 10 * MB,
};

/** Largest video TikTok takes (§6): 4 GB. Photos: 20 MB each, JPEG or WebP. */
export const TIKTOK_MAX_VIDEO_BYTES = 4 * 1024 * MB;
export const TIKTOK_MAX_PHOTO_BYTES = 20 * MB;
export const TIKTOK_PHOTO_TYPES: readonly string[] = ['image/jpeg', 'image/webp'];
export const TIKTOK_VIDEO_TYPES: readonly string[] = ['video/mp4', 'video/quicktime', 'video/webm'];

/** Per-token per-minute limits (§2–5). */
export const TIKTOK_PER_MINUTE = { creatorInfo: 20, init: 6, status: 30 } as const;

/** TikTok publishes no rate-limit headers; its limits are per minute (§9). */
export const TIKTOK_RATE_LIMIT_RETRY_SECONDS = 60;

/**
 * How long one invocation keeps uploading chunks before it hands over (`pending`, stage
 * `uploading`): well inside the worker's time-out, so no chunk is cut off by it.
 */
export const TIKTOK_UPLOAD_BUDGET_MS = 30_000;

/** When to ask again about a post TikTok is processing: it gives no hint; moderation is usually < 1 min. */
export const TIKTOK_CHECK_AFTER_SECONDS = 10;
/**
 * When to ask first for the id of a public post that completed before moderation named it:
 * moderation usually takes under a minute (then the worker's schedule grows, post-id-follow-up.ts).
 */
export const TIKTOK_POST_ID_CHECK_SECONDS = 60;
/** When the next invocation continues an upload that handed over. */
export const TIKTOK_CONTINUE_AFTER_SECONDS = 5;
/** How long a presigned photo URL stays valid: TikTok pulls the photos while it processes the post. */
export const TIKTOK_PHOTO_URL_SECONDS = 60 * 60;

export interface ChunkPlan {
  chunkSize: number;
  totalChunks: number;
}

/** chunk_size and total_chunk_count for a file, per the rules: the last chunk takes the remainder. */
export function planChunks(size: number, rules: ChunkRules = TIKTOK_CHUNK_RULES): ChunkPlan {
  if (size < rules.minChunkBytes) return { chunkSize: size, totalChunks: 1 };
  // A file smaller than the preferred chunk is one chunk of its own size (total = floor(size/chunk) ≥ 1).
  let chunkSize = Math.min(rules.preferredChunkBytes, rules.maxChunkBytes, size);
  if (Math.floor(size / chunkSize) > rules.maxChunks) chunkSize = Math.ceil(size / rules.maxChunks);
  const totalChunks = Math.max(1, Math.floor(size / chunkSize));
  return { chunkSize, totalChunks };
}

/** Bytes [start, end) of chunk `index`: every chunk is chunkSize, the last runs to the end. */
export function chunkRange(plan: ChunkPlan, size: number, index: number): { start: number; end: number } {
  const start = index * plan.chunkSize;
  const end = index === plan.totalChunks - 1 ? size : start + plan.chunkSize;
  return { start, end };
}
