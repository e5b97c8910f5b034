import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Issue 26: a network is one folder plus one line in the registry. For each network this counts
 * the source files outside its own folders (`shared/networks/<net>/`, `infra/fake-networks/<net>/`)
 * that name it, and prints them.
 *
 * Scanned: every `.ts` file under shared/, functions/, infra/ and scripts/. Not scanned: test/ and
 * docs/ (a network's tests and docs are its own), bench/ (like the tests, the benchmarks pick one
 * network's sandbox as their workload; a new network never touches them), and clients/ (the
 * published client, whose types are generated from the OpenAPI document, which itself derives from
 * the registry).
 *
 * "Names a network" means, in the code with its comments left out (TypeScript's parser is the
 * tokenizer, so words in comments and JSDoc never count):
 *  - an identifier whose lower-cased text contains the network's word (`twitter`, `linkedin`,
 *    `instagram`, `tiktok`, `youtube`): `linkedin`, `makeLinkedInNetwork`, `YOUTUBE_API_BASE`;
 *    for X, also an identifier with `X` as one of its camel-case or snake-case parts but the last
 *    (`makeXNetwork`, `X_API_BASE`; not `NODEJS_22_X`, nor node:fs's `X_OK`) — a bare `x` is any
 *    variable and a leading `x` a header's prefix (`xFrameOptions`): neither counts;
 *  - a string or template literal holding the network's word or display name as a word of its
 *    own (`'linkedin'`, `'TikTok'`, `` `${name} on YouTube` ``); for X, the literal `'x'` or `'X'`,
 *    or a capital `X` standing between spaces or punctuation (`'Post on X.'`, not `'X-Request-Id'`);
 *  - an import, export or `import()` of a module in the network's folder (`./x/definition.js`).
 */
const ROOT = join(import.meta.dirname, '../../..');
const SCANNED = ['shared', 'functions', 'infra', 'scripts'];

interface Token {
  kind: 'identifier' | 'literal' | 'module';
  text: string;
}

interface NetworkWords {
  folder: string;
  fake: string;
  word: string;
  displayName: string;
}

const NETWORKS: Readonly<Record<string, NetworkWords>> = {
  twitter: { folder: 'shared/networks/x', fake: 'infra/fake-networks/x', word: 'twitter', displayName: 'X' },
  linkedin: {
    folder: 'shared/networks/linkedin',
    fake: 'infra/fake-networks/linkedin',
    word: 'linkedin',
    displayName: 'LinkedIn',
  },
  instagram: {
    folder: 'shared/networks/instagram',
    fake: 'infra/fake-networks/instagram',
    word: 'instagram',
    displayName: 'Instagram',
  },
  tiktok: {
    folder: 'shared/networks/tiktok',
    fake: 'infra/fake-networks/tiktok',
    word: 'tiktok',
    displayName: 'TikTok',
  },
  youtube: {
    folder: 'shared/networks/youtube',
    fake: 'infra/fake-networks/youtube',
    word: 'youtube',
    displayName: 'YouTube',
  },
  bluesky: {
    folder: 'shared/networks/bluesky',
    fake: 'infra/fake-networks/bluesky',
    word: 'bluesky',
    displayName: 'Bluesky',
  },
  facebook: {
    folder: 'shared/networks/facebook',
    fake: 'infra/fake-networks/facebook',
    word: 'facebook',
    displayName: 'Facebook',
  },
  threads: {
    folder: 'shared/networks/threads',
    fake: 'infra/fake-networks/threads',
    word: 'threads',
    displayName: 'Threads',
  },
};

/**
 * The two files outside its folders that may name a network, and why each:
 *  - shared/networks/definitions.ts, the registry: one line per network listing its definition (its
 *    data, content rules and platformOptions schema), which the domain, OpenAPI, the dashboard, CDK
 *    and the fakes' launcher derive everything from;
 *  - shared/networks/registry.ts, its connectors and sandbox profiles: code that calls out, which the
 *    domain may not import, so it cannot sit in the registry the domain derives its types from.
 */
const ALLOWED = ['shared/networks/definitions.ts', 'shared/networks/registry.ts'];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name === 'cdk.out' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function identifierParts(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .split('_')
    .filter(Boolean);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** node:fs's `X_OK` (may execute) is no network. */
const FILE_ACCESS_CONSTANTS = new Set(['X_OK']);

function namesNetwork(token: Token, network: NetworkWords): boolean {
  if (token.kind === 'module') return token.text.split('/').includes(network.folder.split('/').at(-1) ?? '');
  if (network.word === 'threads') return namesThreads(token);
  const lower = token.text.toLowerCase();
  if (token.kind === 'identifier') {
    if (lower.includes(network.word)) return true;
    if (network.displayName !== 'X' || FILE_ACCESS_CONSTANTS.has(token.text)) return false;
    const parts = identifierParts(token.text);
    // `X` as a word before another (makeXNetwork, X_API_URL); a trailing one is not the network
    // (NODEJS_22_X), nor is a leading lower-case `x`, an HTTP header's prefix (xFrameOptions).
    return parts.slice(0, -1).includes('X');
  }
  const asWord = (word: string, flags: string) =>
    new RegExp(`(^|[^A-Za-z0-9_-])${escapeRegExp(word)}($|[^A-Za-z0-9_-])`, flags).test(token.text);
  if (asWord(network.word, 'i')) return true;
  if (network.displayName !== 'X') return asWord(network.displayName, 'i');
  return token.text === 'x' || token.text === 'X' || /(^|[\s(])X($|[\s).,:;!?])/.test(token.text);
}

/**
 * Threads is also the plural of a post type (`thread`), and `threadShape` holds its letters: an
 * identifier names the network when `threads` is one of several words in it (makeThreadsNetwork,
 * THREADS_GRAPH_URL, threadsSandbox), not the bare `threads` of a list of threads; a literal when
 * it is the platform value `'threads'` or holds the display name `Threads`, capitalised, as a word.
 */
function namesThreads(token: Token): boolean {
  if (token.kind === 'identifier') {
    const parts = identifierParts(token.text);
    return parts.length > 1 && parts.some((part) => part.toLowerCase() === 'threads');
  }
  return token.text === 'threads' || /(^|[^A-Za-z0-9_-])Threads($|[^A-Za-z0-9_-])/.test(token.text);
}

/** An import or export of a module in the network's folder names it too (`./x/definition.js`). */
function isModuleSpecifier(node: ts.Node): boolean {
  const parent = node.parent;
  return (
    ((ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) && parent.moduleSpecifier === node) ||
    (ts.isCallExpression(parent) && parent.expression.kind === ts.SyntaxKind.ImportKeyword)
  );
}

function tokensOf(path: string): Token[] {
  const source = ts.createSourceFile(
    path,
    readFileSync(join(ROOT, path), 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const tokens: Token[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node))
      tokens.push({ kind: 'identifier', text: node.text });
    else if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateLiteralToken(node)
    )
      tokens.push({ kind: isModuleSpecifier(node) ? 'module' : 'literal', text: node.text });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return tokens;
}

function filesNaming(platform: string): string[] {
  const network = NETWORKS[platform];
  if (!network) throw new Error(`unknown network ${platform}`);
  const own = [network.folder, network.fake].map((folder) => `${folder}/`);
  return SCANNED.flatMap(sourceFiles)
    .map((path) => relative(ROOT, join(ROOT, path)).split('\\').join('/'))
    .filter((path) => !own.some((folder) => path.startsWith(folder)))
    .filter((path) => tokensOf(path).some((token) => namesNetwork(token, network)))
    .sort();
}

describe('a network is one folder plus one line in the registry', () => {
  it('recognises the ways a file names a network, and ignores comments and look-alikes', () => {
    const x = NETWORKS.twitter as NetworkWords;
    const linkedin = NETWORKS.linkedin as NetworkWords;
    expect(namesNetwork({ kind: 'identifier', text: 'makeXNetwork' }, x)).toBe(true);
    expect(namesNetwork({ kind: 'identifier', text: 'X_API_BASE' }, x)).toBe(true);
    expect(namesNetwork({ kind: 'identifier', text: 'x' }, x)).toBe(false);
    expect(namesNetwork({ kind: 'identifier', text: 'maxLength' }, x)).toBe(false);
    expect(namesNetwork({ kind: 'identifier', text: 'xFrameOptions' }, x)).toBe(false);
    expect(namesNetwork({ kind: 'identifier', text: 'NODEJS_22_X' }, x)).toBe(false);
    expect(namesNetwork({ kind: 'identifier', text: 'X_OK' }, x)).toBe(false);
    expect(namesNetwork({ kind: 'literal', text: 'X-Request-Id' }, x)).toBe(false);
    expect(namesNetwork({ kind: 'literal', text: 'Published on X.' }, x)).toBe(true);
    expect(namesNetwork({ kind: 'literal', text: 'twitter' }, x)).toBe(true);
    expect(namesNetwork({ kind: 'identifier', text: 'LINKEDIN_COMMUNITY' }, linkedin)).toBe(true);
    expect(namesNetwork({ kind: 'literal', text: 'on LinkedIn' }, linkedin)).toBe(true);
    expect(namesNetwork({ kind: 'literal', text: 'linkedinish' }, linkedin)).toBe(false);
    expect(namesNetwork({ kind: 'module', text: './x/definition.js' }, x)).toBe(true);
    expect(namesNetwork({ kind: 'module', text: '../networks/x/index.js' }, x)).toBe(true);
    expect(namesNetwork({ kind: 'module', text: './x-ray.js' }, x)).toBe(false);
    expect(namesNetwork({ kind: 'module', text: './linkedin/apps.js' }, linkedin)).toBe(true);
  });

  for (const platform of Object.keys(NETWORKS)) {
    it(`${platform}: only the registry and the connectors' registry name it outside its folders`, () => {
      const files = filesNaming(platform);
      console.info(
        `${platform}: ${files.length} files outside its folders name it (at most ${ALLOWED.length})\n  ${files.join('\n  ')}`,
      );
      expect(files.length).toBeLessThanOrEqual(ALLOWED.length);
      expect(files.filter((file) => !ALLOWED.includes(file))).toEqual([]);
    });
  }
});
