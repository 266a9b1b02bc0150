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
 * - Writing to a file descriptor: the permission model checks paths, not descriptors, so `fs.writeSync(1, …)`
 *   (or writeFileSync, appendFileSync, writev, a write stream on `fd: 1`, `new tty.WriteStream(1)`,
 *   `new net.Socket({ fd: 1 })`) put raw bytes on the terminal around the control-character filter. Every
 *   `node:fs` function that writes to or changes an open descriptor refuses a descriptor, and the tty
 *   stream classes and a socket on a descriptor refuse.
 * Each one is non-writable and non-configurable, so the program cannot put it back.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);

/** Why a descriptor write is refused (the default reason is the thread and process one). */
const AROUND_THE_FILTER =
  'it would put raw bytes on the terminal around the control-character filter, or on a file around the permission model (print with console.log)';

export class RefusedInRankError extends Error {
  constructor(what: string, why = 'a new thread or process would run outside it') {
    super(
      `${what} is not available to a rank: the CLI's ranks run under Node's permission model, and ${why}`,
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
  sealDescriptors();
  syncBuiltinESMExports();
  pin(process, 'kill', () => {
    throw new RefusedInRankError('process.kill()');
  });
  // Ending the thread would leave peers to guess why it never arrives; a program ends by returning.
  // Node's handler of an uncaught exception reports it, sets process._exiting, then calls process.exit(): that
  // one goes through (refused, it printed a stack about process.exit over the program's own error).
  const exit = process.exit.bind(process);
  pin(process, 'exit', (code?: number) => {
    if ((process as { _exiting?: boolean })._exiting) return exit(code);
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

/** `node:fs` functions whose first argument may be an open descriptor they write to or change. */
const FD_WRITERS = [
  'write',
  'writeSync',
  'writev',
  'writevSync',
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'ftruncate',
  'ftruncateSync',
  'fchmod',
  'fchmodSync',
  'fchown',
  'fchownSync',
  'futimes',
  'futimesSync',
] as const;

/**
 * The terminal's descriptors (and any other the thread holds) are out of a program's reach: paths stay with
 * the permission model (a rank may write none), descriptors are refused here, at the call.
 */
function sealDescriptors(): void {
  const fs = require('node:fs') as Record<string, unknown>;
  for (const name of FD_WRITERS) {
    const original = fs[name] as (...args: unknown[]) => unknown;
    pin(fs, name, function (this: unknown, target: unknown, ...rest: unknown[]) {
      if (typeof target === 'number')
        throw new RefusedInRankError(
          `fs.${name}() on a file descriptor (${target})`,
          AROUND_THE_FILTER,
        );
      return original.call(this, target, ...rest);
    });
  }
  const createWriteStream = fs.createWriteStream as (...args: unknown[]) => unknown;
  pin(fs, 'createWriteStream', function (this: unknown, path: unknown, options?: unknown) {
    if (typeof options === 'object' && options !== null && 'fd' in options)
      throw new RefusedInRankError(
        'fs.createWriteStream() on a file descriptor',
        AROUND_THE_FILTER,
      );
    return createWriteStream.call(this, path, options);
  });
  for (const name of ['WriteStream', 'FileWriteStream']) {
    const Original = fs[name] as new (path: unknown, options?: unknown) => object;
    pin(
      fs,
      name,
      class extends Original {
        constructor(path: unknown, options?: unknown) {
          if (typeof options === 'object' && options !== null && 'fd' in options)
            throw new RefusedInRankError(
              `new fs.${name}() on a file descriptor`,
              AROUND_THE_FILTER,
            );
          super(path, options);
        }
      },
    );
  }
  const tty = require('node:tty') as Record<string, unknown>;
  for (const name of ['ReadStream', 'WriteStream'])
    pin(
      tty,
      name,
      class {
        constructor() {
          throw new RefusedInRankError(`new tty.${name}()`, AROUND_THE_FILTER);
        }
      },
    );
  const net = require('node:net') as { Socket: new (options?: unknown) => object };
  const Socket = net.Socket;
  const onDescriptor = (options: unknown) =>
    typeof options === 'object' && options !== null && 'fd' in options;
  const Guarded = class extends Socket {
    constructor(options?: unknown) {
      if (onDescriptor(options))
        throw new RefusedInRankError('a net.Socket on a file descriptor', AROUND_THE_FILTER);
      super(options);
    }
  };
  pin(net, 'Socket', Guarded);
  pin(net, 'Stream', Guarded);
  // connect() and createConnection() make their socket from the module's own Socket, not the export above.
  for (const name of ['connect', 'createConnection']) {
    const original = (net as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!;
    pin(net, name, function (this: unknown, ...args: unknown[]) {
      if (onDescriptor(args[0]))
        throw new RefusedInRankError('a net.Socket on a file descriptor', AROUND_THE_FILTER);
      return original.apply(this, args);
    });
  }
}
