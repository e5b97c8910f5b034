/** Where the service runs and serves from: the part of the configuration (ServiceConfig) that needs no network's definition. */
export interface BaseConfig {
  region: string;
  /** The media bucket; absent on a deployment without one (media calls then answer 503). */
  mediaBucket?: string;
  /** s3rver's address on the local host and in tests; absent in AWS. */
  s3Endpoint?: string;
  /**
   * The service's public base URL (`https://api.example.com`, no trailing slash): the OAuth
   * callback is `${publicBaseUrl}/v1/oauth/{platform}/callback`. Absent: connecting accounts
   * answers 503 service_unavailable.
   */
  publicBaseUrl?: string;
}

/**
 * The region, the media bucket and its endpoint, and the public base URL, from the environment. A
 * module of its own, imported by loadConfig: the dashboard's cold start reads these without
 * loadConfig, whose network endpoints bring every network's definition (and zod) with them.
 */
export function baseConfigFromEnv(env: NodeJS.ProcessEnv = process.env): BaseConfig {
  return {
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    ...(env.MEDIA_BUCKET && { mediaBucket: env.MEDIA_BUCKET }),
    ...(env.S3_ENDPOINT && { s3Endpoint: env.S3_ENDPOINT }),
    ...(env.PUBLIC_BASE_URL && { publicBaseUrl: env.PUBLIC_BASE_URL.replace(/\/+$/, '') }),
  };
}
