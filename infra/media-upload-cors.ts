/**
 * The media bucket's one CORS rule, in AWS (infra/constructs/media-storage.ts) and on the local
 * host's s3rver (infra/local/s3-local.ts) alike: browsers PUT the bytes straight to a presigned
 * URL (docs/media.md, "Upload"; the dashboard's composer, docs/dashboard.md). The URL is signed for
 * Content-Type and Content-Length, so those are the headers a browser sends; ETag is the answer a
 * client may read. Origins are the deployment's (`corsOrigins`) plus the dashboard's own.
 */
export const MEDIA_UPLOAD_CORS = {
  allowedMethods: ['PUT'],
  allowedHeaders: ['Content-Type', 'Content-Length'],
  exposedHeaders: ['ETag'],
  maxAgeSeconds: 3600,
} as const;
