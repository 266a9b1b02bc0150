// Build a sum all-reduce from point-to-point messages only: a ring.
// Each rank sends to (rank + 1) % n and receives from (rank - 1 + n) % n.
// Phase 1 (reduce-scatter, n − 1 steps): pass chunks around, adding what arrives.
// Phase 2 (all-gather, n − 1 steps): pass the finished chunks around, copying what arrives.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

async function ringAllReduce(x: tf.Tensor1D): Promise<tf.Tensor1D> {
  const n = dist.worldSize;
  const next = (dist.rank + 1) % n;
  const prev = (dist.rank - 1 + n) % n;
  // TODO: split x into n chunks, run the two phases with dist.send / dist.recv,
  // and return the concatenated result. For now this returns the input unchanged.
  return x;
}

// Your function is checked against dist.allReduce on several inputs.
