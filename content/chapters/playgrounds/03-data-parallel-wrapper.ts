// A data-parallel trainer that reuses a single-device trainer and overrides only backward():
// forward is untouched, backward averages the gradients with one all-reduce per tensor.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

type Params = Record<string, tf.Variable>;

class SingleDevice {
  constructor(readonly params: Params) {}
  forward(x: tf.Tensor2D): tf.Tensor2D {
    return tf
      .tanh(x.matMul(this.params['layer_0/weights']!))
      .matMul(this.params['layer_1/weights']!) as tf.Tensor2D;
  }
  /** Gradients of the mean squared error on this device's rows. */
  async backward(x: tf.Tensor2D, y: tf.Tensor2D): Promise<Record<string, tf.Tensor>> {
    const { grads } = tf.variableGrads(
      () => tf.losses.meanSquaredError(y, this.forward(x)) as tf.Scalar,
      Object.values(this.params),
    );
    return Object.fromEntries(Object.entries(this.params).map(([key, v]) => [key, grads[v.name]!]));
  }
  async step(x: tf.Tensor2D, y: tf.Tensor2D, lr: number): Promise<void> {
    const grads = await this.backward(x, y);
    for (const [name, g] of Object.entries(grads))
      this.params[name]!.assign(this.params[name]!.sub(g.mul(lr)));
  }
}

class DataParallel extends SingleDevice {
  override async backward(x: tf.Tensor2D, y: tf.Tensor2D): Promise<Record<string, tf.Tensor>> {
    const local = await super.backward(x, y); // 1. local gradients on this rank's rows
    const synced: Record<string, tf.Tensor> = {};
    for (const [name, g] of Object.entries(local))
      synced[name] = await dist.allReduce(g, { op: 'avg' }); // 2. average
    return synced;
  }
}

const n = dist.worldSize,
  rowsPerRank = 8,
  d = 6,
  h = 10,
  f = 2,
  steps = 10,
  lr = 0.2;
const X = tf.randomNormal([n * rowsPerRank, d], 0, 1, 'float32', 1) as tf.Tensor2D; // every rank builds the same data
const Y = tf.randomNormal([n * rowsPerRank, f], 0, 1, 'float32', 2) as tf.Tensor2D;
const init = (copy: string): Params => ({
  'layer_0/weights': tf.variable(
    tf.randomNormal([d, h], 0, 0.5, 'float32', 3),
    true,
    `${copy}/layer_0`,
  ),
  'layer_1/weights': tf.variable(
    tf.randomNormal([h, f], 0, 0.5, 'float32', 4),
    true,
    `${copy}/layer_1`,
  ),
});
// Start from rank 0's weights, as DDP does at construction (here they are equal already, by seed).
const ddpParams = init('ddp');
for (const v of Object.values(ddpParams)) v.assign(await dist.broadcast(v, { src: 0 }));
const ddp = new DataParallel(ddpParams);
const myX = X.slice([dist.rank * rowsPerRank, 0], [rowsPerRank, d]);
const myY = Y.slice([dist.rank * rowsPerRank, 0], [rowsPerRank, f]);
for (let s = 0; s < steps; s++) await ddp.step(myX, myY, lr);

// Reference: one device, the whole batch, the same steps from the same initial values.
const single = new SingleDevice(init('single'));
for (let s = 0; s < steps; s++) await single.step(X, Y, lr);

let gap = 0;
for (const name of Object.keys(ddpParams))
  gap = Math.max(gap, (await ddpParams[name]!.sub(single.params[name]!).abs().max().data())[0]!);
const loss = (await tf.losses.meanSquaredError(Y, ddp.forward(X)).data())[0]!;
console.log(
  `rank ${dist.rank}: loss on the full batch after ${steps} steps ${loss.toFixed(4)}, max weight gap ${gap.toExponential(1)}`,
);
console.log(`data-parallel weights match single device: ${gap < 1e-5}`);
