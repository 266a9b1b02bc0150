#!/usr/bin/env node
// Wall time and peak memory of one run against world size (issue 30), CPU backend, on a simulated h100-ndr
// cluster: a small-MLP DDP program (tests/bench/scale-programs/ddp-trainer.ts: DDP, SGD, a virtual step per
// trainStep, rank 0 checking the weights against one device) at 1, 4, 16, 64, 256 and 1,024 ranks, and the
// chapter 4 DDP overlap playground (charged as Llama 2 7B) up to 64 ranks. Beyond the machine's cores the ranks
// are logical ranks sharing the workers (playground/rank/rank-host.ts).
// Each run has a child process of its own, so its peak resident memory is its own (the RSS of the whole
// process: the main thread and every worker). Run on its own:
// `node tests/bench/world-scale.mjs [--worlds=1,4,16]`; or import { benchWorldScale, formatWorldScale }.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const RECORD = '@@scale ';
export const SCALE_WORLDS = [1, 4, 16, 64, 256, 1024];

/** The programs measured, and the largest world each is measured at (the playground's 7B charge is slow). */
export const SCALE_PROGRAMS = [
  { file: 'tests/bench/scale-programs/ddp-trainer.ts', upTo: 1024 },
  { file: 'content/chapters/playgrounds/04-ddp-overlap.ts', upTo: 64 },
];

/** h100-ndr nodes × GPUs per node for a world: whole 8-GPU nodes from 8 up. */
const shape = (world) =>
  world < 8 ? { nodes: 1, gpusPerNode: world } : { nodes: world / 8, gpusPerNode: 8 };

async function child(file, world) {
  const { runProgram } = await import('../../playground/cluster/node.ts');
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const started = performance.now();
  const { result, events } = await runProgram({
    code: readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'),
    worldSize: world,
    backend: 'cpu',
    timeoutMs: 900_000,
    cluster: { preset: 'h100-ndr', ...shape(world) },
  });
  const wallMs = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  // The DDP program's own verdict: rank 0 compares its weights with one device trained on the global batch.
  const verdict = events.find((e) => e.type === 'log' && e.text.startsWith('equal to one device'));
  console.log(
    RECORD +
      JSON.stringify({
        file,
        world,
        ok: result.ok,
        reason: result.reason,
        wallMs,
        peakRss: peak,
        ...(verdict ? { equal: verdict.text.endsWith('true') } : {}),
      }),
  );
  process.exit(0);
}

/** Runs each program at each world in its own process; returns one row per run. */
export function benchWorldScale({ worlds = SCALE_WORLDS, log = console.log } = {}) {
  const rows = [];
  for (const { file, upTo } of SCALE_PROGRAMS)
    for (const world of worlds.filter((w) => w <= upTo)) {
      const load = loadavg()[0];
      const out = spawnSync(
        process.execPath,
        [fileURLToPath(import.meta.url), `--child=${world}`, `--file=${file}`],
        { encoding: 'utf8', timeout: 1_000_000 },
      );
      const line = out.stdout.split('\n').find((l) => l.startsWith(RECORD));
      const row = line
        ? { ...JSON.parse(line.slice(RECORD.length)), load }
        : {
            file,
            world,
            ok: false,
            reason: out.stderr.trim().split('\n').at(-1) ?? 'no result',
            load,
          };
      log(
        `${file} at ${world}: ${row.ok ? `${(row.wallMs / 1000).toFixed(1)} s wall, ${(row.peakRss / 2 ** 20).toFixed(0)} MB peak` : `failed (${row.reason})`} (load ${load.toFixed(1)})`,
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
    `Each program on a simulated h100-ndr cluster (whole 8-GPU nodes from 8 ranks), one run per world in its own process: wall time of this machine from start to the last rank's exit (worker start-up included) and the process's peak resident memory. At most ${workers} worker threads (this machine's cores): larger worlds are logical ranks sharing them. "load" is the 1-minute load average as the run started (other processes share the cores). "= one device": rank 0's weights within 1e-4 of one device trained on the global batch.`,
    '',
    '| program | ranks | workers | wall (s) | peak memory (MB) | load | = one device |',
    '| --- | ---: | ---: | ---: | ---: | ---: | :---: |',
    ...rows.map((r) =>
      r.ok
        ? `| ${r.file.split('/').at(-1)} | ${r.world} | ${Math.min(r.world, workers)} | ${(r.wallMs / 1000).toFixed(1)} | ${(r.peakRss / 2 ** 20).toFixed(0)} | ${r.load.toFixed(1)} | ${r.equal === undefined ? '' : r.equal ? 'yes' : 'no'} |`
        : `| ${r.file.split('/').at(-1)} | ${r.world} | ${Math.min(r.world, workers)} | failed: ${r.reason} | | ${r.load.toFixed(1)} | |`,
    ),
    '',
  ].join('\n');
}

const childArg = process.argv.find((a) => a.startsWith('--child='));
const fileArg = process.argv.find((a) => a.startsWith('--file='));
if (childArg && fileArg)
  await child(fileArg.slice('--file='.length), Number(childArg.slice('--child='.length)));
else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const worlds = process.argv
    .find((a) => a.startsWith('--worlds='))
    ?.slice('--worlds='.length)
    .split(',')
    .map(Number);
  console.log(formatWorldScale(benchWorldScale({ worlds })));
}
