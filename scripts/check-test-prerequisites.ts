import { accessSync, constants } from 'node:fs';
import { assertJava, JavaMissingError } from '../infra/local/java.js';
import { CHROMIUM_PATH } from '../test/browser/support/browser.js';

/**
 * The first step of `npm test`: says at once, with the command that installs it, what the suite
 * needs beyond Node and npm, instead of leaving a newcomer with failing tests and no hint.
 * - Java 17+: DynamoDB Local, which the tests start.
 * - Chromium: the dashboard's browser tests (test/browser/) drive it through playwright-core,
 *   which never downloads a browser of its own. CHROMIUM_PATH names another binary.
 */
const problems: string[] = [];
try {
  assertJava();
} catch (error) {
  if (!(error instanceof JavaMissingError)) throw error;
  problems.push(error.message);
}
try {
  accessSync(CHROMIUM_PATH, constants.X_OK);
} catch {
  problems.push(
    `The dashboard's browser tests need Chromium at ${CHROMIUM_PATH} (or set CHROMIUM_PATH to one). ` +
      'Install it, for example `sudo apt-get install chromium` on Debian/Ubuntu, then run npm test again.',
  );
}
if (problems.length > 0) {
  console.error(`npm test cannot run yet:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
