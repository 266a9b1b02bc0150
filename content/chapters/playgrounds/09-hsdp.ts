// HSDP against FULL_SHARD on the whole cluster, in virtual time: the same step of the same model, sharded
// two ways. FULL_SHARD shards every unit over all GPUs, so its all-gathers and reduce-scatters cross the
// network. HSDP (fully_shard on a 2-D mesh of nodes × GPUs per node) shards within each node and keeps
// one replica per node: its all-gathers and reduce-scatters stay on NVLink, and only an all-reduce of
// each rank's shard, across the nodes, uses the network. The toy (a 32-wide MLP: an "embedding" and 4
// units) is charged as Llama 2 7B on 4,096 tokens per GPU, so each unit moves a quarter of its blocks'
// bytes. Written out with collectives, as chapter 6 built FSDP; nothing overlaps.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const LLAMA2_7B = 6_738_415_616,
  tokensPerGpu = 4096,
  units = 4,
  d = 32,
  rows = 4,
  lr = 0.1;
const world = dist.worldSize;
const perNode = dist.simulation?.cluster.gpusPerNode ?? world;
const nodes = world / perNode;
const shapes = Array.from({ length: units + 1 }, () => [d, d] as [number, number]);
const initial = shapes.map((s, u) => tf.randomNormal(s, 0, 0.2, 'float32', 7 + u));
const X = tf.randomNormal([rows, d], 0, 1, 'float32', 1 + dist.rank);
const Y = tf.randomNormal([rows, d], 0, 1, 'float32', 100 + dist.rank);
const gradsOf = tf.grads((...ws: tf.Tensor[]) =>
  tf.tidy(() => {
    let h = X;
    for (const w of ws) h = tf.tanh(h.matMul(w));
    return tf.losses.meanSquaredError(Y, h) as tf.Scalar;
  }),
);
dist.simulation?.chargeAs(
  { params: LLAMA2_7B, tokensPerStep: tokensPerGpu * world },
  { params: shapes.length * d * d, tokensPerStep: rows * world },
);
const clock = async () =>
  dist.simulation ? await dist.simulation.now() : performance.now() / 1000;
type Group = ReturnType<typeof dist.newGroup>;

/** One step sharded over `shard` (each rank keeps 1/k of every unit); with `replicate`, HSDP's all-reduce of the shard. */
async function step(shard: Group, replicate: Group | null): Promise<tf.Tensor[]> {
  const k = shard.size;
  const cut = () =>
    initial.map((w) => w.reshape([-1]).slice([shard.rank * (w.size / k)], [w.size / k]));
  const shards = dist.simulation?.uncharged(cut) ?? cut();
  const gather = async () => {
    const works = shards.map((s) => dist.allGather(s, { group: shard, async: true }));
    const out: tf.Tensor[] = [];
    for (let u = 0; u < works.length; u++) {
      const all = await works[u]!.wait();
      out.push(all.reshape(shapes[u]!));
      all.dispose();
    }
    return out;
  };
  const full = await gather(); // forward's all-gathers
  const grads = gradsOf(full);
  tf.dispose(full.slice(1));
  tf.dispose((await gather()).slice(1)); // backward gathers the units again (the root stays gathered)
  const scatters = grads.map((g) =>
    dist.reduceScatter(g.reshape([-1]), { op: 'avg', group: shard, async: true }),
  );
  const mine: tf.Tensor[] = [];
  for (const w of scatters) mine.push(await w.wait());
  // HSDP: each shard is averaged over the replicas too (one all-reduce per unit, across the nodes).
  const averaged = replicate
    ? await Promise.all(mine.map((g) => dist.allReduce(g, { op: 'avg', group: replicate })))
    : mine;
  const next = shards.map((s, u) => tf.tidy(() => s.sub(averaged[u]!.mul(lr))));
  tf.dispose([...shards, ...grads, full[0]!, ...mine, ...(replicate ? averaged : [])]);
  return next;
}

// Every rank makes every group, in the same order, as torch.distributed.new_group requires.
const everyone = dist.newGroup(Array.from({ length: world }, (_, r) => r));
const nodeGroups = Array.from({ length: nodes }, (_, n) =>
  dist.newGroup(Array.from({ length: perNode }, (_, g) => n * perNode + g)),
);
const railGroups = Array.from({ length: perNode }, (_, g) =>
  dist.newGroup(Array.from({ length: nodes }, (_, n) => n * perNode + g)),
);
const myNode = nodeGroups[Math.floor(dist.rank / perNode)]!;
const myRail = railGroups[dist.rank % perNode]!;

// Each is one step of its own configuration, so the step report under the output sets them side by side.
dist.simulation?.configuration('FULL_SHARD');
const t0 = await clock();
const fullShard = await step(everyone, null);
await dist.simulation?.endStep();
const t1 = await clock();
dist.simulation?.configuration('HSDP');
const hsdp = await step(myNode, myRail);
await dist.simulation?.endStep();
const t2 = await clock();
await dist.barrier();

// The step's time is the slowest rank's. HSDP's shard of a unit is this rank's slice of FULL_SHARD's weights.
const slowest = async (v: number) =>
  (await (await dist.allReduce(tf.scalar(v), { op: 'max' })).data())[0]!;
const [a, b] = [await slowest(t1 - t0), await slowest(t2 - t1)];
const works = fullShard.map((s) => dist.allGather(s, { group: everyone, async: true }));
let gap = 0;
for (let u = 0; u < works.length; u++) {
  const whole = await works[u]!.wait();
  const n = hsdp[u]!.size;
  const slice = whole.reshape([-1]).slice([myNode.rank * n], [n]);
  gap = Math.max(gap, (await slice.sub(hsdp[u]!).abs().max().data())[0]!);
  tf.dispose([whole, slice]);
}
gap = await slowest(gap);
const ms = (s: number) => `${(s * 1000).toFixed(1)} ms`;
const gb = (k: number) => `${((16 * LLAMA2_7B) / k / 1e9).toFixed(1)} GB`;
console.log(
  dist.simulation
    ? `times: virtual, on the simulated cluster (${dist.simulation.cluster.preset}), charged as Llama 2 7B on ${tokensPerGpu.toLocaleString('en')} tokens per GPU`
    : 'times: wall clock, measured on this machine (the toy model, not Llama 2)',
);
console.log(`FULL_SHARD over ${world} GPUs: step ${ms(a)}`);
console.log(`HSDP on a ${nodes} × ${perNode} mesh: step ${ms(b)}`);
console.log(
  `model states per GPU (16 bytes a parameter, sharded): FULL_SHARD ${gb(world)}, HSDP ${gb(perNode)}`,
);
if (nodes > 1) console.log(`HSDP's step is shorter: ${b < a}`);
console.log(`HSDP's weights equal FULL_SHARD's after one step: ${gap <= 1e-6}`);
