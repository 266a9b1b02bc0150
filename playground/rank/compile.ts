import { transform } from 'sucrase/dist/index.js';
import { findImports } from './import-check.ts';
import type { ProgramScope } from './rank-host.ts';

/** Name the reader's program carries in stack traces, so runtime errors can be mapped to its lines. */
export const PROGRAM_URL = 'reader-program.ts';

export class CompileError extends Error {
  readonly line?: number;
  readonly column?: number;
  constructor(message: string, line?: number, column?: number) {
    super(message);
    this.name = 'CompileError';
    this.line = line;
    this.column = column;
  }
}

/** Modules a program may import; anything else is a compile error, reported before any rank starts. */
export const ALLOWED_IMPORTS = ['@tensorflow/tfjs', 'ranks'] as const;

/**
 * Turns the reader's TypeScript (ES module, top-level await) into an ES module whose default export
 * is an async function taking `require`, `exports` and `module`. Sucrase keeps every line where it
 * was and the wrapper adds none, so line numbers in errors are the reader's own. `checks` (exercise
 * tests) run after the program, in its scope.
 */
export function compileProgram(source: string, checks?: string): string {
  const full = checks ? `${source}\n;\n${checks}` : source;
  let code: string;
  try {
    code = transform(full, {
      transforms: ['typescript', 'imports'],
      production: true,
      filePath: PROGRAM_URL,
    }).code;
  } catch (e) {
    const err = e as Error & { loc?: { line: number; column: number } };
    // Sucrase reports "Error transforming <file>: <message> (line:column)", both 1-based.
    const message = err.message
      .replace(/^Error transforming [^:]*:\s*/, '')
      .replace(/\s*\(\d+:\d+\)\s*$/, '');
    throw new CompileError(`Syntax error: ${message}`, err.loc?.line, err.loc?.column);
  }
  const allowed = ALLOWED_IMPORTS.map((s) => `'${s}'`).join(' and ');
  for (const { spec, line, column } of findImports(full)) {
    if (spec !== null && (ALLOWED_IMPORTS as readonly string[]).includes(spec)) continue;
    const where = line > source.split('\n').length ? ' (in the exercise checks)' : '';
    const what = spec === null ? 'import() with a computed name' : `import '${spec}'`;
    throw new CompileError(
      `Cannot ${what}${where}: a playground program can import only ${allowed}`,
      line,
      column,
    );
  }
  // The program's timers, event sources, global object and console are its rank's (rank-host.ts): `var`, so a
  // program may still declare its own, and the program in a block of its own, so its `let`/`const` may shadow them.
  return `${PROGRAM_HEAD}${code}${PROGRAM_TAIL}`;
}

/** What compileProgram puts around the reader's code (names of the scope included, which are not the reader's). */
const PROGRAM_HEAD =
  'export default async function (require, exports, module, scope) {var {setTimeout, setInterval, fetch, MessageChannel, BroadcastChannel, WebSocket, globalThis, self, console} = scope; {';
const PROGRAM_TAIL = `\n}}\n//# sourceURL=${PROGRAM_URL}`;

/** The reader's own code inside a compiled program (what the rank scans for names it took away). */
export function programBody(js: string): string {
  return js.startsWith(PROGRAM_HEAD) && js.endsWith(PROGRAM_TAIL)
    ? js.slice(PROGRAM_HEAD.length, js.length - PROGRAM_TAIL.length)
    : js;
}

type ProgramFunction = (
  require: (spec: string) => unknown,
  exports: object,
  module: { exports: object },
  scope: ProgramScope,
) => Promise<void>;

/** The last program this thread loaded: the logical ranks of a thread all run the same one. */
let loaded: { moduleText: string; program: Promise<ProgramFunction> } | undefined;

/**
 * Loads the compiled program as a module: a blob: URL in a browser worker, a data: URL in Node.
 * Importing a module needs no 'unsafe-eval', so the site's CSP can refuse eval and new Function.
 * Once a thread: the module only defines the program's function, and each rank's call of it has its own
 * state (its top level runs inside the call), so the ranks of a thread share one import, as Node's cache of
 * the same data: URL already had them do. In Chromium each blob: import costs a fetch through the browser
 * process and a parse: 512 of them were seconds of a 1,024-rank run's two workers.
 */
export function loadProgram(moduleText: string): Promise<ProgramFunction> {
  if (loaded?.moduleText !== moduleText) {
    const program = importProgram(moduleText);
    loaded = { moduleText, program };
    program.catch(() => {
      if (loaded?.program === program) loaded = undefined; // a failed load is tried again by the next rank
    });
  }
  return loaded.program;
}

async function importProgram(moduleText: string): Promise<ProgramFunction> {
  if (
    typeof Blob !== 'undefined' &&
    typeof URL.createObjectURL === 'function' &&
    !(globalThis as { process?: unknown }).process
  ) {
    const url = URL.createObjectURL(new Blob([moduleText], { type: 'text/javascript' }));
    try {
      return ((await import(/* @vite-ignore */ url)) as { default: ProgramFunction }).default;
    } finally {
      URL.revokeObjectURL(url);
    }
  }
  const url = `data:text/javascript;charset=utf-8,${encodeURIComponent(moduleText)}`;
  return ((await import(/* @vite-ignore */ url)) as { default: ProgramFunction }).default;
}

/** Line and column in the reader's source where `error` was thrown, if its stack passes through the program. */
export function programLocation(error: unknown): { line: number; column: number } | undefined {
  const stack = (error as { stack?: unknown })?.stack;
  if (typeof stack !== 'string') return undefined;
  const m = new RegExp(`${PROGRAM_URL.replace('.', '\\.')}:(\\d+):(\\d+)`).exec(stack);
  if (!m) return undefined;
  return { line: Number(m[1]), column: Number(m[2]) };
}
