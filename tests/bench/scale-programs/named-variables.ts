// Data parallelism written by hand: named tf.variables, module-level state, tf.tidy, a timer, printing.
// Every rank keeps a linear model with a hidden layer, averages its gradients with one all-reduce per variable,
// and ends a virtual step after each update. Rank 0 repeats the training on the whole global batch alone.
// Run: npm run ranks -- run tests/bench/scale-programs/named-variables.ts --cluster h100-ndr --nodes 128 --gpus-per-node 8
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const me = dist.rank; // read once, at the top level
const world = dist.worldSize;
const rowsPerRank = 3;
const lr = 0.05;
let updates = 0; // module state: each rank has its own

/** Example k of the global batch: 4 features, 1 target. */
const example = (k: number) => {
  const f = [Math.sin(k), Math.cos(0.5 * k), ((k * 13) % 7) / 7 - 0.5, 1 / (1 + (k % 5))];
  return { f, t: 0.3 * f[0]! - 0.7 * f[1]! + f[2]! * f[3]! };
};
const batch = (first: number, count: number) => {
  const ex = Array.from({ length: count }, (_, i) => example(first + i));
  return { x: tf.tensor2d(ex.map((e) => e.f)), y: tf.tensor2d(ex.map((e) => [e.t])) };
};

/** Variables named the same on every rank: each rank's tfjs registry holds only its own. */
function model(prefix: string) {
  return {
    hidden: tf.variable(
      tf.tensor2d([0.2, -0.1, 0.05, 0.3, -0.25, 0.1, 0.15, -0.05], [4, 2]),
      true,
      `${prefix}/hidden`,
    ),
    out: tf.variable(tf.tensor2d([0.4, -0.3], [2, 1]), true, `${prefix}/out`),
  };
}
type Model = ReturnType<typeof model>;
const predict = (m: Model, x: tf.Tensor2D) => tf.tanh(x.matMul(m.hidden)).matMul(m.out);
const lossOf = (m: Model, x: tf.Tensor2D, y: tf.Tensor2D) => () =>
  tf.tidy(() => tf.losses.meanSquaredError(y, predict(m, x)) as tf.Scalar);

const local = model('net');
const mine = batch(me * rowsPerRank, rowsPerRank);
for (let step = 0; step < 4; step++) {
  const { value, grads } = tf.variableGrads(lossOf(local, mine.x, mine.y));
  for (const v of Object.values(local)) {
    const g = await dist.allReduce(grads[v.name]!, { op: 'avg' });
    tf.tidy(() => v.assign(v.sub(g.mul(lr))));
    g.dispose();
  }
  tf.dispose([value, ...Object.values(grads)]);
  updates++;
  await dist.simulation?.endStep();
}
await new Promise((resolve) => setTimeout(resolve, 1)); // a timer resumes this rank, not a thread-mate

const names = Object.keys(tf.engine().state.registeredVariables).sort().join(', ');
if (me === 0) {
  const reference = async () => {
    const ref = model('reference');
    const all = batch(0, rowsPerRank * world);
    for (let step = 0; step < 4; step++) {
      const { grads } = tf.variableGrads(lossOf(ref, all.x, all.y));
      for (const v of Object.values(ref)) tf.tidy(() => v.assign(v.sub(grads[v.name]!.mul(lr))));
      tf.dispose(Object.values(grads));
    }
    return ref;
  };
  const ref = await (dist.simulation?.uncharged(reference) ?? reference());
  let gap = 0;
  for (const k of ['hidden', 'out'] as const) {
    const [a, b] = [await local[k].data(), await ref[k].data()];
    a.forEach((v, i) => (gap = Math.max(gap, Math.abs(v - b[i]!))));
  }
  console.log(
    `largest gap to one device: ${gap.toExponential(1)}; equal within 1e-4: ${gap <= 1e-4}`,
  );
}
console.log(`rank ${me} of ${world}: ${updates} updates, variables ${names}`);
