#!/usr/bin/env node
// DDP step time at 4 ranks: buckets all-reduced as soon as their gradients exist (overlap) vs one
// all-reduce pass after the whole backward, measured side by side (interleaved) in one run.
// Run on its own: `node tests/bench/ddp-overlap.mjs [--world 4] [--steps 6] [--json]`; or import { benchDdpOverlap }.
import { runProgram } from '../../playground/cluster/node.ts';

const RECORD = '@@bench ';

/** Rank program: both DDP variants on the same model, steps interleaved so load drifts hit both alike. */
function program({ sizes, rows, steps, bucketCapMB }) {
  return `
import * as tf from '@tensorflow/tfjs';
import * as ranks from 'ranks';
const { dist } = ranks;
const sizes = ${JSON.stringify(sizes)};
const rng = new ranks.Lcg(100 + dist.rank);
const x = tf.tensor2d(rng.fill(${rows} * sizes[0]), [${rows}, sizes[0]]);
const y = tf.tensor2d(rng.fill(${rows} * sizes[sizes.length - 1]), [${rows}, sizes[sizes.length - 1]]);
const variants = {};
for (const overlap of [true, false]) {
  variants[overlap ? 'overlap' : 'afterBackward'] = await ranks.DDP(ranks.mlp(sizes, { seed: 5, activation: 'relu' }), {
    optimizer: new ranks.SGD({ lr: 1e-3 }), bucketCapMB: ${bucketCapMB}, overlap, gradientAsBucketView: true,
  });
}
const times = { overlap: [], afterBackward: [] };
// Communication left exposed: from the end of the backward pass to the end of the last bucket's all-reduce.
const exposed = { overlap: [], afterBackward: [] };
for (let s = 0; s < ${steps} + 1; s++) {
  for (const name of s % 2 ? ['afterBackward', 'overlap'] : ['overlap', 'afterBackward']) {
    variants[name].clearTimeline();
    await dist.barrier();
    const t0 = performance.now();
    await variants[name].trainStep(x, y);
    await dist.barrier();
    if (s > 0) times[name].push(performance.now() - t0);
    const spans = variants[name].timeline;
    const backwardEnd = Math.max(...spans.filter((x) => x.kind === 'backward').map((x) => x.end));
    if (s > 0) exposed[name].push(Math.max(...spans.filter((x) => x.kind === 'allReduce').map((x) => x.end)) - backwardEnd);
  }
}
const spans = variants.overlap.timeline; // the last overlapped step
const lastBackward = Math.max(...spans.filter((s) => s.kind === 'backward').map((s) => s.end));
const overlapped = spans.filter((s) => s.kind === 'allReduce' && s.start < lastBackward).length;
console.log(${JSON.stringify(RECORD)} + JSON.stringify({ rank: dist.rank, times, exposed, params: variants.overlap.model.numParams, buckets: variants.overlap.buckets.length, overlapped }));
`;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs the benchmark; returns median step times (ms) and their ratio. */
export async function benchDdpOverlap({
  worldSize = 4,
  steps = 6,
  sizes = [512, 512, 512, 512, 512, 512, 512, 512, 10],
  rows = 16,
  bucketCapMB = 1,
} = {}) {
  const { result, events } = await runProgram({
    code: program({ sizes, rows, steps, bucketCapMB }),
    worldSize,
    backend: 'cpu',
    timeoutMs: 300_000,
  });
  const logs = events.filter((e) => e.type === 'log' || e.type === 'error');
  if (!result.ok)
    throw new Error(
      `bench program failed: ${result.reason}\n${logs
        .map((e) => e.text ?? e.message)
        .slice(-10)
        .join('\n')}`,
    );
  const records = logs
    .filter((e) => e.type === 'log' && e.text.startsWith(RECORD))
    .map((e) => JSON.parse(e.text.slice(RECORD.length)));
  // A step ends when the slowest rank ends, so take the per-step maximum over ranks.
  const stepMax = (field, name) =>
    records[0][field][name].map((_, i) => Math.max(...records.map((r) => r[field][name][i])));
  const overlapMs = median(stepMax('times', 'overlap'));
  const afterBackwardMs = median(stepMax('times', 'afterBackward'));
  return {
    worldSize,
    params: records[0].params,
    buckets: records[0].buckets,
    bucketsLaunchedBeforeBackwardEnded: records[0].overlapped,
    overlapMs,
    afterBackwardMs,
    ratio: afterBackwardMs / overlapMs,
    exposedCommOverlapMs: median(stepMax('exposed', 'overlap')),
    exposedCommAfterBackwardMs: median(stepMax('exposed', 'afterBackward')),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : fallback;
  };
  const r = await benchDdpOverlap({ worldSize: arg('world', 4), steps: arg('steps', 6) });
  if (process.argv.includes('--json')) console.log(JSON.stringify(r));
  else {
    console.log(
      `ddp-overlap: ${r.worldSize} ranks, ${(r.params / 1e6).toFixed(2)}M params, ${r.buckets} buckets (${r.bucketsLaunchedBeforeBackwardEnded} launched before the backward ended)`,
    );
    console.log(
      `  bucketed + overlapped: ${r.overlapMs.toFixed(1)} ms/step   all-reduce after backward: ${r.afterBackwardMs.toFixed(1)} ms/step   speed-up ×${r.ratio.toFixed(2)}`,
    );
    console.log(
      `  communication exposed after the backward: ${r.exposedCommOverlapMs.toFixed(1)} ms overlapped vs ${r.exposedCommAfterBackwardMs.toFixed(1)} ms after backward`,
    );
  }
}
