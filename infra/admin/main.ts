import { runAdmin } from './run.js';

// Developer tools run on Node 20 too; the SDK's notice that future SDK releases need Node 22 is
// noise here (the lockfile pins the SDK, and Lambda runs Node 22).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** `npm run admin -- <command>`: all the work is in runAdmin, which the tests call in-process. */
process.exitCode = await runAdmin(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
