import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_API_THROTTLE } from '../../infra/constructs/http-api.js';
import { readServiceContext } from '../../infra/context.js';
import { buildStack, SynthesizedStack } from './stack-fixture.js';
import { SYNTH_TIMEOUT_MS } from './synth-timeout.js';

/** The stage's default route settings, as synthesized. */
function stageRouteSettings(synthesized: SynthesizedStack) {
  const stages = synthesized.ofType('AWS::ApiGatewayV2::Stage');
  expect(stages).toHaveLength(1);
  return stages[0]?.[1].Properties.DefaultRouteSettings;
}

describe('API Gateway throttling (every route of the stage, before any function runs)', {
  timeout: SYNTH_TIMEOUT_MS,
}, () => {
  it('throttles the stage by default: 500 requests a second, bursts of 1000', () => {
    const synthesized = new SynthesizedStack(buildStack({ bundle: false }));
    expect(DEFAULT_API_THROTTLE).toEqual({ rateLimit: 500, burstLimit: 1000 });
    expect(stageRouteSettings(synthesized)).toEqual({ ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 });
  });

  it('takes its figures from the CDK context, as infra/app.ts passes them', () => {
    // Prepare: the context as `-c apiThrottleRateLimit=… -c apiThrottleBurstLimit=…` gives it.
    const context = readServiceContext(
      new App({ context: { apiThrottleRateLimit: '120', apiThrottleBurstLimit: '240' } }).node,
    );

    // Act
    const synthesized = new SynthesizedStack(buildStack({ bundle: false, props: context }));

    // Assess
    expect(stageRouteSettings(synthesized)).toEqual({ ThrottlingRateLimit: 120, ThrottlingBurstLimit: 240 });
  });
});
