import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'clients/*/test/**/*.test.ts'],
    // test/localstack/ needs a running LocalStack: `npm run test:localstack` (vitest.localstack.config.ts);
    // test/emulator/ needs moto's server (Python): `npm run test:emulator` (vitest.emulator.config.ts).
    exclude: [...configDefaults.exclude, 'test/localstack/**', 'test/emulator/**'],
    // One DynamoDB Local for the whole run; each test file makes its own tables (a random prefix).
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: keep Java, the tests and any child hosts from starving each other.
    maxWorkers: 2,
    // After vitest's own summary, one plain `Tests: N passed, N failed` line closes the log.
    reporters: ['default', './test/support/closing-line-reporter.ts'],
    // CI runs Node 20; the SDK's notice that future releases need Node 22 is known and only noise here.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
