// The same data-parallel step, DDP and FSDP, on 8, 16, 32, … GPUs up to the whole cluster, in virtual
// time. A group of k ranks (dist.newGroup) trains one step; the groups smaller than the world run side
// by side on their own nodes (a run costs this machine one step of each size, not one per size), then
// the whole world runs the same step.
// The toy model (a 32-wide MLP: an "embedding" and 4 "units") does the arithmetic; each step is
// charged as GPT-2 small (124M parameters, 12 blocks) on 8,192 tokens per GPU. FSDP wraps every 3
// blocks in one unit (fully_shard on each group of 3, then the root), so the toy's 4 units move what
// GPT-2's would; DDP all-reduces one bucket per unit. Nothing overlaps: every collective waits for
// the backward (chapter 4 shows how much overlap hides), so a step is compute plus communication.
import * as tf from '@tensorflow/tfjs';
import { dist, plot } from 'ranks';

const GPT2_SMALL = 124_439_808, // parameters, with the output layer tied to the token embedding
  tokensPerGpu = 8 * 1024, // 8 sequences of 1,024 tokens
  units = 4, // of 3 GPT-2 blocks each (21.3M parameters)
  d = 32, // toy width: a unit is d × d, the embedding vocab × d (GPT-2's 39.4M : 21.3M is 1.85 : 1)
  vocab = 60,
  rows = 4,
  lr = 0.1;
const shapes = [[vocab, d], ...Array.from({ length: units }, () => [d, d])] as [number, number][];
const sizesOf = shapes.map(([a, b]) => a * b);
const toyParams = sizesOf.reduce((a, b) => a + b, 0);
const initial = shapes.map((s, u) => tf.randomNormal(s, 0, 0.2, 'float32', 7 + u));
const X = tf.randomNormal([rows, vocab], 0, 1, 'float32', 1 + dist.rank);
const Y = tf.randomNormal([rows, d], 0, 1, 'float32', 100 + dist.rank);
const loss = (ws: tf.Tensor[]) =>
  tf.tidy(() => {
    let h = tf.tanh(X.matMul(ws[0]!));
    for (const w of ws.slice(1)) h = tf.tanh(h.matMul(w));
    return tf.losses.meanSquaredError(Y, h) as tf.Scalar;
  });
const gradsOf = (ws: tf.Tensor[]) => tf.grads((...v: tf.Tensor[]) => loss(v))(ws);

const clock = async () =>
  dist.simulation ? await dist.simulation.now() : performance.now() / 1000;
/** A unit's flat parameters padded to a multiple of k, as FSDP2 pads dim 0 to shard it evenly. */
const padded = (t: tf.Tensor, k: number) => {
  const n = t.size,
    m = Math.ceil(n / k) * k;
  return tf.tidy(() => tf.pad(t.reshape([n]), [[0, m - n]]));
};

/** DDP: every rank holds the whole model; after backward each unit's gradient is all-reduced (one bucket a unit). */
async function ddpStep(group: ReturnType<typeof dist.newGroup>): Promise<tf.Tensor[]> {
  const grads = gradsOf(initial);
  // Backward produces the last unit's gradient first: DDP's buckets go in that order.
  const works = grads
    .map((g, u) => ({ g, u }))
    .reverse()
    .map(({ g, u }) => ({ u, work: dist.allReduce(g, { op: 'avg', group, async: true }) }));
  const next: tf.Tensor[] = [];
  for (const { u, work } of works) {
    const avg = await work.wait();
    next[u] = tf.tidy(() => initial[u]!.sub(avg.mul(lr)));
    avg.dispose();
  }
  tf.dispose(grads);
  return next;
}

