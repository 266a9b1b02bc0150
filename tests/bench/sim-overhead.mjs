#!/usr/bin/env node
// What virtual time costs in real time, plain (this laptop, real time) against a simulated cluster, runs
// alternating in one invocation (plain, simulated, then simulated, plain…), 4 ranks, CPU backend:
// - a DDP training step (5 steps after a warm-up, worker start-up excluded): the slowest rank's wall ms
//   per step, and the CPU ms all ranks' threads spent on it (process.threadCpuUsage: waits block, so
//   CPU time is the work itself, much less sensitive than wall time to other processes on the cores);
// - a whole playground run (content/chapters/playgrounds/04-ddp-overlap.ts, which a reader runs on
//   either): wall ms from start to end, and the CPU ms of the whole process (main thread and ranks).
// Medians; each pair's overhead is printed too, so the spread on a shared machine shows. Target ≤ 10 %.
// Run on its own: `node tests/bench/sim-overhead.mjs [--pairs 3]`; or import { benchSimOverhead }.
import { readFileSync } from 'node:fs';
import { runProgram } from '../../playground/cluster/node.ts';
import { SIM_LABELS } from './format-results.ts';

const RECORD = '@@bench ';
const PLAYGROUND = new URL('../../content/chapters/playgrounds/04-ddp-overlap.ts', import.meta.url);

