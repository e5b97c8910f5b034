import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { readServiceContext } from '../../infra/context.js';
import { buildStack, SynthesizedStack } from './stack-fixture.js';
import { SYNTH_TIMEOUT_MS } from './synth-timeout.js';

describe("a network's daily quota as an operator sets it (docs/deploy.md)", {
  timeout: SYNTH_TIMEOUT_MS,
}, () => {
  it("reaches every configured function under the context key's own name, both settings; none by default", () => {
    // Prepare: the context as `-c YOUTUBE_DAILY_QUOTA_UNITS=50000` gives it.
    const context = readServiceContext(new App({ context: { YOUTUBE_DAILY_QUOTA_UNITS: '50000' } }).node);

    // Act
    const byDefault = new SynthesizedStack(buildStack({ bundle: false }));
    const granted = new SynthesizedStack(buildStack({ bundle: false, props: context }));

    // Assess: on every function that loads the service configuration (the ones given MEDIA_BUCKET).
    const configured = (synthesized: SynthesizedStack) =>
      synthesized.stack.functions
        .map((fn) => synthesized.environmentOf(synthesized.functionOf(fn)))
        .filter((environment) => 'MEDIA_BUCKET' in environment);
    expect(configured(granted).length).toBeGreaterThan(10);
    for (const environment of configured(granted)) {
      expect(environment).toMatchObject({
        YOUTUBE_DAILY_QUOTA_UNITS: '50000',
        YOUTUBE_UPLOAD_COST_UNITS: '1600',
      });
    }
    expect(configured(byDefault).length).toBe(configured(granted).length);
    for (const environment of configured(byDefault)) {
      expect(environment).not.toHaveProperty('YOUTUBE_DAILY_QUOTA_UNITS');
      expect(environment).not.toHaveProperty('YOUTUBE_UPLOAD_COST_UNITS');
    }
  });
});
