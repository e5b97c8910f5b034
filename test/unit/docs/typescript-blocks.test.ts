import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { codeBlocks, typescriptPrelude } from '../../support/markdown-code-blocks.js';

/**
 * Every ```ts block of docs/ and of the client's README compiles under the repository's strict
 * options, as a reader would paste it: each block is its own module, importing the client as
 * `@social-publishing/client` (mapped to clients/typescript/src). A page may declare what its
 * blocks assume in a hidden `<!-- ts-prelude … -->` comment; a block marked `continued` is checked
 * after the previous block of its page (a program the page builds in steps); a block marked
 * `fragment: <why>` is not checked, and is listed below.
 */
const root = join(import.meta.dirname, '..', '..', '..');
const pages = [
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  'clients/typescript/README.md',
];

interface Snippet {
  page: string;
  /** The doc line each line of `source` comes from (undefined for the prelude's lines). */
  lineOf: (number | undefined)[];
  source: string;
}

const snippets: Snippet[] = [];
const fragments: string[] = [];
/** Every block checked, as `page:line`. */
const checked: string[] = [];
for (const page of pages) {
  const markdown = readFileSync(join(root, page), 'utf8');
  const prelude = typescriptPrelude(markdown);
  let previous: Snippet | undefined;
  for (const block of codeBlocks(markdown)) {
    if (block.language !== 'ts' && block.language !== 'typescript') continue;
    if (block.attributes.startsWith('fragment')) {
      fragments.push(`${page}:${block.firstLine} (${block.attributes.replace(/^fragment:?\s*/, '')})`);
      continue;
    }
    checked.push(`${page}:${block.firstLine}`);
    const blockLines = block.code.split('\n').map((_, offset) => block.firstLine + offset);
    const base: Snippet =
      block.attributes === 'continued' && previous
        ? previous
        : { page, lineOf: prelude.split('\n').map(() => undefined), source: prelude };
    const snippet: Snippet = {
      page,
      lineOf: [...base.lineOf, ...blockLines],
      source: `${base.source}\n${block.code}`,
    };
    // A continued block replaces its base: the whole program is checked once, at its last step.
    if (base === previous) snippets.splice(snippets.indexOf(previous), 1);
    snippets.push(snippet);
    previous = snippet;
  }
}

const folder = mkdtempSync(join(tmpdir(), 'docs-ts-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function typeCheck(): string[] {
  const repository = ts.readConfigFile(join(root, 'tsconfig.json'), (path) => ts.sys.readFile(path));
  const files = snippets.map((snippet, index) => {
    const file = join(folder, `block-${index}.ts`);
    writeFileSync(file, snippet.source);
    return file;
  });
  writeFileSync(
    join(folder, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        ...repository.config.compilerOptions,
        strict: true,
        noEmit: true,
        // Each block is a module of its own, even one with no import.
        moduleDetection: 'force',
        typeRoots: [join(root, 'node_modules', '@types')],
        paths: { '@social-publishing/client': [join(root, 'clients/typescript/src/index.ts')] },
      },
      files,
    }),
  );
  const config = ts.getParsedCommandLineOfConfigFile(
    join(folder, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('The generated tsconfig.json could not be read.');
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const index = diagnostic.file ? files.indexOf(diagnostic.file.fileName) : -1;
    const snippet = snippets[index];
    if (!diagnostic.file || !snippet) return `${diagnostic.file?.fileName ?? 'tsconfig'}: ${message}`;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    const docLine = snippet.lineOf[line];
    return `${snippet.page}:${docLine ?? `prelude line ${line + 1}`}: ${message}`;
  });
}

describe('TypeScript in the docs', () => {
  it('shows clients/typescript/examples/first-post.ts whole on the ten-minutes page (steps 2 and 3)', () => {
    const page = readFileSync(join(root, 'docs/client-first-ten-minutes.md'), 'utf8');
    const shown = codeBlocks(page)
      .filter((block) => block.language === 'ts')
      .map((block) => block.code.replace("'@social-publishing/client'", "'../src/index.js'"));
    const program = readFileSync(join(root, 'clients/typescript/examples/first-post.ts'), 'utf8')
      .replace(/^\/\*\*[\s\S]*?\*\/\n/, '')
      .replace('// Step 3: an error. ', '// ');
    expect(`${shown.join('\n\n')}\n`).toBe(program);
  });

  it('finds the blocks of the client README and the ten-minutes page', () => {
    const onPage = (page: string) => checked.filter((block) => block.startsWith(`${page}:`)).length;
    expect(onPage('clients/typescript/README.md')).toBeGreaterThanOrEqual(8);
    expect(onPage('docs/client-first-ten-minutes.md')).toBe(2);
  });

  it(`compiles every block under --strict (${fragments.length} fragment(s) not checked: ${fragments.join('; ') || 'none'})`, () => {
    expect(fragments.length).toBeLessThanOrEqual(2);
    expect(typeCheck()).toEqual([]);
  }, 120_000);
});
