import { spawnSync } from 'node:child_process';

export const MIN_JAVA_MAJOR = 17;

export class JavaMissingError extends Error {
  constructor(detail: string) {
    super(
      `DynamoDB Local needs Java ${MIN_JAVA_MAJOR} or newer on the PATH (${detail}). ` +
        'Install it, for example `sudo apt-get install openjdk-17-jre-headless` on Debian/Ubuntu or ' +
        '`brew install openjdk@17` on macOS, then try again.',
    );
    this.name = 'JavaMissingError';
  }
}

/** `openjdk version "17.0.15"` → 17; `java version "1.8.0_392"` → 8. */
export function parseJavaMajor(versionOutput: string): number | undefined {
  const match = /version "(\d+)(?:\.(\d+))?/.exec(versionOutput);
  if (!match?.[1]) return undefined;
  const first = Number(match[1]);
  return first === 1 && match[2] ? Number(match[2]) : first;
}

/** Fails fast, with a message that says what to install, when Java is missing or too old. */
export function assertJava(javaCommand = 'java'): void {
  const result = spawnSync(javaCommand, ['-version'], { encoding: 'utf8' });
  if (result.error) throw new JavaMissingError('no `java` command was found');
  const major = parseJavaMajor(`${result.stderr}${result.stdout}`);
  if (major === undefined) throw new JavaMissingError('`java -version` printed no version');
  if (major < MIN_JAVA_MAJOR) throw new JavaMissingError(`found Java ${major}`);
}
