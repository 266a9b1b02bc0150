// A data-parallel run at any world size, built from the 'ranks' helpers: DDP over an MLP with SGD, each rank
// training on its own rows of one global batch, one virtual step per trainStep. Rank 0 then trains the same MLP
// on the whole global batch on one device and prints how far the two sets of weights are apart.
// Run: npm run ranks -- run tests/bench/scale-programs/ddp-trainer.ts --cluster h100-ndr --nodes 128 --gpus-per-node 8
import * as tf from '@tensorflow/tfjs';
import { dist, DDP, mlp, SGD, SingleDeviceTrainer } from 'ranks';

const widths = [6, 16, 16, 2];
const rowsPerRank = 2;
const steps = 3;
const lr = 0.1;

/** Rows [first, first + count) of the global batch: the same formula on every rank, as if read from one file. */
function rows(first: number, count: number): [tf.Tensor2D, tf.Tensor2D] {
  const xs: number[][] = [];
  const ys: number[][] = [];
  for (let k = first; k < first + count; k++) {
    const x = [0, 1, 2, 3, 4, 5].map((j) => Math.sin(0.37 * k + j));
    xs.push(x);
    ys.push([Math.cos(0.11 * k), x[0]! * x[1]!]);
  }
  return [tf.tensor2d(xs), tf.tensor2d(ys)];
}

const [x, y] = rows(dist.rank * rowsPerRank, rowsPerRank);
const ddp = await DDP(mlp(widths, { seed: 3 }), { optimizer: new SGD({ lr }) });
let loss = 0;
for (let s = 0; s < steps; s++) loss = await ddp.trainStep(x, y); // each ends a virtual step
const mine = await ddp.snapshot();

if (dist.rank === 0) {
  const reference = async () => {
    const [gx, gy] = rows(0, rowsPerRank * dist.worldSize);
    const single = new SingleDeviceTrainer(mlp(widths, { seed: 3 }), new SGD({ lr }));
    for (let s = 0; s < steps; s++) await single.trainStep(gx, gy);
    return single.model.snapshot();
  };
  // The reference check is not part of the simulated job: it costs no virtual time.
  const ref = await (dist.simulation?.uncharged(reference) ?? reference());
  let gap = 0;
  for (const [name, values] of Object.entries(ref))
    values.forEach((v, i) => (gap = Math.max(gap, Math.abs(v - mine[name]![i]!))));
  console.log(
    `${Object.keys(ref).length} tensors, largest gap to one device: ${gap.toExponential(1)}`,
  );
  console.log(`equal to one device within 1e-4: ${gap <= 1e-4}`);
}
console.log(`trained ${steps} steps on ${rowsPerRank} rows of ${rowsPerRank * dist.worldSize}`);
if (dist.rank === 0) console.log(`rank 0's loss on its rows: ${loss.toFixed(4)}`);
