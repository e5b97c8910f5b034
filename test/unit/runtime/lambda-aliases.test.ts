import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { LAMBDA_ALIASES } from '../../../infra/constructs/lambda-bundling.js';
import { repoRoot } from '../../../infra/paths.js';
import { xWeightedLength } from '../../../shared/networks/x/rules.js';
import { isSameText } from '../../../shared/networks/x/text-match.js';

const scratch = mkdtempSync(join(tmpdir(), 'lambda-aliases-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Texts X weighs differently from their length: links, emoji (with modifiers and joiners), CJK, combining marks. */
const SAMPLES = [
  'Plain text of some length.',
  'Read https://example.com/a/very/long/path?with=query&and=more#fragment now',
  'bare domain example.co.uk and t.co/abc and not.a.tld.zzzz',
  '👩🏽‍💻 ships 🚀🚀 with 🇫🇷 and 1️⃣',
  '日本語のテキストと한국어',
  'cafe\u0301 and café',
  `${'a'.repeat(270)} https://x.com`,
];

describe('the Lambda bundles leave core-js out (LAMBDA_ALIASES), and X still counts as unbundled', () => {
  it('bundles X’s rules and text match with no core-js, and they answer as the unbundled ones do', async () => {
    const entry = join(scratch, 'entry.ts');
    writeFileSync(
      entry,
      [
        `export { xWeightedLength } from '${join(repoRoot, 'shared/networks/x/rules.ts')}';`,
        `export { isSameText } from '${join(repoRoot, 'shared/networks/x/text-match.ts')}';`,
      ].join('\n'),
    );
    const outfile = join(scratch, 'x-rules.mjs');
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      absWorkingDir: repoRoot,
      outfile,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      mainFields: ['module', 'main'],
      alias: { ...LAMBDA_ALIASES },
      banner: {
        js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
      },
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((path) => path.includes('twitter-text'))).toBe(true);
    expect(inputs.filter((path) => path.includes('node_modules/core-js/'))).toEqual([]);

    const bundled = (await import(pathToFileURL(outfile).href)) as {
      xWeightedLength: typeof xWeightedLength;
      isSameText: typeof isSameText;
    };
    for (const text of SAMPLES) {
      expect([text, bundled.xWeightedLength(text)]).toEqual([text, xWeightedLength(text)]);
      // X answers a post's text with its links shortened to t.co: the look-up matches it all the same.
      const answered = text.replace(/https:\/\/\S+/g, 'https://t.co/AbC123');
      expect([text, bundled.isSameText(answered, text)]).toEqual([text, isSameText(answered, text)]);
    }
  }, 60_000);
});
