// FSDP2's fully_shard on a 6-layer MLP: every parameter is sharded on dim 0, each layer is one unit.
// One training step, then the trace: when each unit's all-gather was issued and arrived, when each
// layer computed, and where the reduce-scatters of the gradients went out.
import * as tf from '@tensorflow/tfjs';
import { dist, fullyShard, mlp, Lcg, SGD, SingleDeviceTrainer } from 'ranks';

const widths = [64, 64, 64, 64, 64, 64, 64],
  lr = 0.05;
const rng = new Lcg(3); // same data on every rank, then each rank takes its rows
const x = tf.tensor2d(rng.fill(8 * 64), [8, 64]),
  y = tf.tensor2d(rng.fill(8 * 64), [8, 64]);
const rows = Array.from({ length: 8 }, (_, i) => i).filter((i) => i % dist.worldSize === dist.rank);
const [xs, ys] = [tf.gather(x, rows), tf.gather(y, rows)];

const fsdp = await fullyShard(mlp(widths, { seed: 7 }), {
  optimizer: new SGD({ lr }),
  reshardAfterForward: true,
});
fsdp.ledger.resetPeak();
await fsdp.trainStep(xs, ys);

// The trace, in time order: collectives have an issue time and an arrival time; compute has a span.
const events = fsdp.timeline.flatMap((s) =>
  s.kind === 'forward' || s.kind === 'backward' || s.kind === 'optimizer'
    ? [
        { t: s.start, what: `${s.kind} ${s.label} starts` },
        { t: s.end, what: `${s.kind} ${s.label} ends` },
      ]
    : [
        { t: s.start, what: `issue ${s.kind} ${s.label}` },
        { t: s.end, what: `${s.kind} ${s.label} arrived` },
      ],
);
events.sort((a, b) => a.t - b.t);
if (dist.rank === 0) {
  const t0 = events[0]!.t;
  for (const e of events) console.log(`${(e.t - t0).toFixed(1).padStart(7)} ms  ${e.what}`);
}

// Prefetch, read off the trace: was unit u's all-gather issued before the unit next to it finished computing?
const spans = fsdp.timeline;
const issued = (phase: string, u: number) =>
  spans.find((s) => s.kind === 'allGather' && s.label.startsWith(`${phase} unit ${u} `))!.start;
const layerOf = (u: number) => fsdp.units[u]!.layer;
const computeEnd = (phase: string, layer: number) =>
  spans.find((s) => s.kind === phase && s.label.startsWith(`${layer}.`))!.end;
const units = fsdp.units.length;
const early = (phase: 'forward' | 'backward') =>
  Array.from({ length: units - 1 }, (_, i) =>
    phase === 'forward'
      ? issued('forward', i + 1) < computeEnd('forward', layerOf(i))
      : issued('backward', i) < computeEnd('backward', layerOf(i + 1)),
  ).filter(Boolean).length;
const scatters = spans.filter((s) => s.kind === 'reduceScatter');
const lastScatterBeforeBackwardEnd = scatters.filter(
  (s) => s.start < computeEnd('backward', layerOf(0)),
).length;
const peak = fsdp.ledger.snapshot().peakByCategory.gathered,
  unitBytes = (64 * 64 + 64) * 4;
console.log(
  `rank ${dist.rank}: all-gathers issued before the neighbouring unit finished computing: forward ${early('forward')} of ${units - 1}, backward ${early('backward')} of ${units - 1}`,
);
console.log(
  `rank ${dist.rank}: ${scatters.length} reduce-scatters, ${lastScatterBeforeBackwardEnd} of them issued while backward was still running; at most ${(peak / unitBytes).toFixed(0)} of ${units} units unsharded at once`,
);

// The result equals one device training on all 8 rows.
const single = mlp(widths, { seed: 7 });
await new SingleDeviceTrainer(single, new SGD({ lr })).trainStep(x, y);
const [mine, ref] = [await fsdp.snapshot(), await single.snapshot()];
const diff = Math.max(
  ...Object.keys(ref).map((k) => Math.max(...ref[k]!.map((v, i) => Math.abs(v - mine[k]![i]!)))),
);
console.log(`rank ${dist.rank}: matches single-device training: ${diff < 1e-5}`);
