import { defineConfig } from 'vitest/config';

/**
 * `npm run test:localstack`: the AWS adapters (DynamoDB, SQS, S3, Scheduler) against a running
 * LocalStack at LOCALSTACK_ENDPOINT (default http://localhost:4566). Run it through the npm
 * script: scripts/test-localstack.ts skips the suite, and says so, when no LocalStack answers.
 * The default `npm test` (vitest.config.ts) leaves test/localstack/ out.
 */
export default defineConfig({
  test: {
    include: ['test/localstack/**/*.test.ts'],
    globalSetup: ['test/localstack/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One LocalStack for every file: files run one after another, so its single process is not swamped.
    fileParallelism: false,
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
