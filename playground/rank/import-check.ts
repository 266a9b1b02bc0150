import { parse } from 'sucrase/dist/parser/index.js';
import { ContextualKeyword } from 'sucrase/dist/parser/tokenizer/keywords.js';
import { TokenType as tt } from 'sucrase/dist/parser/tokenizer/types.js';

/** One module specifier the program names, with where it stands (1-based line and column). */
export interface ImportSite {
  spec: string | null;
  line: number;
  column: number;
}

const position = (source: string, offset: number) => {
  const before = source.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
};

/**
 * Every `import … from`, `export … from`, `import '…'` and `import(…)` in a TypeScript program,
 * found on sucrase's token stream (a real parse), so text in comments, strings and regexes is never
 * mistaken for an import. A dynamic `import()` whose argument is not a plain string has spec null.
 * Throws sucrase's syntax error when the program does not parse.
 */
export function findImports(source: string): ImportSite[] {
  const { tokens } = parse(source, false, true, false);
  const text = (i: number) => source.slice(tokens[i]!.start + 1, tokens[i]!.end - 1);
  const sites: ImportSite[] = [];
  const site = (spec: string | null, at: number) =>
    sites.push({ spec, ...position(source, tokens[at]!.start) });
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const next = tokens[i + 1];
    if (t.isType) continue; // `typeof import('x')` in a type names a module without loading it
    if (t.type === tt._import && next?.type === tt.string) site(text(i + 1), i + 1);
    else if (t.type === tt._import && next?.type === tt.parenL) {
      const literal = tokens[i + 2]?.type === tt.string && tokens[i + 3]?.type === tt.parenR;
      site(literal ? text(i + 2) : null, i);
    } else if (
      t.type === tt.name &&
      t.contextualKeyword === ContextualKeyword._from &&
      next?.type === tt.string &&
      inModuleStatement(i)
    ) {
      site(text(i + 1), i + 1);
    }
  }
  return sites;

  // `from 'x'` belongs to an import or export statement only if one opened since the last `;`.
  function inModuleStatement(at: number): boolean {
    for (let j = at - 1; j >= 0; j--) {
      const type = tokens[j]!.type;
      if (type === tt._import || type === tt._export) return true;
      if (type === tt.semi) return false;
    }
    return false;
  }
}
