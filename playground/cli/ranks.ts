#!/usr/bin/env node
/**
 * `npm run ranks -- run <file.ts> --world N [--backend cpu|wasm] [--timeout ms]`: runs a playground
 * program on N worker-thread ranks and prints every line as `[rank k] …`, then every `plot` chart as a table.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProgram } from '../cluster/node.ts';
import { plotsText } from '../cluster/plot-series.ts';
import { describeRanks, FOLD_ABOVE_RANKS, foldRankLines } from '../cluster/fold-lines.ts';
import type { RunRecord } from '../cluster/run-record.ts';
import type { ClusterEvent } from '../cluster/protocol.ts';
import { parseCliArgs, USAGE, UsageError } from './cli-args.ts';
import { prefixedLines, terminalSafe } from './terminal-text.ts';
import { MODEL_COMMANDS } from './predict-command.ts';
import { twinCommand } from './twin-command.ts';
import { timeReport } from './time-report.ts';
import { traceWriteFlags, writeTraceFile } from './trace-file.ts';

// The folder ranks may read under the permission model (not a dependency: a path, so no `new URL(…, import.meta.url)`).
const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function print(e: ClusterEvent): void {
  if (e.type === 'log')
    (e.level === 'error' || e.level === 'warn' ? process.stderr : process.stdout).write(
      prefixedLines(`[rank ${e.rank}] `, e.text),
    );
  else if (e.type === 'error')
    process.stderr.write(
      prefixedLines(
        `[rank ${e.rank}] `,
        `error${e.line ? ` at line ${e.line}` : ''}: ${e.message}`,
      ),
    );
  else if (e.type === 'backend' && e.reason)
    process.stderr.write(prefixedLines(`[rank ${e.rank}] `, `backend ${e.backend} (${e.reason})`));
}

/**
 * Runs this same command again under Node's permission model: reads only inside the project and
 * the program file, no writes, no child processes, no add-ons (worker threads stay allowed: they
 * are the ranks, and they inherit the same limits).
 */
function rerunWithPermissions(programPath: string): number {
  const flags = [
    '--permission',
    `--allow-fs-read=${projectRoot}`,
    // node_modules may be a link out of the project (a git worktree sharing one install).
    `--allow-fs-read=${realpathSync(resolve(projectRoot, 'node_modules'))}`,
    `--allow-fs-read=${programPath}`,
    ...traceWriteFlags(process.argv.slice(2)),
    '--allow-worker',
    '--disable-warning=SecurityWarning',
  ];
  const child = spawnSync(
    process.execPath,
    [...flags, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  if (child.error) throw child.error;
  return child.status ?? 1;
}

/**
 * A large world's other ranks, after the run: their lines folded, each identical line once with the ranks that
 * printed it (rank 0's lines streamed as they came).
 */
function printFolded(record: RunRecord): void {
  const lines = record.ranks.map((r) => r.lines.map((l) => ({ text: l.text, kind: l.kind })));
  for (const line of foldRankLines(lines, 0)) {
    if (line.ranks.length === 1 && line.ranks[0] === 0) continue;
    const error = line.kind === 'failure';
    (error || line.kind === 'warn' || line.kind === 'error'
      ? process.stderr
      : process.stdout
    ).write(`[${describeRanks(line.ranks)}] ${error ? 'error: ' : ''}${line.text}\n`);
  }
}

async function main(): Promise<number> {
  // Our own commands, no reader code: they run without the relaunch below (twin reads content/twins only).
  const modelCommand = MODEL_COMMANDS[process.argv[2] ?? ''];
  if (modelCommand)
    return modelCommand(process.argv.slice(3), {
      out: (l) => process.stdout.write(`${l}\n`),
      err: (l) => process.stderr.write(`${l}\n`),
    });
  if (process.argv[2] === 'twin') return twinCommand(process.argv.slice(3));
  let args;
  try {
    args = parseCliArgs(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`${e.message}\n${USAGE}\n`);
    return 2;
  }
  if (args === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const path = resolve(process.cwd(), args.file);
  let code: string;
  try {
    code = readFileSync(path, 'utf8');
  } catch {
    process.stderr.write(`cannot read ${path}\n`);
    return 2;
  }
  if (!(process as { permission?: unknown }).permission) return rerunWithPermissions(path);
  // Lines stream as they arrive; the verdict comes from the run's record, as on the page. A large world streams
  // rank 0 and folds the others' identical lines at the end (fold-lines.ts).
  const fold = args.world > FOLD_ABOVE_RANKS;
  const { record } = await runProgram(
    {
      code,
      worldSize: args.world,
      backend: args.backend,
      timeoutMs: args.timeoutMs,
      ...(args.cluster ? { cluster: args.cluster } : {}),
    },
    fold ? (e) => void (e.rank === 0 && print(e)) : print,
  );
  if (fold) printFolded(record);
  const result = record.result!;
  // Charts the program drew with `plot` come after its output, each as a tab-separated table.
  if (record.plots.length)
    process.stdout.write(
      `\n${plotsText(record.plots, record.plotTotal).map(terminalSafe).join('\n')}`,
    );
  for (const line of timeReport(record)) process.stdout.write(`${line}\n`);
  if (args.trace) process.stdout.write(writeTraceFile(record, args));
  if (result.reason === 'compile-error')
    process.stderr.write(
      `${args.file}:${result.error?.line ?? '?'}:${result.error?.column ?? '?'} ${terminalSafe(result.error?.message ?? '')}\n`,
    );
  else if (!result.ok)
    process.stderr.write(
      `run ${result.reason} after ${Math.round(result.durationMs)} ms${result.error ? `: ${terminalSafe(result.error.message)}` : ''}\n`,
    );
  return result.ok ? 0 : 1;
}

process.exitCode = await main();
