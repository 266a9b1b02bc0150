// Exercise 3: time forward, backward and the gradient all-reduce of a small MLP, and their ratio.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const widths = [256, 512, 512, 10], batch = 32, steps = 4;
const layers = widths.slice(1).map((out, i) => tf.variable(tf.randomNormal([widths[i]!, out], 0, 0.05, 'float32', 7 + i)));
const x = tf.randomNormal([batch, widths[0]!], 0, 1, 'float32', 100 + dist.rank);
const labels = tf.oneHot(tf.tensor1d(Array.from({ length: batch }, (_, i) => (i + dist.rank) % 10), 'int32'), 10);
const forward = () => layers.reduce((h, w, i) => (i < layers.length - 1 ? tf.relu(h.matMul(w)) : h.matMul(w)), x as tf.Tensor);
const loss = () => tf.losses.softmaxCrossEntropy(labels, forward()) as tf.Scalar;

const totals = { forward: 0, backward: 0, communication: 0 };
for (let step = 0; step < steps; step++) {
  await dist.barrier();
  let t = performance.now();
  const out = forward(); await out.data(); out.dispose();       // .data() waits for the kernels to finish
  const tForward = performance.now() - t;
  t = performance.now();
  const { grads } = tf.variableGrads(loss);                    // forward again + backward
  await Promise.all(Object.values(grads).map((g) => g.data()));
  const tBackward = Math.max(0, performance.now() - t - tForward);
  t = performance.now();
  const reduced = await Promise.all(Object.values(grads).map((g) => dist.allReduce(g, { op: 'avg' })));
  const tComm = performance.now() - t;
  if (step > 0) { totals.forward += tForward; totals.backward += tBackward; totals.communication += tComm; } // step 0 warms up
  [...Object.values(grads), ...reduced].forEach((g) => g.dispose());
}
const n = steps - 1, f = totals.forward / n, b = totals.backward / n, c = totals.communication / n;
console.log(`rank ${dist.rank}: forward ${f.toFixed(2)} ms, backward ${b.toFixed(2)} ms, all-reduce ${c.toFixed(2)} ms`);
console.log(`communication/computation ratio: ${(c / (f + b)).toFixed(2)}`);