/** FSDP: every rank holds 1/k of each unit; all-gather before use, reduce-scatter the gradients after. */
async function fsdpStep(group: ReturnType<typeof dist.newGroup>): Promise<tf.Tensor[]> {
  const k = group.size;
  // The starting shards are set-up, not part of the step (uncharged: no virtual time).
  const cut = () =>
    initial.map((w) =>
      tf.tidy(() => {
        const p = padded(w, k);
        return p.slice([group.rank * (p.size / k)], [p.size / k]);
      }),
    );
  const shards = dist.simulation?.uncharged(cut) ?? cut();
  // Every collective of a phase is issued at once (async) and waited in order: the communication stream
  // runs them one after another, as NCCL's would, and this machine switches ranks fewer times.
  const gather = (us: number[]) =>
    us.map((u) => ({ u, work: dist.allGather(shards[u]!, { group, async: true }) }));
  const unpack = async ({ u, work }: { u: number; work: { wait(): Promise<tf.Tensor> } }) => {
    const all = await work.wait();
    const t = tf.tidy(() => all.reshape([-1]).slice([0], [sizesOf[u]!]).reshape(shapes[u]!));
    all.dispose();
    return t;
  };
  const order = shapes.map((_, u) => u);
  // Forward gathers every unit (the root, then unit 1, 2, …) ...
  const full: tf.Tensor[] = [];
  for (const g of gather(order)) full.push(await unpack(g));
  const grads = gradsOf(full);
  // ... and backward gathers the units again (reshard_after_forward=True frees them after forward).
  // tfjs computes forward and backward in one call, so these come after it; without overlap a
  // step's total is the same either way.
  for (const g of gather(order.slice(1).reverse())) tf.dispose(await unpack(g));
  // Each rank keeps the average of its own shard of every gradient, and updates only that shard.
  const padded_ = order.map((u) => padded(grads[u]!, k));
  const scatters = order
    .slice()
    .reverse()
    .map((u) => ({ u, work: dist.reduceScatter(padded_[u]!, { op: 'avg', group, async: true }) }));
  const next: tf.Tensor[] = [];
  for (const { u, work } of scatters) {
    const mine = await work.wait();
    next[u] = tf.tidy(() => shards[u]!.sub(mine.mul(lr)));
    mine.dispose();
  }
  tf.dispose(padded_);
  tf.dispose([...shards, ...full, ...grads]);
  return next;
}

const world = dist.worldSize;
const gpusPerNode = dist.simulation?.cluster.gpusPerNode ?? world;
const sizes = [8, 16, 32, 64, 128, 256, 512].filter((k) => k < world).concat(world);
// Phases of groups side by side: each size below the world gets its own ranks (largest first, a new
// phase when the ranks run out), then the whole world. A group starts on a node boundary.
const phases: { size: number; first: number }[][] = [];
for (const size of sizes.slice(0, -1).reverse()) {
  const fits = phases.find((p) => world - p.reduce((a, g) => a + g.size, 0) >= size);
  const phase = fits ?? (phases.push([]), phases.at(-1)!);
  phase.push({ size, first: phase.reduce((a, g) => a + g.size, 0) });
}
phases.push([{ size: world, first: 0 }]);
// Charged per GPU as GPT-2 small on tokensPerGpu tokens, whichever group a rank is in.
dist.simulation?.chargeAs(
  { params: GPT2_SMALL, tokensPerStep: tokensPerGpu * world },
  { params: toyParams, tokensPerStep: rows * world },
);

