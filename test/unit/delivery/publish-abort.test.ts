import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../../shared/ports/clock.js';
import type { Connector, PublishRequest } from '../../../shared/ports/connector.js';
import { silentLogger } from '../../../shared/ports/logger.js';
import type { Lease } from '../../../shared/services/delivery/claim.js';
import { makePublish } from '../../../shared/services/delivery/publish.js';
import { anAccount } from '../support/builders.js';
import { InMemoryMediaBytes } from '../support/in-memory-media-bytes.js';
import { InMemoryObjectStorage } from '../support/in-memory-object-storage.js';
import { aPost } from './support.js';

function aLease(): Lease {
  return {
    post: aPost(),
    lost: new AbortController().signal,
    attempt: 1,
    claimedFrom: 'queued',
    settle: async () => true,
    end: async () => undefined,
  };
}

/** A connector that, once its signal aborts, answers `unknown` with what it had sent (or never answers). */
function abortAware(answersOnAbort: boolean): Connector {
  return {
    publish: (request: PublishRequest) =>
      new Promise((resolve) => {
        if (!answersOnAbort) return;
        request.signal.addEventListener('abort', () =>
          resolve({
            kind: 'unknown',
            code: 'PLATFORM_TIMEOUT',
            message: 'No answer.',
            progress: { sentAt: '2026-11-23T10:00:00.000Z' },
          }),
        );
      }),
  };
}

describe('publish, when the worker stops waiting', () => {
  it("keeps the connector's own answer, with its progress, when it comes right after the abort", async () => {
    const publish = makePublish({
      connectorFor: () => abortAware(true),
      bytes: new InMemoryMediaBytes(new InMemoryObjectStorage(fixedClock(0))),
      connectorTimeoutMs: 20,
    });
    const verdict = await publish(aLease(), { account: anAccount() }, { items: [] }, silentLogger);
    expect(verdict).toMatchObject({ kind: 'unknown', code: 'PLATFORM_TIMEOUT' });
    expect(JSON.parse((verdict as { progress?: string }).progress ?? '{}')).toEqual({
      sentAt: '2026-11-23T10:00:00.000Z',
    });
  });

  it('gives up on a connector that ignores its signal: unknown, without progress', async () => {
    const publish = makePublish({
      connectorFor: () => abortAware(false),
      bytes: new InMemoryMediaBytes(new InMemoryObjectStorage(fixedClock(0))),
      connectorTimeoutMs: 20,
    });
    const verdict = await publish(aLease(), { account: anAccount() }, { items: [] }, silentLogger);
    expect(verdict).toMatchObject({ kind: 'unknown', code: 'PLATFORM_TIMEOUT' });
    expect(verdict).not.toHaveProperty('progress');
  });
});
