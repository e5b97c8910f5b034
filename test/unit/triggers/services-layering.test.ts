import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SHARED = join(import.meta.dirname, '../../../shared');
const SERVICES = join(SHARED, 'services');
const ADAPTERS = join(SHARED, 'adapters');

/** Every module a file names: static imports and re-exports (types too) and dynamic import()s. */
function importsOf(file: string): string[] {
  return ts
    .preProcessFile(readFileSync(file, 'utf8'), true, true)
    .importedFiles.map((entry) => entry.fileName);
}

/** Why a use case may not name this module, or undefined when it may. */
function forbidden(file: string, specifier: string): string | undefined {
  if (specifier === 'aws-lambda') return 'a Lambda event type (decode it in shared/triggers/)';
  if (specifier.startsWith('@aws-sdk/')) return 'an AWS SDK module (use a port; the adapter holds the SDK)';
  if (specifier.startsWith('.')) {
    const target = resolve(dirname(file), specifier);
    if (target === ADAPTERS || target.startsWith(ADAPTERS + sep)) return 'an adapter (use its port)';
  }
  return undefined;
}

describe('the layers around the use cases', () => {
  it('no file under shared/services imports Lambda event types, the AWS SDK or an adapter', () => {
    // Prepare
    const files = readdirSync(SERVICES, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => join(SERVICES, file));

    // Act
    const offences = files.flatMap((file) =>
      importsOf(file).flatMap((specifier) => {
        const why = forbidden(file, specifier);
        return why ? [`${relative(SHARED, file)} imports '${specifier}': ${why}`] : [];
      }),
    );

    // Assess
    expect(files.length).toBeGreaterThan(50);
    expect(offences).toEqual([]);
  });

  it('tells each kind of forbidden import apart from what a use case may import', () => {
    const file = join(SERVICES, 'delivery', 'outbox.ts');
    expect(forbidden(file, 'aws-lambda')).toBeDefined();
    expect(forbidden(file, '@aws-sdk/util-dynamodb')).toBeDefined();
    expect(forbidden(file, '../../adapters/dynamodb/keys.js')).toBeDefined();
    expect(forbidden(file, '../../ports/queues.js')).toBeUndefined();
    expect(forbidden(file, '../../domain/events.js')).toBeUndefined();
    expect(forbidden(file, './outbox-entities.js')).toBeUndefined();
  });
});