// Seconds per step, per size: [DDP..., FSDP...], filled in by each group's first rank.
const times = new Float32Array(2 * sizes.length);
let agree = 0;
for (const [p, phase] of phases.entries()) {
  const name = p === phases.length - 1 ? 'the whole world' : `groups side by side (${p + 1})`;
  // Every rank makes every group, in the same order, as torch.distributed.new_group requires.
  const groups = phase.map((g) => ({
    ...g,
    handle: dist.newGroup(Array.from({ length: g.size }, (_, i) => g.first + i)),
  }));
  const mine = groups.find((g) => g.handle.rank >= 0);
  // The DDP step and the FSDP step are one step each in the step report; a rank with no group this
  // phase ends two empty ones, so step numbers agree.
  if (!mine) {
    for (const method of ['DDP', 'FSDP']) {
      dist.simulation?.configuration(`${method}, ${name}`);
      await dist.simulation?.endStep();
    }
  } else {
    const { handle: group, size } = mine;
    const at = sizes.indexOf(size);
    dist.simulation?.configuration(`DDP, ${name}`);
    const t0 = await clock();
    const ddpNext = await ddpStep(group);
    await dist.simulation?.endStep();
    const t1 = await clock();
    dist.simulation?.configuration(`FSDP, ${name}`);
    const fsdpNext = await fsdpStep(group);
    await dist.simulation?.endStep();
    const t2 = await clock();
    if (group.rank === 0) {
      times[at] = t1 - t0;
      times[sizes.length + at] = t2 - t1;
    }
    // FSDP's updated shard is this rank's slice of DDP's updated weights (one read for all units): a
    // check, not part of the job (uncharged).
    const check = () =>
      tf.tidy(() =>
        tf
          .stack(
            fsdpNext.map((shard, u) =>
              padded(ddpNext[u]!, size)
                .slice([group.rank * shard.size], [shard.size])
                .sub(shard)
                .abs()
                .max(),
            ),
          )
          .max(),
      );
    const diff = dist.simulation?.uncharged(check) ?? check();
    agree = Math.max(agree, (await diff.data())[0]!);
    diff.dispose();
    tf.dispose([...ddpNext, ...fsdpNext]);
  }
  if (p === phases.length - 1) break;
  // The next phase starts together. The wait is a step of its own: a rank with no group (or a smaller
  // one) waits here for the slowest group, which would otherwise count in the next phase's first step.
  dist.simulation?.configuration('between phases: waiting for the slowest group');
  await dist.barrier();
  await dist.simulation?.endStep();
}

// Two all-reduces bring every group's times, and the largest DDP–FSDP difference, to every rank.
const read = async (t: tf.Tensor, op: 'sum' | 'max') => {
  const r = await dist.allReduce(t, { op });
  const v = Array.from(await r.data());
  tf.dispose([t, r]);
  return v;
};
const summed = await read(tf.tensor1d(times), 'sum');
const [gap] = await read(tf.scalar(agree), 'max');
const ddpT = summed.slice(0, sizes.length),
  fsdpT = summed.slice(sizes.length);
const ms = (s: number) => `${(s * 1000).toFixed(1)} ms`;
const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
// Every rank prints the same table (a large world's output folds identical lines into one); rank 0 plots.
console.log(
  dist.simulation
    ? `times: virtual, on the simulated cluster (${dist.simulation.cluster.preset}), charged as GPT-2 small on ${tokensPerGpu.toLocaleString('en')} tokens per GPU`
    : 'times: wall clock, measured on this machine (the toy model, not GPT-2)',
);
const efficiency = (t: number[], i: number) => t[0]! / t[i]!;
const chart = `scaling efficiency against ${sizes[0]} GPUs (%)`;
sizes.forEach((k, i) => {
  const nodes = Math.ceil(k / gpusPerNode);
  const where = `${String(k).padStart(4)} GPUs on ${String(nodes).padStart(3)} node${nodes === 1 ? ' ' : 's'}`;
  console.log(
    `${where}: DDP step ${ms(ddpT[i]!)}, scaling efficiency ${pct(efficiency(ddpT, i))}; FSDP step ${ms(fsdpT[i]!)}, ${pct(efficiency(fsdpT, i))}`,
  );
  if (dist.rank !== 0) return;
  plot.line('step time (ms)', k, ddpT[i]! * 1000, { series: 'DDP' });
  plot.line('step time (ms)', k, fsdpT[i]! * 1000, { series: 'FSDP' });
  plot.line(chart, k, 100 * efficiency(ddpT, i), { series: 'DDP' });
  plot.line(chart, k, 100 * efficiency(fsdpT, i), { series: 'FSDP' });
});
const last = sizes.length - 1;
if (last > 0)
  console.log(
    `FSDP loses more efficiency than DDP on ${world} GPUs: ${efficiency(fsdpT, last) < efficiency(ddpT, last)}`,
  );
console.log(`FSDP's weights equal DDP's after one step, in every group: ${gap! <= 1e-6}`);
