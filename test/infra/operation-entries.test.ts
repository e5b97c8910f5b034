import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  operationEntrySource,
  operationModules,
  writeOperationEntry,
} from '../../infra/operation-entries.js';
import { operationById, operations } from '../../shared/operations/registry.js';

describe('operation entries (one bundle per operation, generated from the registry)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'operation-entries-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the module that exports each operation of the registry, all but the OpenAPI document’s', async () => {
    // Act
    const modules = operationModules();

    // Assess
    expect([...modules.keys()].sort()).toEqual(
      operations
        .map((operation) => operation.id)
        .filter((id) => id !== 'getOpenApi')
        .sort(),
    );
    for (const [id, { file, exportName }] of modules) {
      const exports = (await import(`../../${file}`)) as Record<string, { id?: string }>;
      expect(exports[exportName]?.id, id).toBe(id);
    }
  });

  it('imports only its own operation and the parts its resources need', () => {
    // Act
    const getPost = operationEntrySource(operationById('getPost'), dir);
    const upload = operationEntrySource(operationById('createUploadUrl'), dir);
    const disconnect = operationEntrySource(operationById('disconnectAccount'), dir);

    // Assess
    expect(getPost).toMatch(
      /import \{ getPost as operation \} from '[^']*shared\/operations\/posts\/get-post\.js';/,
    );
    expect(getPost).not.toMatch(/registry|make-deps\.js|-part\.js/);
    expect(getPost).toContain('makeDepsFromEnv([])');
    expect(upload).toContain('makeDepsFromEnv([s3StoragePart])');
    expect(disconnect).toContain('makeDepsFromEnv([networkAppsPart, kmsSecretsPart])');
  });

  it('gives the OpenAPI document’s operation the registry, which it documents', () => {
    expect(operationEntrySource(operationById('getOpenApi'), dir)).toContain(`operationById("getOpenApi")`);
  });

  it('writes the entry where it says, and leaves an unchanged one alone', () => {
    // Act
    const file = writeOperationEntry(operationById('getPost'), dir);
    const again = writeOperationEntry(operationById('getPost'), dir);

    // Assess
    expect(again).toBe(file);
    expect(readFileSync(file, 'utf8')).toBe(operationEntrySource(operationById('getPost'), dir));
  });
});
