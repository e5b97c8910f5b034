import { requireEnv } from './config.js';

/**
 * What the Lambda bundles use in place of `@aws-sdk/credential-provider-node` (esbuild's alias, in
 * infra/constructs/service-function.ts): Lambda always hands a function its role's credentials in
 * AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN, so the SDK's default chain never
 * gets past its first link there, and its other links (SSO, profiles, web identity, IMDS, with the
 * STS and SSO clients they bring) were 133 KB of every bundle. Same exports as the package.
 * Never used by the local host or the tests, which run the sources with the SDK's own chain.
 */

export interface EnvCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}

/** The SDK calls this once per client and memoizes what it answers (credentials without expiry). */
export const defaultProvider = (_init?: unknown) => async (): Promise<EnvCredentials> => {
  const sessionToken = process.env.AWS_SESSION_TOKEN;
  return {
    accessKeyId: requireEnv('AWS_ACCESS_KEY_ID'),
    secretAccessKey: requireEnv('AWS_SECRET_ACCESS_KEY'),
    ...(sessionToken && { sessionToken }),
  };
};

export const credentialsWillNeedRefresh = (credentials?: EnvCredentials): boolean =>
  credentials?.expiration !== undefined;

/** As the package: credentials that expire within five minutes count as expired. */
export const credentialsTreatedAsExpired = (credentials?: EnvCredentials): boolean =>
  credentials?.expiration !== undefined && credentials.expiration.getTime() - Date.now() < 300_000;
