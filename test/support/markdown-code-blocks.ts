/**
 * The fenced code blocks of a Markdown file, with where they start, so a test can check the code
 * the docs show (docs/*.md, the client's README) instead of trusting it.
 */
export interface CodeBlock {
  /** The fence's language, lower-case: `ts`, `sh`, `text`… ('' when none). */
  language: string;
  /** What follows the language on the fence line, e.g. `continued` or `fragment: why`. */
  attributes: string;
  /** The code, the fence's indentation removed. */
  code: string;
  /** 1-based line number of the block's first code line in the file. */
  firstLine: number;
}

const OPENING = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)\s*(.*)$/;

export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const opening = OPENING.exec(lines[index] ?? '');
    if (!opening) continue;
    const [, indent = '', fence = '```', language = '', attributes = ''] = opening;
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && !(lines[end] ?? '').trim().startsWith(fence)) {
      const line = lines[end] ?? '';
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
      end += 1;
    }
    blocks.push({
      language: language.toLowerCase(),
      attributes: attributes.trim(),
      code: body.join('\n'),
      firstLine: index + 2,
    });
    index = end;
  }
  return blocks;
}

const PRELUDE = /<!--\s*ts-prelude\s*\n([\s\S]*?)-->/;

/**
 * The declarations a page's TypeScript blocks take for granted (`client`, `workspaceId`…), from
 * an HTML comment `<!-- ts-prelude … -->` on the page: invisible when rendered, like rustdoc's
 * hidden lines, and type-checked with every block of that page.
 */
export function typescriptPrelude(markdown: string): string {
  return PRELUDE.exec(markdown)?.[1] ?? '';
}
