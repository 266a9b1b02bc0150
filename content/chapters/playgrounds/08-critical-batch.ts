// The critical batch, measured. Groups of 1, 2, 4, … ranks (dist.newGroup) train the same linear model
// with data-parallel SGD, each rank on its own 4 examples a step, so a group of N ranks steps with a
// global batch of 4N and the learning rate scaled linearly with it (Goyal et al.), up to 1/λ_max, half
// the rate at which this loss diverges. Each group trains until the loss reaches the same target and
// counts its steps. Below the critical batch, doubling the ranks halves the steps; above it, it does not.
// Every step's all-reduce also carries each rank's squared gradient norm, so the whole world measures the
// gradient noise scale B_simple = tr(Σ)/|G|² from two batch sizes (McCandlish et al. 2018, Appendix A.1):
// one rank's 4 examples and the world's 4N. On a simulated cluster every step is charged as GPT-3 Small,
// and time to target = steps × step time.
import * as tf from '@tensorflow/tfjs';
import { dist, plot } from 'ranks';

const d = 16, // features
  perRank = 4, // examples per rank per step
  noise = 2, // σ of the label noise: y = x·w* + σ·ε
  conditioning = 100, // feature variances fall from 1 to 1/100
  baseLr = 0.004, // the rate at one rank (global batch 4)
  targetFraction = 0.05, // target: 5 % of the starting excess loss
  measured = 1024, // rank-batches that measure B_simple at the target (at least one per rank)
  GPT3_SMALL = 125e6, // parameters (Brown et al. 2020, Table 2.1)
  tokensPerGpu = 8 * 2048; // 8 sequences of 2,048 tokens

// Feature i has variance h_i; the loss is σ² + Σ h_i (w_i − 1)², its Hessian 2·diag(h), so λ_max = 2.
const h = Array.from({ length: d }, (_, i) => conditioning ** (-i / (d - 1)));
const maxLr = 1 / (2 * Math.max(...h)); // half the stability limit 2/λ_max
const excess = (w: Float64Array) => w.reduce((a, wi, i) => a + h[i]! * (wi - 1) ** 2, 0);
const target = targetFraction * excess(new Float64Array(d));

