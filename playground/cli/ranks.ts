#!/usr/bin/env node
/**
 * `npm run ranks -- run <file.ts> --world N [--backend cpu|wasm] [--timeout ms]`: runs a playground
 * program on N worker-thread ranks and prints every line as `[rank k] …`.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runProgram } from '../cluster/node.ts';
import type { BackendChoice, ClusterEvent } from '../cluster/protocol.ts';
import { MODEL_COMMANDS } from './predict-command.ts';
import { twinCommand } from './twin-command.ts';

const USAGE = 'usage: npm run ranks -- run <file.ts> [--world N] [--backend auto|wasm|cpu] [--timeout ms]';

function parse(argv: string[]): { file: string; world: number; backend: BackendChoice; timeoutMs: number } {
  const [command, file, ...rest] = argv;
  if (command !== 'run' || !file) throw new Error(USAGE);
  const opts = { world: 4, backend: 'cpu' as BackendChoice, timeoutMs: 60_000 };
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i], rest[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
    if (flag === '--world') opts.world = Number(value);
    else if (flag === '--backend') opts.backend = value as BackendChoice;
    else if (flag === '--timeout') opts.timeoutMs = Number(value);
    else throw new Error(`unknown option ${flag}\n${USAGE}`);
  }
  return { file, ...opts };
}

function print(e: ClusterEvent): void {
  if (e.type === 'log') (e.level === 'error' || e.level === 'warn' ? process.stderr : process.stdout).write(`[rank ${e.rank}] ${e.text}\n`);
  else if (e.type === 'error') process.stderr.write(`[rank ${e.rank}] error${e.line ? ` at line ${e.line}` : ''}: ${e.message}\n`);
  else if (e.type === 'backend' && e.reason) process.stderr.write(`[rank ${e.rank}] backend ${e.backend} (${e.reason})\n`);
}

async function main(): Promise<number> {
  const modelCommand = MODEL_COMMANDS[process.argv[2] ?? ''];
  if (modelCommand) return modelCommand(process.argv.slice(3), { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) });
  if (process.argv[2] === 'twin') return twinCommand(process.argv.slice(3));
  let args;
  try {
    args = parse(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    return 2;
  }
  const path = resolve(process.cwd(), args.file);
  let code: string;
  try {
    code = readFileSync(path, 'utf8');
  } catch {
    process.stderr.write(`cannot read ${path}\n`);
    return 2;
  }
  // Lines stream as they arrive; the verdict comes from the run's record, as on the page.
  const { record } = await runProgram({ code, worldSize: args.world, backend: args.backend, timeoutMs: args.timeoutMs }, print);
  const result = record.result!;
  if (result.reason === 'compile-error') process.stderr.write(`${args.file}:${result.error?.line ?? '?'}:${result.error?.column ?? '?'} ${result.error?.message}\n`);
  else if (!result.ok) process.stderr.write(`run ${result.reason} after ${Math.round(result.durationMs)} ms${result.error ? `: ${result.error.message}` : ''}\n`);
  return result.ok ? 0 : 1;
}

process.exitCode = await main();
