import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { readServiceContext } from '../../infra/context.js';
import { buildStack, SynthesizedStack } from './stack-fixture.js';
import { SYNTH_TIMEOUT_MS } from './synth-timeout.js';

describe('the log level (configuration, not code)', { timeout: SYNTH_TIMEOUT_MS }, () => {
  it('is INFO on every function by default, and what the `logLevel` context says otherwise', () => {
    // Prepare: the context as `-c logLevel=debug` gives it.
    const context = readServiceContext(new App({ context: { logLevel: 'debug' } }).node);

    // Act
    const byDefault = new SynthesizedStack(buildStack({ bundle: false }));
    const debugging = new SynthesizedStack(buildStack({ bundle: false, props: context }));

    // Assess
    for (const [synthesized, level] of [
      [byDefault, 'INFO'],
      [debugging, 'DEBUG'],
    ] as const) {
      const levels = synthesized.stack.functions.map(
        (fn) => synthesized.environmentOf(synthesized.functionOf(fn)).POWERTOOLS_LOG_LEVEL,
      );
      expect(levels.length).toBeGreaterThan(10);
      expect(new Set(levels)).toEqual(new Set([level]));
    }
  });
});
