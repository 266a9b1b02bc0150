import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterEvent } from '../../../playground/cluster/protocol.ts';
import { runProgram } from '../../../playground/cluster/node.ts';
import { compareLines, TWIN_CASES, twinWorlds, type TwinCase } from './twin-cases.ts';
import { hasTorch, PYTHON } from '../../reference/python.ts';
import { playgroundManifest } from '../../playground-manifest.ts';
import {
  expectPageLines,
  onePerRun,
  runByTwin,
  TWIN_WORLDS,
} from '../playgrounds/playground-cases.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TWINS = join(ROOT, 'content', 'twins');
const PLAYGROUNDS = join(ROOT, 'content', 'chapters', 'playgrounds');
const DRIVER = join(ROOT, 'tests', 'reference', 'twin_driver.py');

if (!hasTorch)
  console.warn(
    `twins: skipped, "${PYTHON} -c 'import torch.distributed'" failed (apt-get install python3-torch to run the PyTorch twins)`,
  );

const twinFile = (c: TwinCase) => join(TWINS, c.playground.replace(/\.ts$/, '.py'));
/** Twins CI's torch 1.13 on CPU cannot run (SyncBatchNorm, FSDP2) are only checked statically, in twin-files.test.ts. */
const ALL_RUNNABLE = TWIN_CASES.filter((c) => !c.staticOnly);
/** RANKS_TWINS=03-straggler.ts,04-bucket-sweep.ts runs only those (while writing a twin); CI leaves it unset and runs all. */
const only = process.env.RANKS_TWINS?.split(',').filter(Boolean);
const RUNNABLE = only ? ALL_RUNNABLE.filter((c) => only.includes(c.playground)) : ALL_RUNNABLE;
if (only && RUNNABLE.length !== only.length)
  throw new Error(`RANKS_TWINS names a playground without a runnable twin: ${only.join(', ')}`);

interface DriverRun {
  lines: Map<string, string[][]>;
  failure?: string;
  stderr: string;
  ms: number;
}

/** The runnable twins compared at `world` (a twin may name fewer worlds than TWIN_WORLDS). */
const atWorld = (world: number) =>
  RUNNABLE.filter((c) => twinWorlds(c, TWIN_WORLDS).includes(world));

/** One torchrun job per world size runs every runnable twin (tests/reference/twin_driver.py); lines by twin, then rank. */
function runDriver(world: number): Promise<DriverRun> {
  // No twin at this world (RANKS_TWINS chose only twins of the other): no torchrun job, which costs ~40 s to start.
  if (atWorld(world).length === 0) return Promise.resolve({ lines: new Map(), stderr: '', ms: 0 });
  const started = performance.now();
  const logDir = mkdtempSync(join(tmpdir(), 'ranks-twins-log-'));
  const args = [
    '-m',
    'torch.distributed.run',
    // Not --standalone: torch 1.13 pins it to port 29400 (torch/distributed/run.py), so two jobs on one machine collide.
    '--rdzv_backend',
    'c10d',
    '--rdzv_endpoint',
    'localhost:0',
    '--rdzv_id',
    `ranks-twins-${process.pid}-${world}`,
    '--nnodes',
    '1',
    '--nproc_per_node',
    String(world),
    // Each rank's stdout to its own file, read once torchrun has exited. Not --tee: its tailer reads the files with
    // readline while they grow and can split a line (seen in CI: a line cut at "[default0]:"), however the twin flushes.
    '--redirects',
    '1',
    // Stderr only (the driver's timings and tracebacks). Not absent, nor 0: on Python 3.11+ torch 1.13's
    // Std.from_str cannot find the 0-valued flag and yields None (elastic/multiprocessing/api.py, to_std).
    '--tee',
    '2',
    '--log_dir',
    logDir,
    DRIVER,
    ...atWorld(world).map(twinFile),
  ];
  const child = spawn(PYTHON, args, {
    cwd: ROOT,
    env: { ...process.env, OMP_NUM_THREADS: '1', PYTHONDONTWRITEBYTECODE: '1' },
  });
  let err = '';
  child.stdout.resume(); // torchrun's own messages; the ranks' lines are in their files
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  // A hang guard for the whole batch (25 twins since chapters 7–9), not a speed check: the twins print their own timings.
  const timer = setTimeout(() => child.kill('SIGKILL'), 250_000);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      const out = rankLogs(logDir);
      rmSync(logDir, { recursive: true, force: true });
      const lines = new Map<string, string[][]>();
      const current: string[] = [];
      let failure: string | undefined = code === 0 ? undefined : `torchrun exited with ${code}`;
      for (const raw of out.split('\n')) {
        const m = /^\[rank (\d+)\] (.*)$/.exec(raw);
        if (!m) continue;
        const [rank, text] = [Number(m[1]), m[2]!];
        if (text.startsWith('@@twin ')) current[rank] = text.slice(7);
        else if (text.startsWith('@@failed ')) failure = text;
        else if (text !== '@@done' && current[rank]) {
          const perRank = lines.get(current[rank]!) ?? Array.from({ length: world }, () => []);
          perRank[rank]!.push(text);
          lines.set(current[rank]!, perRank);
        }
      }
      const ms = performance.now() - started;
      const slowest = [...err.matchAll(/twin_driver: (\S+) took ([\d.]+) s/g)]
        .sort((a, b) => Number(b[2]) - Number(a[2]))
        .slice(0, 5)
        .map((m) => `${m[1]} ${m[2]} s`);
      console.info(
        `twins: one torchrun job, ${world} ranks, ${atWorld(world).length} twins: ${(ms / 1000).toFixed(1)} s (slowest: ${slowest.join(', ')})`,
      );
      resolve({ lines, failure, stderr: err, ms });
    });
  });
}

