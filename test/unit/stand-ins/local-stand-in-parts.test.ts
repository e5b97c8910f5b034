import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SQSRecord } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  readJsonFile,
  StateFileError,
  writeJsonAtomic,
  writeJsonAtomicAsync,
} from '../../../infra/local/stand-ins/json-file.js';
import { failedMessageIds, makeLocalQueue } from '../../../infra/local/stand-ins/local-queue.js';
import { thrownBy } from '../support/thrown.js';

describe('failedMessageIds (SQS partial batch response)', () => {
  const batch = ['m1', 'm2', 'm3'].map((messageId) => ({ messageId }) as SQSRecord);

  it('keeps nothing when the handler answers nothing or no failures', () => {
    expect(failedMessageIds(undefined, batch)).toEqual(new Set());
    expect(failedMessageIds({ batchItemFailures: [] }, batch)).toEqual(new Set());
  });

  it('keeps exactly the records named', () => {
    expect(failedMessageIds({ batchItemFailures: [{ itemIdentifier: 'm2' }] }, batch)).toEqual(
      new Set(['m2']),
    );
  });

  it('keeps the whole batch for an identifier that names no record of it', () => {
    expect(failedMessageIds({ batchItemFailures: [{ itemIdentifier: 'other' }] }, batch)).toEqual(
      new Set(['m1', 'm2', 'm3']),
    );
    expect(failedMessageIds({ batchItemFailures: [{ itemIdentifier: '' }] }, batch)).toEqual(
      new Set(['m1', 'm2', 'm3']),
    );
  });
});

describe('makeLocalQueue options', () => {
  it('refuses settings SQS and Lambda would refuse', () => {
    expect(
      thrownBy(() => makeLocalQueue({ name: 'q', visibilityTimeoutMs: 10, maxReceiveCount: 0 })),
    ).toBeInstanceOf(RangeError);
    const queue = makeLocalQueue({ name: 'q', visibilityTimeoutMs: 10, maxReceiveCount: 1 });
    expect(thrownBy(() => queue.start(async () => undefined, { batchSize: 0 }))).toBeInstanceOf(RangeError);
  });
});

describe('state files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'smcp-json-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('replaces the whole file and leaves no temporary file behind', () => {
    // Prepare
    const path = join(dir, 'nested', 'state.json');
    writeJsonAtomic(path, { n: 1 });

    // Act
    writeJsonAtomic(path, { n: 2 });

    // Assess
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ n: 2 });
    expect(readdirSync(join(dir, 'nested'))).toEqual(['state.json']);
  });

  it('writes asynchronously too, making a missing folder (again, when it was removed meanwhile)', async () => {
    // Prepare
    const path = join(dir, 'deep', 'er', 'checkpoint.json');
    await writeJsonAtomicAsync(path, { n: 1 });
    rmSync(join(dir, 'deep'), { recursive: true });

    // Act
    await writeJsonAtomicAsync(path, { n: 2 });
    await writeJsonAtomicAsync(path, { n: 3 });

    // Assess
    expect(readJsonFile(path)).toEqual({ n: 3 });
    expect(readdirSync(join(dir, 'deep', 'er'))).toEqual(['checkpoint.json']);
  });

  it('reads no file as undefined', () => {
    expect(readJsonFile(join(dir, 'none.json'))).toBeUndefined();
  });

  it('names the file that is not JSON', () => {
    // Prepare
    const path = join(dir, 'broken.json');
    writeFileSync(path, '{"half":');

    // Act
    const error = thrownBy(() => readJsonFile(path));

    // Assess
    expect(error).toBeInstanceOf(StateFileError);
    expect((error as StateFileError).path).toBe(path);
  });
});
