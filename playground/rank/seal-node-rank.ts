/**
 * Closes what Node's permission model leaves open to a CLI rank. The ranks are worker threads (they share one
 * SharedArrayBuffer, so they cannot be processes), which needs `--allow-worker` for the whole process; and a
 * thread started with `new Worker(code, { eval: true, execArgv: [] })` runs outside the permission model (it
 * could write files and start processes). So before any program runs, a rank's thread loses:
 * - `Worker` in `node:worker_threads`: replaced by a class that refuses, however the module is reached (static
 *   or eval-built `import()`, `process.getBuiltinModule`, `createRequire`): builtins are one object per thread,
 *   and `syncBuiltinESMExports` carries the change into their ES module namespaces.
 * - `process.kill` (it could signal any process of this user), `process.exit` (peers would be left waiting
 *   for a thread that is gone) and `process.env` (a copy: the parent's stays).
 * - Raw `process.stdout.write`/`process.stderr.write`: text goes to the rank's own log, which the CLI prints
 *   with control characters replaced (see terminal-text.ts).
 * Each one is non-writable and non-configurable, so the program cannot put it back.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);

export class RefusedInRankError extends Error {
  constructor(what: string) {
    super(
      `${what} is not available to a rank: the CLI's ranks run under Node's permission model, and a new thread or process would run outside it`,
    );
    this.name = 'RefusedInRankError';
  }
}

function pin(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: false, configurable: false });
}

let sealed = false;

/** Idempotent; call once at the top of the Node rank worker's entry, before any program can run. */
export function sealNodeRank(): void {
  if (sealed) return;
  sealed = true;
  const threads = require('node:worker_threads') as Record<string, unknown>;
  pin(
    threads,
    'Worker',
    class Worker {
      constructor() {
        throw new RefusedInRankError('new Worker()');
      }
    },
  );
  syncBuiltinESMExports();
  pin(process, 'kill', () => {
    throw new RefusedInRankError('process.kill()');
  });
  // Ending the thread would leave peers to guess why it never arrives; a program ends by returning.
  pin(process, 'exit', () => {
    throw new RefusedInRankError('process.exit() (a program ends by returning)');
  });
  for (const key of Object.keys(process.env)) delete process.env[key];
  // console.* is the rank's log during a run. Outside one it is Node's own, which writes here again: dropped.
  let inside = false;
  const toLog = (level: 'log' | 'error') =>
    function write(chunk: unknown, ...rest: unknown[]): boolean {
      const text =
        typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk as Uint8Array);
      if (text && !inside) {
        inside = true;
        try {
          console[level](text.replace(/\n$/, ''));
        } finally {
          inside = false;
        }
      }
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      done?.();
      return true;
    };
  // Writable.prototype.write reaches the stream through _write/_writev: those are routed too.
  for (const [stream, level] of [
    [process.stdout, 'log'],
    [process.stderr, 'error'],
  ] as const) {
    const write = toLog(level);
    pin(stream, 'write', write);
    pin(stream, '_write', write);
    pin(stream, '_writev', (chunks: { chunk: unknown }[], done: () => void) => {
      for (const { chunk } of chunks) write(chunk);
      done();
    });
  }
}
