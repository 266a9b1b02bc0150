// FSDP's wrapping units: gather one layer's parameters at a time (prefetching the next while the
// current one computes), then free them. Peak gathered memory is about two units, not the model.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const layers = 6, width = 256, n = dist.worldSize, layerSize = width * width, shard = layerSize / n;
// Each rank owns 1/n of every layer, flattened: exactly what FULL_SHARD stores.
const full = Array.from({ length: layers }, (_, i) => tf.randomNormal([layerSize], 0, 0.05, 'float32', 1 + i)); // seed 0 would mean unseeded
const shards = full.map((p) => p.slice([dist.rank * shard], [shard]));
const x = tf.randomNormal([8, width], 0, 1, 'float32', 99);

// Bytes of gathered (unsharded) parameters alive at once, counted when a gather is issued.
let live = 0, peak = 0;
const gatherLayer = (i: number) => {
  live += layerSize * 4; peak = Math.max(peak, live);
  return dist.allGather(shards[i]!, { async: true });
};

let h: tf.Tensor = x;
let next = gatherLayer(0);
for (let i = 0; i < layers; i++) {
  const gathered = await next.wait();
  if (i + 1 < layers) next = gatherLayer(i + 1); // prefetch: the next unit arrives while this one computes
  const h2 = tf.relu(h.matMul(gathered.reshape([width, width])));
  if (h !== x) h.dispose();
  h = h2;
  gathered.dispose(); live -= layerSize * 4;                         // free the unit after use
}
const reference = full.reduce((a, w) => tf.relu(a.matMul(w.reshape([width, width]))), x as tf.Tensor);
const diff = (await h.sub(reference).abs().max().data())[0]!;
const wholeModel = layers * layerSize * 4;
console.log(`rank ${dist.rank}: stores ${layers * shard * 4} B of shards; peak gathered ${peak} B vs ${wholeModel} B for the whole model`);
console.log(`peak is ${(peak / (layerSize * 4)).toFixed(0)} units of ${layers}; output matches unsharded model: ${diff < 1e-4}`);