// Example j of a stream, the same for every group: a counter-based hash, so a rank makes its own rows.
function uniform(j: number, c: number, stream: number): number {
  let x = Math.imul(j ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(c + 0x632be5ab, 0xc2b2ae35);
  x ^= Math.imul(stream + 0x27d4eb2f, 0x165667b1);
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (((x ^ (x >>> 16)) >>> 0) + 0.5) / 2 ** 32;
}
const normal = (j: number, c: number, stream: number) =>
  Math.sqrt(-2 * Math.log(uniform(j, 2 * c, stream))) *
  Math.cos(2 * Math.PI * uniform(j, 2 * c + 1, stream));
function rows(first: number, stream: number) {
  const x = new Float32Array(perRank * d),
    y = new Float32Array(perRank);
  for (let e = 0; e < perRank; e++) {
    let dot = 0;
    for (let i = 0; i < d; i++) {
      const v = Math.sqrt(h[i]!) * normal(first + e, i, stream);
      x[e * d + i] = v;
      dot += v; // w* = (1, …, 1)
    }
    y[e] = dot + noise * normal(first + e, d, stream);
  }
  return { x: tf.tensor2d(x, [perRank, d]), y: tf.tensor2d(y, [perRank, 1]) };
}

/** This rank's gradient of the mean squared error on its rows, and its squared norm, averaged over the group. */
async function averaged(w: Float64Array, first: number, stream: number, group: Group) {
  const { x, y } = rows(first, stream);
  const wt = tf.tensor2d(Float32Array.from(w), [d, 1]);
  const r = tf.tidy(() =>
    x
      .matMul(wt)
      .sub(y)
      .mul(2 / perRank),
  ); // d(loss)/d(prediction)
  const g = x.matMul(r, true, false); // the weight gradient
  r.matMul(wt, false, true).dispose(); // the input gradient a layer below would need (charged as GPT-3's backward)
  const sent = new Float32Array(d + 1);
  sent.set(await g.data());
  sent[d] = normSq(sent.subarray(0, d));
  const t = tf.tensor1d(sent);
  const avg = await dist.allReduce(t, { op: 'avg', group });
  const v = (await avg.data()) as Float32Array;
  tf.dispose([x, y, wt, r, g, t, avg]);
  return { G: v.slice(0, d), smallNormSq: v[d]! };
}
type Group = ReturnType<typeof dist.newGroup>;
const normSq = (v: Float32Array) => v.reduce((a, x) => a + x * x, 0);
const clock = async () =>
  dist.simulation ? await dist.simulation.now() : performance.now() / 1000;

/** Trains from w = 0 at global batch 4·size until the loss reaches the target; returns steps, seconds and w. */
async function train(group: Group) {
  const batch = perRank * group.size,
    lr = Math.min((baseLr * batch) / perRank, maxLr);
  const w = new Float64Array(d);
  const t0 = await clock();
  let steps = 0,
    first: { G: Float32Array; smallNormSq: number } | null = null;
  while (excess(w) > target) {
    const a = await averaged(w, steps * batch + group.rank * perRank, 0, group);
    first ??= a;
    for (let i = 0; i < d; i++) w[i] = w[i]! - lr * a.G[i]!;
    steps++;
  }
  return { batch, lr, steps, seconds: (await clock()) - t0, w, first: first! };
}

/** The two-batch estimate of B_simple (McCandlish et al. 2018, Appendix A.1): small = one rank, big = the group. */
function noiseScale(smallNormSq: number, bigNormSq: number, big: number) {
  const small = perRank;
  const gradSq = (big * bigNormSq - small * smallNormSq) / (big - small); // |G|²
  const traceSigma = (smallNormSq - bigNormSq) / (1 / small - 1 / big); // tr(Σ)
  return traceSigma / gradSq;
}

const world = dist.worldSize;
const sizes: number[] = [];
for (let n = 1; n < world && world % (2 * n) === 0; n *= 2) sizes.push(n);
sizes.push(world);
// Phases of groups side by side: each size below the world gets its own ranks (largest first, a new phase
// when the ranks run out), then the whole world.
const phases: { size: number; first: number }[][] = [];
for (const size of sizes.slice(0, -1).reverse()) {
  const fits = phases.find((p) => world - p.reduce((a, g) => a + g.size, 0) >= size);
  const phase = fits ?? (phases.push([]), phases.at(-1)!);
  phase.push({ size, first: phase.reduce((a, g) => a + g.size, 0) });
}
phases.push([{ size: world, first: 0 }]);
// Charged per GPU as GPT-3 Small on tokensPerGpu tokens, whichever group a rank is in.
dist.simulation?.chargeAs(
  { params: GPT3_SMALL, tokensPerStep: tokensPerGpu * world },
  { params: d, tokensPerStep: perRank * world },
);

// Per size: steps and seconds to target, filled in by each group's first rank; and the world's B_simple.
const results = new Float64Array(2 * sizes.length + 2);
for (const phase of phases) {
  // Every rank makes every group, in the same order, as torch.distributed.new_group requires.
  const groups = phase.map((g) => ({
    ...g,
    handle: dist.newGroup(Array.from({ length: g.size }, (_, r) => g.first + r)),
  }));
  const mine = groups.find((g) => g.handle.rank >= 0);
  if (mine) {
    const run = await train(mine.handle);
    const at = sizes.indexOf(mine.size);
    if (mine.handle.rank === 0) {
      results[at] = run.steps;
      results[sizes.length + at] = run.seconds;
    }
    if (mine.size === world && world > 1) {
      // At the start: the first step's gradients (small = one rank's 4, big = the world's 4N). At the
      // target: fresh batches, no update; big = all of them at once, since |G|² is the small difference of
      // two noisy norms and a batch of 4N alone cannot see it on a small world.
      const draws = Math.ceil(measured / world);
      let small = 0;
      const sum = new Float64Array(d);
      for (let k = 0; k < draws; k++) {
        const a = await averaged(run.w, (k * world + dist.rank) * perRank, 1, mine.handle);
        small += a.smallNormSq / draws;
        a.G.forEach((v, i) => (sum[i] = sum[i]! + v / draws));
      }
      const big = normSq(Float32Array.from(sum));
      const batch = perRank * world;
      if (dist.rank === 0) {
        results[2 * sizes.length] = noiseScale(run.first.smallNormSq, normSq(run.first.G), batch);
        results[2 * sizes.length + 1] = noiseScale(small, big, batch * draws);
      }
    }
  }
  await dist.barrier(); // the next phase starts together
}
// One all-reduce brings every group's numbers to every rank (each slot was filled by one rank only).
const summed = await dist.allReduce(tf.tensor1d(Array.from(results)), { op: 'sum' });
const all = Array.from(await summed.data());
summed.dispose();
const steps = all.slice(0, sizes.length),
  seconds = all.slice(sizes.length, 2 * sizes.length);
const [atStart, atTarget] = all.slice(2 * sizes.length);

console.log(
  dist.simulation
    ? `times: virtual, on the simulated cluster (${dist.simulation.cluster.preset}), every step charged as GPT-3 Small (125M parameters) on ${tokensPerGpu.toLocaleString('en')} tokens per GPU`
    : 'times: wall clock, measured on this machine (the toy model, not GPT-3 Small)',
);
console.log(
  `ranks | global batch | learning rate | steps to target | examples | time to target | GPU time`,
);
const fmtTime = (s: number) => (s >= 1 ? `${s.toFixed(2)} s` : `${(s * 1000).toFixed(1)} ms`);
// McCandlish et al. §2.3: S_min the fewest steps, E_min the fewest examples, B_crit = E_min / S_min.
const sMin = Math.min(...steps),
  eMin = Math.min(...sizes.map((n, i) => perRank * n * steps[i]!));
const bCrit = eMin / sMin;
const stalls = sizes.findIndex((_, i) => i > 0 && steps[i - 1]! / steps[i]! < 1.5);
sizes.forEach((n, i) => {
  const batch = perRank * n,
    lr = Math.min((baseLr * batch) / perRank, maxLr);
  const cells = [
    String(n).padStart(5),
    String(batch).padStart(12),
    lr.toFixed(4).padStart(13),
    String(steps[i]).padStart(15),
    String(batch * steps[i]!).padStart(8),
    fmtTime(seconds[i]!).padStart(14),
    fmtTime(n * seconds[i]!),
  ];
  console.log(cells.join(' | '));
  if (dist.rank !== 0) return;
  plot.line('log₂ steps to target against log₂ ranks', Math.log2(n), Math.log2(steps[i]!), {
    series: 'measured',
  });
  // McCandlish et al.'s model through the measured S_min and B_crit, once the steps have flattened.
  if (stalls > 0)
    plot.line(
      'log₂ steps to target against log₂ ranks',
      Math.log2(n),
      Math.log2(sMin * (1 + bCrit / batch)),
      { series: 'S_min (1 + B_crit / B)' },
    );
  plot.line('time to target (s) against log₂ ranks', Math.log2(n), seconds[i]!, {
    series: dist.simulation ? 'virtual' : 'this machine',
  });
});
console.log(
  stalls < 0
    ? `doubling the ranks cut the steps by at least 1.5× every time, up to ${world}: the critical batch lies beyond ${perRank * world}`
    : `doubling the ranks stops paying at ${sizes[stalls]} ranks: ${sizes[stalls - 1]} → ${sizes[stalls]} cut the steps only ${(steps[stalls - 1]! / steps[stalls]!).toFixed(2)}×`,
);
console.log(`critical batch E_min/S_min = ${eMin} / ${sMin} = ${bCrit.toFixed(0)} examples`);
if (world > 1) {
  console.log(
    `gradient noise scale B_simple from the ranks' gradients: ${atStart!.toFixed(0)} at the start, ${atTarget!.toFixed(0)} at the target`,
  );
  if (stalls > 0)
    console.log(
      `B_simple at the target over the critical batch: ${(atTarget! / bCrit).toFixed(1)}× (McCandlish et al. predict about 1 when the Hessian is a multiple of the identity)`,
    );
}
const best = seconds.indexOf(Math.min(...seconds));
console.log(
  `fastest to target: ${sizes[best]} rank${sizes[best] === 1 ? '' : 's'} (${fmtTime(seconds[best]!)})`,
);
