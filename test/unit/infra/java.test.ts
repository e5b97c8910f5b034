import { describe, expect, it } from 'vitest';
import { assertJava, JavaMissingError, parseJavaMajor } from '../../../infra/local/java.js';

describe('parseJavaMajor', () => {
  it.each([
    [
      'openjdk version "17.0.15" 2025-04-15\nOpenJDK Runtime Environment (build 17.0.15+6-Debian-1deb12u1)\nOpenJDK 64-Bit Server VM (build 17.0.15+6-Debian-1deb12u1, mixed mode, sharing)',
      17,
    ],
    ['openjdk version "21.0.2" 2024-01-16 LTS', 21],
    ['openjdk version "21" 2023-09-19', 21],
    ['openjdk version "22-ea" 2024-03-19', 22],
    ['java version "1.8.0_392"\nJava(TM) SE Runtime Environment (build 1.8.0_392-b08)', 8],
    ['openjdk version "1.8.0_402"', 8],
    ['java version "11.0.22" 2024-01-16 LTS', 11],
  ])('reads the major version of %j as %i', (output, major) => {
    expect(parseJavaMajor(output)).toBe(major);
  });

  it.each([
    '',
    'command not found: java',
    'openjdk 17.0.15',
    'version 17',
    'java version ""',
    'java version "abc"',
  ])('answers undefined for %j', (output) => {
    expect(parseJavaMajor(output)).toBeUndefined();
  });
});

describe('assertJava', () => {
  it('says which Java to install when no java command exists', () => {
    // Act
    const attempt = () => assertJava('definitely-not-a-java-binary');

    // Assess
    expect(attempt).toThrow(JavaMissingError);
    expect(attempt).toThrow(/Java 17 or newer.*no `java` command was found.*openjdk-17/);
  });

  it('passes on this machine, which runs DynamoDB Local for the suite', () => {
    expect(() => assertJava()).not.toThrow();
  });
});
