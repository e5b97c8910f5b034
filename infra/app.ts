import { App } from 'aws-cdk-lib';
import { readServiceContext } from './context.js';
import { addNagChecks } from './nag-suppressions.js';
import { ServiceStack } from './stacks/service-stack.js';

const app = new App();
const context = readServiceContext(app.node);

// Env-agnostic on purpose: `cdk synth` works offline with no credentials; `cdk deploy` picks the
// account and region of the caller's profile.
const stack = new ServiceStack(app, `SocialPublishing-${context.stage}`, {
  ...context,
  description: `Social publishing API (${context.stage})`,
});
addNagChecks(app, stack);
