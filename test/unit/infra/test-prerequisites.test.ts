import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '..', '..', '..');

/** `npm test`'s first step, run as npm runs it. */
function check(env: Record<string, string>) {
  return spawnSync('npx', ['tsx', 'scripts/check-test-prerequisites.ts'], {
    cwd: REPO,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
}

describe('the test prerequisites check', () => {
  it('stops npm test at once when Chromium is missing, naming the command that installs it', () => {
    // Act
    const result = check({ CHROMIUM_PATH: '/nonexistent/chromium' });

    // Assess
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Chromium at /nonexistent/chromium');
    expect(result.stderr).toContain('sudo apt-get install chromium');
  });

  it('lets npm test go on when Java and Chromium are there', () => {
    // Act: this machine runs the browser tests, so it has both.
    const result = check({});

    // Assess
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
