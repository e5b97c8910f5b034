import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StateFileError, writeJsonAtomicAsync } from '../../../infra/local/stand-ins/json-file.js';
import { type LocalScheduler, makeLocalScheduler } from '../../../infra/local/stand-ins/local-scheduler.js';
import { fixedClock } from '../../../shared/ports/clock.js';
import type { DeliveryMessage } from '../../../shared/ports/queues.js';
import { makeMemoryLogger } from '../../support/memory-observability.js';
import { eventually, pause } from './eventually.js';

const T0 = Date.parse('2030-01-01T12:00:00Z');
const message = (postId: string): DeliveryMessage => ({ tenantId: 'ten_1', workspaceId: 'wsp_1', postId });

describe('local EventBridge Scheduler', () => {
  let dataDir: string;
  let file: string;
  let clock: ReturnType<typeof fixedClock>;
  let delivered: DeliveryMessage[];
  let logger: ReturnType<typeof makeMemoryLogger>;
  const schedulers: LocalScheduler[] = [];

  /** A scheduler on the test's file; `deliver` records what it is given unless told to fail. */
  const makeScheduler = (deliver?: (m: DeliveryMessage) => Promise<void>) => {
    const scheduler = makeLocalScheduler({
      file,
      clock,
      maxSleepMs: 2,
      retryDelayMs: 1000,
      logger,
      deliver:
        deliver ??
        (async (m) => {
          delivered.push(m);
        }),
    });
    schedulers.push(scheduler);
    return scheduler;
  };
  const savedFile = () =>
    JSON.parse(readFileSync(file, 'utf8')) as { schedules: { postId: string; fireAt: string }[] };

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'smcp-scheduler-'));
    file = join(dataDir, 'scheduler', 'schedules.json');
    clock = fixedClock(T0);
    delivered = [];
    logger = makeMemoryLogger();
  });
  afterEach(async () => {
    for (const scheduler of schedulers.splice(0)) await scheduler.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('persists each schedule to its file, whole (no temporary file left behind)', async () => {
    // Prepare
    const scheduler = makeScheduler();

    // Act
    await scheduler.upsert('pst_1', new Date(T0 + 60_000), {
      ...message('pst_1'),
      extra: 'dropped',
    } as DeliveryMessage);

    // Assess
    expect(savedFile()).toEqual({
      version: 1,
      schedules: [
        { postId: 'pst_1', fireAt: new Date(T0 + 60_000).toISOString(), message: message('pst_1') },
      ],
    });
    expect(readdirSync(join(dataDir, 'scheduler'))).toEqual(['schedules.json']);
  });

  it('fires a schedule at its time, and deletes it after', async () => {
    // Prepare
    const scheduler = makeScheduler();
    await scheduler.start();
    await scheduler.upsert('pst_1', new Date(T0 + 60_000), message('pst_1'));

    // Act
    await pause(20);
    const beforeTime = [...delivered];
    clock.set(T0 + 60_000);

    // Assess
    expect(beforeTime).toEqual([]);
    await eventually(() => expect(delivered).toEqual([message('pst_1')]));
    await eventually(() => expect(savedFile().schedules).toEqual([]));
    expect(scheduler.list()).toEqual([]);
  });

  it('fires on time with the real clock', async () => {
    // Prepare
    const scheduler = makeLocalScheduler({
      file,
      deliver: async (m) => {
        delivered.push(m);
        firedAt = Date.now();
      },
    });
    schedulers.push(scheduler);
    let firedAt = 0;
    await scheduler.start();
    const fireAt = Date.now() + 30;

    // Act
    await scheduler.upsert('pst_1', new Date(fireAt), message('pst_1'));

    // Assess
    await eventually(() => expect(delivered).toEqual([message('pst_1')]));
    expect(firedAt).toBeGreaterThanOrEqual(fireAt);
  });

  it('fires, after a restart, a schedule made before it', async () => {
    // Prepare: made by one instance, which then stops (the host goes down).
    const before = makeScheduler();
    await before.start();
    await before.upsert('pst_1', new Date(T0 + 60_000), message('pst_1'));
    await before.stop();

    // Act: a new instance on the same file.
    const after = makeScheduler();
    await after.start();
    clock.set(T0 + 60_000);

    // Assess
    await eventually(() => expect(delivered).toEqual([message('pst_1')]));
  });

  it('fires at once a schedule whose time passed while the host was down', async () => {
    // Prepare
    const before = makeScheduler();
    await before.upsert('pst_late', new Date(T0 + 1000), message('pst_late'));
    await before.upsert('pst_later', new Date(T0 + 2000), message('pst_later'));
    clock.set(T0 + 3_600_000);

    // Act
    await makeScheduler().start();

    // Assess: both, earliest first.
    await eventually(() => expect(delivered).toEqual([message('pst_late'), message('pst_later')]));
  });

  it('remove() cancels a schedule', async () => {
    // Prepare
    const scheduler = makeScheduler();
    await scheduler.start();
    await scheduler.upsert('pst_1', new Date(T0 + 60_000), message('pst_1'));

    // Act
    await scheduler.remove('pst_1');
    await scheduler.remove('pst_none');
    clock.set(T0 + 120_000);
    await pause(20);

    // Assess
    expect(delivered).toEqual([]);
    expect(savedFile().schedules).toEqual([]);
  });

  it('upsert() moves a schedule: it fires once, at the new time', async () => {
    // Prepare
    const scheduler = makeScheduler();
    await scheduler.start();
    await scheduler.upsert('pst_1', new Date(T0 + 60_000), message('pst_1'));

    // Act
    await scheduler.upsert('pst_1', new Date(T0 + 120_000), message('pst_1'));
    clock.set(T0 + 60_000);
    await pause(20);
    const atOldTime = [...delivered];
    clock.set(T0 + 120_000);

    // Assess
    expect(atOldTime).toEqual([]);
    expect(savedFile().schedules).toEqual([
      { postId: 'pst_1', fireAt: new Date(T0 + 120_000).toISOString(), message: message('pst_1') },
    ]);
    await eventually(() => expect(delivered).toEqual([message('pst_1')]));
    await pause(20);
    expect(delivered).toHaveLength(1);
  });

  it('keeps a schedule whose delivery failed and tries it again a second later', async () => {
    // Prepare: the queue refuses the first send.
    let attempts = 0;
    const scheduler = makeScheduler(async (m) => {
      attempts += 1;
      if (attempts === 1) throw new Error('queue unavailable');
      delivered.push(m);
    });
    await scheduler.upsert('pst_1', new Date(T0), message('pst_1'));

    // Act
    await scheduler.start();
    await eventually(() => expect(attempts).toBe(1));
    await pause(20);
    const keptAfterFailure = savedFile().schedules.map((s) => s.postId);
    clock.advance(1000);

    // Assess
    expect(keptAfterFailure).toEqual(['pst_1']);
    expect(attempts).toBe(1);
    expect(logger.entries).toContainEqual({
      level: 'warn',
      message: 'local scheduler: delivering a schedule failed; retrying',
      fields: { postId: 'pst_1', error: expect.objectContaining({ message: 'queue unavailable' }) },
    });
    await eventually(() => expect(delivered).toEqual([message('pst_1')]));
    await eventually(() => expect(savedFile().schedules).toEqual([]));
  });

  it('writes a burst of schedules made at once in a few writes, each upsert resolved once its own is on disk', async () => {
    // Prepare: a writer that counts its writes.
    let writes = 0;
    const scheduler = makeLocalScheduler({
      file,
      clock,
      deliver: async () => undefined,
      writeFile: async (path, value) => {
        writes += 1;
        await writeJsonAtomicAsync(path, value);
      },
    });
    schedulers.push(scheduler);
    const ids = Array.from({ length: 50 }, (_, i) => `pst_${i}`);

    // Act
    await Promise.all(ids.map((id) => scheduler.upsert(id, new Date(T0 + 60_000), message(id))));

    // Assess: one write for all of them.
    expect(writes).toBe(1);
    expect(
      savedFile()
        .schedules.map((s) => s.postId)
        .sort(),
    ).toEqual([...ids].sort());
  });

  it('fires every due schedule at once: one whose delivery hangs holds up none of the others', async () => {
    // Prepare: the queue does not answer for pst_stuck until the test lets it.
    const answers: (() => void)[] = [];
    const stuck = new Promise<void>((resolve) => answers.push(resolve));
    const answerStuck = () => {
      for (const answer of answers) answer();
    };
    const scheduler = makeScheduler(async (m) => {
      if (m.postId === 'pst_stuck') await stuck;
      delivered.push(m);
    });
    await scheduler.upsert('pst_stuck', new Date(T0 + 1000), message('pst_stuck'));
    await scheduler.upsert('pst_1', new Date(T0 + 1000), message('pst_1'));
    await scheduler.upsert('pst_2', new Date(T0 + 2000), message('pst_2'));
    await scheduler.start();

    // Act
    clock.set(T0 + 1000);
    await eventually(() => expect(delivered).toEqual([message('pst_1')]));
    clock.set(T0 + 2000);

    // Assess: pst_2 fires while pst_stuck is still being delivered; pst_stuck fires once, later.
    await eventually(() => expect(delivered).toEqual([message('pst_1'), message('pst_2')]));
    answerStuck();
    await eventually(() => expect(delivered).toHaveLength(3));
    await pause(20);
    expect(delivered.filter((m) => m.postId === 'pst_stuck')).toHaveLength(1);
    await eventually(() => expect(savedFile().schedules).toEqual([]));
  });

  it('refuses to start on a file it did not write', async () => {
    // Prepare
    const corrupt = join(dataDir, 'corrupt.json');
    writeFileSync(corrupt, '{"version":1,"schedules":[{"postId":');
    const scheduler = makeLocalScheduler({ file: corrupt, deliver: async () => undefined });

    // Act / Assess
    await expect(scheduler.start()).rejects.toBeInstanceOf(StateFileError);
  });
});
