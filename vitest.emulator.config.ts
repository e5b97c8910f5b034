import { defineConfig } from 'vitest/config';

/**
 * `npm run test:emulator`: the AWS adapters of shared/adapters/ and the synthesized stack against
 * an AWS emulator: moto's server, started by the global setup on loopback (Python 3.11+ with
 * `python3 -m pip install -r requirements-ci.txt`), or the emulator at AWS_ENDPOINT_URL when set
 * (LocalStack, for one). The default `npm test` (vitest.config.ts) leaves test/emulator/ out.
 */
export default defineConfig({
  test: {
    include: ['test/emulator/**/*.test.ts'],
    globalSetup: ['test/emulator/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // One emulator process for every file, on two cores shared with the synth of the deploy test.
    maxWorkers: 2,
    // After vitest's own summary, one plain `Tests: N passed, N failed` line closes the log.
    reporters: ['default', './test/support/closing-line-reporter.ts'],
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
