import { App } from 'aws-cdk-lib';
import { addNagChecks } from './nag-suppressions.js';
import { ServiceStack } from './stacks/service-stack.js';

const app = new App();
const stage = String(app.node.tryGetContext('stage') ?? 'dev');
if (!/^[a-z][a-z0-9-]{0,31}$/.test(stage)) {
  throw new Error(`Context "stage" must be lower-case letters, digits and dashes, got "${stage}".`);
}

// Env-agnostic on purpose: `cdk synth` works offline with no credentials; `cdk deploy` picks the
// account and region of the caller's profile.
const stack = new ServiceStack(app, `SocialPublishing-${stage}`, {
  stage,
  description: `Social publishing API (${stage})`,
});
addNagChecks(app, stack);
