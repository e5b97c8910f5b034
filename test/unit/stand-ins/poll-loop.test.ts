import { describe, expect, it, vi } from 'vitest';
import { makePollLoop } from '../../../infra/local/stand-ins/poll-loop.js';

/** A step the test finishes by hand: resolves true or throws when told. */
function controlledStep() {
  let finish: ((outcome: 'ok' | 'fail') => void) | undefined;
  let calls = 0;
  const step = () => {
    calls += 1;
    return new Promise<boolean>((resolve, reject) => {
      finish = (outcome) => (outcome === 'ok' ? resolve(false) : reject(new Error('connect ECONNREFUSED')));
    });
  };
  return {
    step,
    finish: (outcome: 'ok' | 'fail') => finish?.(outcome),
    calls: () => calls,
  };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the stand-ins poll loop', () => {
  it('reports a step that fails while running, and goes on', async () => {
    const control = controlledStep();
    const errors: unknown[] = [];
    const loop = makePollLoop({ step: control.step, idleDelayMs: () => 0, onError: (e) => errors.push(e) });
    loop.start();
    await tick();
    control.finish('fail');
    await vi.waitFor(() => expect(control.calls()).toBe(2));
    expect(errors).toHaveLength(1);
    const stopped = loop.stop();
    control.finish('ok');
    await stopped;
  });

  it('does not report a step that fails once stop() was asked (its storage is going away too)', async () => {
    const control = controlledStep();
    const errors: unknown[] = [];
    const loop = makePollLoop({ step: control.step, idleDelayMs: () => 0, onError: (e) => errors.push(e) });
    loop.start();
    await tick();
    const stopped = loop.stop();
    control.finish('fail');
    await stopped;
    expect(errors).toEqual([]);
    expect(loop.running).toBe(false);
  });
});