/** Every rank's stdout as torchrun --log_dir left it, in files named <run id>_…/attempt_0/<local rank>/stdout.log. */
function rankLogs(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /attempt_\d+[\\/]\d+[\\/]stdout\.log$/.test(f))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

/** Lines each rank printed when the playground ran on `world` worker-thread ranks. */
async function runPlayground(c: TwinCase, world: number): Promise<string[][]> {
  const file = c.playground;
  const code = readFileSync(join(PLAYGROUNDS, file), 'utf8');
  const { result, events } = await runProgram({
    code,
    worldSize: world,
    backend: c.backend ?? 'cpu',
    timeoutMs: 240_000,
  });
  const logs = (events as ClusterEvent[]).filter(
    (e): e is Extract<ClusterEvent, { type: 'log' }> => e.type === 'log',
  );
  if (!result.ok)
    throw new Error(
      `${file} failed on ${world} ranks: ${result.reason} ${result.error?.message ?? ''}`,
    );
  return Array.from({ length: world }, (_, r) =>
    logs.filter((l) => l.rank === r).map((l) => l.text),
  );
}

const twins = TWIN_CASES.filter((c) => !c.staticOnly);
const embeds = onePerRun(await playgroundManifest()).filter((p) => runByTwin(p, twins));

describe.skipIf(!hasTorch)(
  'PyTorch twins under torchrun (Gloo, CPU) print what their playgrounds print',
  () => {
    const driver = new Map<number, Promise<DriverRun>>();
    beforeAll(() => {
      // One world size after the other, in the background while the playgrounds run: 2 cores, many processes.
      const two = runDriver(2);
      driver.set(2, two);
      driver.set(
        4,
        two.then(() => runDriver(4)),
      );
    });

    it('the helper regenerates tf.randomNormal and tf.randomUniform bit for bit', () => {
      const script = `import sys; sys.path.insert(0, ${JSON.stringify(TWINS)})
from ranks_twin import random_normal, random_uniform
print(" ".join(repr(v) for v in random_normal([999], 0, 0.5, seed=41).tolist()))
print(" ".join(repr(v) for v in random_uniform([999], -1, 1, seed=2).tolist()))`;
      const run = spawnSync(PYTHON, ['-c', script], {
        encoding: 'utf8',
        env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
      });
      expect(run.status, run.stderr).toBe(0);
      const [normal, uniform] = run.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(' ').map(Number));
      expect(normal).toEqual(Array.from(tf.randomNormal([999], 0, 0.5, 'float32', 41).dataSync()));
      expect(uniform).toEqual(Array.from(tf.randomUniform([999], -1, 1, 'float32', 2).dataSync()));
    });

    it('the helper prints numbers as JavaScript does: String, toFixed, toExponential, console.log', () => {
      const values = [
        0,
        -0,
        0.1,
        1e-7,
        1.5e21,
        -0.000001,
        3,
        2.5,
        0.5,
        -1.005,
        1.25e-5,
        123456.789,
        0.30000000000000004,
        Number.NaN,
        -Infinity,
      ];
      const script = `import json, sys; sys.path.insert(0, ${JSON.stringify(TWINS)})
from ranks_twin import console_line, exponential, fixed, js_str
for v in json.loads(sys.argv[1]):
    v = float(v)
    print("|".join([js_str(v), fixed(v, 2), fixed(v, 0), exponential(v, 1), exponential(v, 2), console_line("x", v, [v, True])]))`;
      const run = spawnSync(PYTHON, ['-c', script, JSON.stringify(values.map(String))], {
        encoding: 'utf8',
        env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
      });
      expect(run.status, run.stderr).toBe(0);
      const console6 = (v: number) =>
        Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
      const expected = values.map((v) =>
        [
          String(v),
          v.toFixed(2),
          v.toFixed(0),
          v.toExponential(1),
          v.toExponential(2),
          `x ${console6(v)} [${console6(v)}, true]`,
        ].join('|'),
      );
      expect(run.stdout.trim().split('\n')).toEqual(expected);
    });

    for (const world of TWIN_WORLDS) {
      for (const c of atWorld(world)) {
        // The page that embeds this program at this world (chapter-playgrounds.test.ts leaves its lines to this run).
        const page = embeds.find((p) => p.src === c.playground && p.world === world);
        it(`${c.playground} on ${world} ranks (tolerance abs ${c.abs}, rel ${c.rel}: ${c.why}${c.unavailable ? `; where the twin prints n/a: ${c.unavailable.why}` : ''})`, async () => {
          const ts = await runPlayground(c, world);
          const py = await driver.get(world)!;
          expect(py.failure, `${py.failure}\n${py.stderr.slice(-2000)}`).toBeUndefined();
          const twin = c.playground.replace(/\.ts$/, '.py');
          const lines = py.lines.get(twin);
          expect(lines, `${twin} printed nothing`).toBeDefined();
          expect(ts.flat().length, `${c.playground} printed nothing`).toBeGreaterThan(0);
          for (let rank = 0; rank < world; rank++)
            expect(compareLines(ts[rank]!, lines![rank]!, c), `rank ${rank}`).toEqual([]);
          if (page) expectPageLines(page, ts);
        }, 240_000);
      }
    }
  },
);
