import type { ServiceConfig } from './config.js';

/**
 * The origin a presigned upload URL points at, which a browser PUTs to: the dashboard's
 * Content-Security-Policy allows `connect-src` to it and nothing else outside the dashboard.
 * - s3rver (the local host, tests): its own address, as the client there is path-style;
 * - AWS: the bucket's virtual-hosted regional endpoint, which the SDK's presigner uses for a
 *   bucket name without dots (CDK's generated names have none); China's partition ends in `.cn`.
 * Undefined without a bucket: uploads answer 503 there, so nothing needs allowing.
 */
export function mediaStorageOrigin(
  config: Pick<ServiceConfig, 'region' | 'mediaBucket' | 's3Endpoint'>,
): string | undefined {
  if (config.s3Endpoint) return new URL(config.s3Endpoint).origin;
  if (!config.mediaBucket) return undefined;
  const suffix = config.region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
  return `https://${config.mediaBucket}.s3.${config.region}.${suffix}`;
}
