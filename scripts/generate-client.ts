/**
 * `npm run client:generate`: writes the typed client's inputs from the registry, the one source of
 * the API's shape: clients/typescript/openapi.json (the document, as GET /v1/openapi.json serves it)
 * and clients/typescript/src/openapi.d.ts (openapi-typescript's types of it).
 * `npm run client:check` (`--check`): generates both in memory and exits 1 when either committed
 * file differs, so a document change that was not regenerated fails `npm test`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { buildOpenApiDocument } from '../shared/http/openapi.js';
import { operations } from '../shared/operations/registry.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const documentPath = fileURLToPath(new URL('../clients/typescript/openapi.json', import.meta.url));
const typesPath = fileURLToPath(new URL('../clients/typescript/src/openapi.d.ts', import.meta.url));

interface GeneratedFile {
  path: string;
  text: string;
}

async function generate(): Promise<GeneratedFile[]> {
  const document = buildOpenApiDocument(operations);
  const documentText = `${JSON.stringify(document, null, 2)}\n`;
  // The types are made from the text just written, so they describe exactly the committed snapshot.
  const ast = await openapiTS(JSON.parse(documentText) as OpenAPI3, {
    silent: true,
    // Enums as string unions: switches over `error` codes are exhaustive without a runtime enum.
    enum: false,
  });
  return [
    { path: documentPath, text: documentText },
    { path: typesPath, text: `${COMMENT_HEADER}${astToString(ast)}` },
  ];
}

function committedText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const files = await generate();
  if (argv.includes('--check')) {
    const stale = files.filter((file) => committedText(file.path) !== file.text);
    if (stale.length === 0) {
      process.stdout.write('client:check: the client document and types match the registry.\n');
      return 0;
    }
    const names = stale.map((file) => relative(repoRoot, file.path)).join(' and ');
    process.stderr.write(
      `client:check: ${names} ${stale.length === 1 ? 'differs' : 'differ'} from what the registry generates. Run \`npm run client:generate\` and commit the result.\n`,
    );
    return 1;
  }
  for (const file of files) {
    writeFileSync(file.path, file.text);
    process.stdout.write(`client:generate: wrote ${relative(repoRoot, file.path)}\n`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`client:generate failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  },
);