function stepProgram({ sizes, rows, steps }) {
  return `
import * as tf from '@tensorflow/tfjs';
import * as ranks from 'ranks';
const { dist } = ranks;
const sizes = ${JSON.stringify(sizes)};
const rng = new ranks.Lcg(100 + dist.rank);
const x = tf.tensor2d(rng.fill(${rows} * sizes[0]), [${rows}, sizes[0]]);
const y = tf.tensor2d(rng.fill(${rows} * sizes[sizes.length - 1]), [${rows}, sizes[sizes.length - 1]]);
const ddp = await ranks.DDP(ranks.mlp(sizes, { seed: 5, activation: 'relu' }), {
  optimizer: new ranks.SGD({ lr: 1e-3 }), bucketCapMB: 1, chargeAs: { params: 7e9, tokensPerStep: 4194304 },
});
const cpuMs = () => { const u = process.threadCpuUsage(); return (u.user + u.system) / 1000; };
const times = [];
const cpu = [];
for (let s = 0; s < ${steps} + 1; s++) {
  await dist.barrier();
  const t0 = performance.now();
  const c0 = cpuMs();
  await ddp.trainStep(x, y);
  const c1 = cpuMs();
  await dist.barrier();
  if (s > 0) {
    times.push(performance.now() - t0);
    cpu.push(c1 - c0);
  }
}
console.log(${JSON.stringify(RECORD)} + JSON.stringify({ rank: dist.rank, times, cpu }));
`;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const processCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function run(code, cluster) {
  const cpu0 = processCpuMs();
  const { result, events } = await runProgram({
    code,
    worldSize: 4,
    backend: 'cpu',
    timeoutMs: 600_000,
    ...(cluster ? { cluster } : {}),
  });
  const cpuMs = processCpuMs() - cpu0;
  const logs = events.filter((e) => e.type === 'log' || e.type === 'error');
  if (!result.ok)
    throw new Error(
      `bench program failed: ${result.reason}: ${logs
        .map((e) => e.text ?? e.message)
        .slice(-5)
        .join(' | ')}`,
    );
  return { logs, wallMs: result.durationMs, cpuMs };
}

/** Per step: the slowest rank's wall ms (a step ends when it does) and the ranks' summed CPU ms. */
async function stepTimes(code, cluster) {
  const { logs } = await run(code, cluster);
  const records = logs
    .filter((e) => e.type === 'log' && e.text.startsWith(RECORD))
    .map((e) => JSON.parse(e.text.slice(RECORD.length)));
  return {
    wall: records[0].times.map((_, i) => Math.max(...records.map((r) => r.times[i]))),
    cpu: records[0].cpu.map((_, i) => records.reduce((a, r) => a + r.cpu[i], 0)),
  };
}

export const signedPercent = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;

/** Medians of plain and simulated per metric, the pooled overhead, and each pair's. */
function summarize(plain, simulated, pairs) {
  const out = {};
  for (const metric of Object.keys(plain)) {
    const p = median(plain[metric]);
    const s = median(simulated[metric]);
    out[metric] = {
      plainMs: p,
      simulatedMs: s,
      overhead: s / p - 1,
      samples: plain[metric].length,
      pairOverheads: pairs.map((x) => x[metric]),
    };
  }
  return out;
}

/**
 * Plain against simulated, interleaved `pairs` times: `step` (a DDP step, wall and CPU) and
 * `playground` (a whole run of the chapter 4 DDP overlap playground, wall and CPU).
 */
export async function benchSimOverhead({
  pairs = 3,
  steps = 5,
  sizes = [512, 512, 512, 512, 512, 10],
  rows = 16,
  cluster = { preset: 'h100-ndr', nodes: 1, gpusPerNode: 4 },
  playground = true,
  log = () => {},
} = {}) {
  const code = stepProgram({ sizes, rows, steps });
  const playgroundCode = readFileSync(PLAYGROUND, 'utf8');
  const plain = { stepWall: [], stepCpu: [], runWall: [], runCpu: [] };
  const simulated = { stepWall: [], stepCpu: [], runWall: [], runCpu: [] };
  const pairResults = [];
  for (let p = 0; p < pairs; p++) {
    // Alternate which goes first, so load drifts hit both alike.
    const order = p % 2 ? ['sim', 'plain'] : ['plain', 'sim'];
    const pair = {};
    for (const which of order) {
      const into = which === 'sim' ? simulated : plain;
      const c = which === 'sim' ? cluster : undefined;
      const t = await stepTimes(code, c);
      into.stepWall.push(...t.wall);
      into.stepCpu.push(...t.cpu);
      pair[which] = { stepWall: median(t.wall), stepCpu: median(t.cpu) };
      if (playground) {
        const r = await run(playgroundCode, c);
        into.runWall.push(r.wallMs);
        into.runCpu.push(r.cpuMs);
        Object.assign(pair[which], { runWall: r.wallMs, runCpu: r.cpuMs });
      }
    }
    const overheads = Object.fromEntries(
      Object.keys(pair.sim).map((k) => [k, pair.sim[k] / pair.plain[k] - 1]),
    );
    pairResults.push(overheads);
    log(
      `sim-overhead pair ${p + 1}/${pairs}: ${Object.keys(pair.sim)
        .map(
          (k) =>
            `${k} ${pair.plain[k].toFixed(0)} → ${pair.sim[k].toFixed(0)} ms (${signedPercent(overheads[k])})`,
        )
        .join(', ')}`,
    );
  }
  if (!playground)
    for (const m of [plain, simulated]) {
      delete m.runWall;
      delete m.runCpu;
    }
  return { pairs, cluster, ...summarize(plain, simulated, pairResults) };
}

/** One line per metric: medians, pooled overhead, and the spread of the pairs. */
export function simOverheadLines(r) {
  return Object.keys(SIM_LABELS)
    .filter((k) => r[k])
    .map((k) => {
      const m = r[k];
      const sorted = [...m.pairOverheads].sort((a, b) => a - b);
      return `sim-overhead, ${SIM_LABELS[k]}: plain ${m.plainMs.toFixed(1)} ms, simulated ${m.simulatedMs.toFixed(1)} ms: ${signedPercent(m.overhead)} (median of ${m.samples}; pairs ${sorted.map(signedPercent).join(', ')}; target ≤ 10 %)`;
    });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--pairs');
  const r = await benchSimOverhead({
    pairs: i > 0 ? Number(process.argv[i + 1]) : 3,
    playground: !process.argv.includes('--no-playground'),
    log: (l) => console.log(l),
  });
  for (const line of simOverheadLines(r)) console.log(line);
}
