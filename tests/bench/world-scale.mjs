#!/usr/bin/env node
// Wall time and peak memory of one playground run against world size (issue 30): the chapter 4 DDP overlap
// playground (a small MLP, DDP, charged as 7B) on h100-ndr at 1, 4, 16, 64 and 256 ranks, CPU backend. Beyond
// the machine's cores the ranks are logical ranks sharing the workers (playground/rank/rank-host.ts).
// Each world runs in a child process of its own, so its peak resident memory is its own (the RSS of the whole
// process: the main thread and every worker). Run on its own:
// `node tests/bench/world-scale.mjs [--worlds=1,4,16]`; or import { benchWorldScale, formatWorldScale }.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const PLAYGROUND = new URL('../../content/chapters/playgrounds/04-ddp-overlap.ts', import.meta.url);
const RECORD = '@@scale ';
export const SCALE_WORLDS = [1, 4, 16, 64, 256];

/** h100-ndr nodes × GPUs per node for a world: whole 8-GPU nodes from 8 up. */
const shape = (world) =>
  world < 8 ? { nodes: 1, gpusPerNode: world } : { nodes: world / 8, gpusPerNode: 8 };

async function child(world) {
  const { runProgram } = await import('../../playground/cluster/node.ts');
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const started = performance.now();
  const { result } = await runProgram({
    code: readFileSync(PLAYGROUND, 'utf8'),
    worldSize: world,
    backend: 'cpu',
    timeoutMs: 900_000,
    cluster: { preset: 'h100-ndr', ...shape(world) },
  });
  const wallMs = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(
    RECORD + JSON.stringify({ world, ok: result.ok, reason: result.reason, wallMs, peakRss: peak }),
  );
  process.exit(0);
}

/** Runs each world in its own process; returns one row per world. */
export function benchWorldScale({ worlds = SCALE_WORLDS, log = console.log } = {}) {
  const rows = [];
  for (const world of worlds) {
    const out = spawnSync(process.execPath, [fileURLToPath(import.meta.url), `--child=${world}`], {
      encoding: 'utf8',
      timeout: 1_000_000,
    });
    const line = out.stdout.split('\n').find((l) => l.startsWith(RECORD));
    const row = line
      ? JSON.parse(line.slice(RECORD.length))
      : { world, ok: false, reason: out.stderr.trim().split('\n').at(-1) ?? 'no result' };
    log(
      `world ${world}: ${row.ok ? `${(row.wallMs / 1000).toFixed(1)} s wall, ${(row.peakRss / 2 ** 20).toFixed(0)} MB peak` : `failed (${row.reason})`}`,
    );
    rows.push(row);
  }
  return rows;
}

/** The RESULTS.md section. */
export function formatWorldScale(rows) {
  if (!rows.length) return '';
  const workers = availableParallelism();
  return [
    '## World size (tests/bench/world-scale.mjs, Node, CPU backend)',
    '',
    `content/chapters/playgrounds/04-ddp-overlap.ts on a simulated h100-ndr cluster, one run per world in its own process, wall time of this machine from start to the last rank's exit (worker start-up included) and the process's peak resident memory. At most ${workers} worker threads (this machine's cores): larger worlds are logical ranks sharing them.`,
    '',
    '| ranks | workers | wall (s) | peak memory (MB) |',
    '| ---: | ---: | ---: | ---: |',
    ...rows.map((r) =>
      r.ok
        ? `| ${r.world} | ${Math.min(r.world, workers)} | ${(r.wallMs / 1000).toFixed(1)} | ${(r.peakRss / 2 ** 20).toFixed(0)} |`
        : `| ${r.world} | ${Math.min(r.world, workers)} | failed: ${r.reason} | |`,
    ),
    '',
  ].join('\n');
}

const childArg = process.argv.find((a) => a.startsWith('--child='));
if (childArg) await child(Number(childArg.slice('--child='.length)));
else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const worlds = process.argv
    .find((a) => a.startsWith('--worlds='))
    ?.slice('--worlds='.length)
    .split(',')
    .map(Number);
  console.log(formatWorldScale(benchWorldScale({ worlds })));
}
