import { describe, expect, it } from 'vitest';
import { CompileError, compileProgram } from '../../../playground/rank/compile.ts';
import { findImports } from '../../../playground/rank/import-check.ts';

const compileError = (code: string): CompileError => {
  try {
    compileProgram(code);
  } catch (e) {
    return e as CompileError;
  }
  throw new Error('expected a compile error');
};

describe('imports are checked on a real parse (issue 19, item 12)', () => {
  it('text that only looks like an import (comments, strings, templates, regexes) is not an import', () => {
    const code = `import * as tf from '@tensorflow/tfjs';
// import fs from 'fs'
/* import cp from 'node:child_process' */
const s = "import fs from 'fs'";
const t = \`export * from 'fs'\`;
const r = /import x from 'y'/;
const from = 'not a module';
type Fs = typeof import('node:fs');
console.log(s, t, r, from, tf.version_core);`;
    expect(findImports(code).map((i) => i.spec)).toEqual(['@tensorflow/tfjs']);
    expect(() => compileProgram(code)).not.toThrow();
  });

  it('finds every form of import, with its line and column', () => {
    const code = `import { dist } from 'ranks';
import type { Dist } from 'ranks';
import 'side-effect';
export * from 'fs';
export { x } from "node:path";
const m = await import('node:fs');
const n = await import('node:' + 'fs');`;
    expect(findImports(code)).toEqual([
      { spec: 'ranks', line: 1, column: 22 },
      { spec: 'ranks', line: 2, column: 27 },
      { spec: 'side-effect', line: 3, column: 8 },
      { spec: 'fs', line: 4, column: 15 },
      { spec: 'node:path', line: 5, column: 19 },
      { spec: 'node:fs', line: 6, column: 17 },
      { spec: null, line: 7, column: 17 },
    ]);
  });

  it('rejects other modules and computed import() at compile time, naming the line', () => {
    expect(
      compileError("import * as tf from '@tensorflow/tfjs';\nconst fs = await import('node:fs');"),
    ).toMatchObject({ line: 2, message: expect.stringContaining("Cannot import 'node:fs'") });
    expect(compileError("const name = 'node:fs';\nawait import(name);")).toMatchObject({
      line: 2,
      message: expect.stringContaining('import() with a computed name'),
    });
    expect(compileError("export * from 'fs';")).toMatchObject({ line: 1 });
  });
});
