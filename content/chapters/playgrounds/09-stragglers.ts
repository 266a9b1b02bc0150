// Stragglers at scale: every GPU computes the same step, plus a random delay (exponential, mean 5 % of
// the step: a noisy neighbour, a throttled clock, a slow page fault). A synchronous step ends at its
// all-reduce, so it waits for the slowest of the N GPUs in its group. Groups of N = 1, 2, 4, … GPUs
// (dist.newGroup) step side by side on their own ranks, then the whole world steps, and the mean step
// of each size is set against the expectation of the slowest of N delays: mean × (1 + 1/2 + … + 1/N).
import * as tf from '@tensorflow/tfjs';
import { dist, plot } from 'ranks';

const baseMs = 100, // the step's compute on every GPU
  meanDelayMs = 5, // the delay's mean: 5 % of the step
  steps = 12; // per group size
const world = dist.worldSize;
const sizes: number[] = [];
for (let n = 1; n < world && world % (2 * n) === 0; n *= 2) sizes.push(n);
sizes.push(world);
// Each rank's delays, one per step of the run: exponential, −mean × ln(1 − u), u uniform in [0, 1).
const uniform = await tf
  .randomUniform([sizes.length * steps], 0, 1, 'float32', 1000 + dist.rank)
  .data();
const delayMs = Array.from(uniform, (u) => -meanDelayMs * Math.log(1 - u));

/** One step: compute (charged on the cluster, slept on a laptop), then an all-reduce of the gradient. */
async function step(group: ReturnType<typeof dist.newGroup>, ms: number): Promise<number> {
  const t0 = dist.simulation ? await dist.simulation.now() : performance.now() / 1000;
  if (dist.simulation) dist.simulation.compute(ms / 1000, 'forward and backward');
  else await new Promise((r) => setTimeout(r, ms));
  const grad = tf.fill([1024], 0.001);
  const avg = await dist.allReduce(grad, { op: 'avg', group });
  tf.dispose([grad, avg]);
  if (dist.simulation) {
    await dist.simulation.endStep();
    return dist.simulation.lastStep()!.end - t0;
  }
  return performance.now() / 1000 - t0;
}

// Phases of groups side by side: each size below the world gets its own ranks (largest first, a new
// phase when the ranks run out), then the whole world.
const phases: { size: number; first: number }[][] = [];
for (const size of sizes.slice(0, -1).reverse()) {
  const fits = phases.find((p) => world - p.reduce((a, g) => a + g.size, 0) >= size);
  const phase = fits ?? (phases.push([]), phases.at(-1)!);
  phase.push({ size, first: phase.reduce((a, g) => a + g.size, 0) });
}
phases.push([{ size: world, first: 0 }]);

// Seconds of all steps per size, summed by each group's first rank.
const sums = new Float64Array(sizes.length);
for (const [p, phase] of phases.entries()) {
  dist.simulation?.configuration(
    p === phases.length - 1 ? 'the whole world' : `groups side by side (${p + 1})`,
  );
  // Every rank makes every group, in the same order, as torch.distributed.new_group requires.
  const groups = phase.map((g) => ({
    ...g,
    handle: dist.newGroup(Array.from({ length: g.size }, (_, r) => g.first + r)),
  }));
  const mine = groups.find((g) => g.handle.rank >= 0);
  const i = mine ? sizes.indexOf(mine.size) : -1;
  for (let s = 0; s < steps; s++) {
    if (!mine) {
      await dist.simulation?.endStep(); // no group this phase: an empty step, so step numbers agree
      continue;
    }
    const seconds = await step(mine.handle, baseMs + delayMs[i * steps + s]!);
    if (mine.handle.rank === 0) sums[i] = sums[i]! + seconds;
  }
  if (p === phases.length - 1) break;
  // The next phase starts together. The wait is a step of its own: a rank with no group this phase waits
  // here for the others' whole phase, which would otherwise count in the next phase's first step.
  dist.simulation?.configuration('between phases: waiting for the slowest group');
  await dist.barrier();
  await dist.simulation?.endStep();
}
const total = await dist.allReduce(tf.tensor1d(Array.from(sums)), { op: 'sum' });
const perSize = Array.from(await total.data());
total.dispose();

const harmonic = (n: number) =>
  Array.from({ length: n }, (_, k) => 1 / (k + 1)).reduce((a, b) => a + b);
const mean = baseMs + meanDelayMs; // one GPU's expected step compute
console.log(
  dist.simulation
    ? `times: virtual, on the simulated cluster (${dist.simulation.cluster.preset}); every GPU computes ${baseMs} ms plus an exponential delay of mean ${meanDelayMs} ms`
    : `times: wall clock, measured on this machine; every rank sleeps ${baseMs} ms plus an exponential delay of mean ${meanDelayMs} ms`,
);
let close = true;
sizes.forEach((n, i) => {
  const stepMs = (perSize[i]! / steps) * 1000;
  const measured = stepMs / mean;
  const expected = (baseMs + meanDelayMs * harmonic(n)) / mean;
  close &&= Math.abs(measured / expected - 1) < 0.05;
  console.log(
    `${String(n).padStart(4)} GPU${n === 1 ? ' ' : 's'}: mean step ${stepMs.toFixed(1)} ms, ${measured.toFixed(3)}× one GPU's mean compute; the slowest of ${n} is expected at ${expected.toFixed(3)}×`,
  );
  if (dist.rank !== 0) return;
  plot.line('step time over one GPU’s mean compute', n, measured, { series: 'measured' });
  plot.line('step time over one GPU’s mean compute', n, expected, {
    series: 'expected: slowest of N',
  });
});
if (dist.simulation) console.log(`every size within 5 % of the slowest-of-N expectation: ${close}`);
