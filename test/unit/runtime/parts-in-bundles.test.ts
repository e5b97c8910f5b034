import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { writeOperationEntry } from '../../../infra/operation-entries.js';
import { makeUnconfiguredVideoProbe } from '../../../shared/adapters/video-probe/unconfigured-video-probe.js';
import { ServiceUnavailableError } from '../../../shared/domain/errors.js';
import { operationById } from '../../../shared/operations/registry.js';

const scratch = mkdtempSync(join(tmpdir(), 'parts-in-bundles-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The packages an operation's bundle holds, as the stack's esbuild would bundle its generated entry. */
async function packagesBundledFor(operationId: string): Promise<Set<string>> {
  const entry = writeOperationEntry(operationById(operationId), scratch);
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    write: false,
    metafile: true,
    outfile: join(scratch, `${operationId}.mjs`),
    logLevel: 'silent',
    mainFields: ['module', 'main'],
  });
  const packages = Object.keys(result.metafile.inputs).flatMap((path) => {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    return match?.[1] ? [match[1]] : [];
  });
  return new Set(packages);
}

describe("a function carries the media probe's container readers only with the media storage part", () => {
  it('an operation without media storage bundles no mp4box', async () => {
    expect((await packagesBundledFor('listWorkspaces')).has('mp4box')).toBe(false);
  }, 60_000);

  it('an operation with media storage does (it probes confirmed videos)', async () => {
    expect((await packagesBundledFor('confirmMedia')).has('mp4box')).toBe(true);
  }, 60_000);

  it('the probe of a function without media storage answers 503, as that storage does', async () => {
    const probe = makeUnconfiguredVideoProbe();
    await expect(probe.stored('t/k', 'video/mp4', 10)).rejects.toBeInstanceOf(ServiceUnavailableError);
    await expect(probe.inMemory(new Uint8Array(4), 'video/mp4')).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
  });
});
