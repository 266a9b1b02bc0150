#!/usr/bin/env node
// What virtual time costs in real time: the chapter-4-style DDP program at 4 ranks, run plain and on a
// simulated cluster alternately in one invocation (plain, simulated, plain, simulated…), median real
// ms per step inside the ranks (worker start-up excluded). Target: the simulation adds ≤ 10 %.
// Run on its own: `node tests/bench/sim-overhead.mjs [--pairs 3]`; or import { benchSimOverhead }.
import { runProgram } from '../../playground/cluster/node.ts';

const RECORD = '@@bench ';

function program({ sizes, rows, steps }) {
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
const times = [];
for (let s = 0; s < ${steps} + 1; s++) {
  await dist.barrier();
  const t0 = performance.now();
  await ddp.trainStep(x, y);
  await dist.barrier();
  if (s > 0) times.push(performance.now() - t0);
}
console.log(${JSON.stringify(RECORD)} + JSON.stringify({ rank: dist.rank, times }));
`;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function stepTimes(code, cluster) {
  const { result, events } = await runProgram({
    code,
    worldSize: 4,
    backend: 'cpu',
    timeoutMs: 300_000,
    ...(cluster ? { cluster } : {}),
  });
  const logs = events.filter((e) => e.type === 'log' || e.type === 'error');
  if (!result.ok)
    throw new Error(
      `bench program failed: ${result.reason}: ${logs
        .map((e) => e.text ?? e.message)
        .slice(-5)
        .join(' | ')}`,
    );
  const records = logs
    .filter((e) => e.type === 'log' && e.text.startsWith(RECORD))
    .map((e) => JSON.parse(e.text.slice(RECORD.length)));
  // A step ends when the slowest rank ends.
  return records[0].times.map((_, i) => Math.max(...records.map((r) => r.times[i])));
}

/**
 * Median real ms per step, plain and simulated, and the overhead (simulated / plain − 1): overall, and
 * per pair (each pair's simulated run against its plain run), so a shared machine's spread shows.
 */
export async function benchSimOverhead({
  pairs = 3,
  steps = 5,
  sizes = [512, 512, 512, 512, 512, 10],
  rows = 16,
  cluster = { preset: 'h100-ndr', nodes: 1, gpusPerNode: 4 },
  log = () => {},
} = {}) {
  const code = program({ sizes, rows, steps });
  const plain = [];
  const simulated = [];
  const pairOverheads = [];
  for (let p = 0; p < pairs; p++) {
    // Alternate which goes first, so load drifts hit both alike.
    const order = p % 2 ? ['sim', 'plain'] : ['plain', 'sim'];
    const pair = {};
    for (const which of order) {
      const t = await stepTimes(code, which === 'sim' ? cluster : undefined);
      (which === 'sim' ? simulated : plain).push(...t);
      pair[which] = median(t);
    }
    pairOverheads.push(pair.sim / pair.plain - 1);
    log(
      `sim-overhead pair ${p + 1}/${pairs}: plain ${pair.plain.toFixed(1)} ms/step, simulated ${pair.sim.toFixed(1)} ms/step (${signedPercent(pairOverheads.at(-1))})`,
    );
  }
  const plainMs = median(plain);
  const simulatedMs = median(simulated);
  return {
    plainMs,
    simulatedMs,
    overhead: simulatedMs / plainMs - 1,
    steps: plain.length,
    pairOverheads,
  };
}

export const signedPercent = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;

/** One line: the overall medians, and the spread of the pairs. */
export function simOverheadLine(r) {
  const sorted = [...r.pairOverheads].sort((a, b) => a - b);
  return `sim-overhead: plain ${r.plainMs.toFixed(1)} ms/step, simulated ${r.simulatedMs.toFixed(1)} ms/step: ${signedPercent(r.overhead)} (median of ${r.steps} steps each; pairs ${sorted.map(signedPercent).join(', ')}; target ≤ 10 %)`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--pairs');
  const r = await benchSimOverhead({
    pairs: i > 0 ? Number(process.argv[i + 1]) : 3,
    log: (l) => console.log(l),
  });
  console.log(simOverheadLine(r));
}
