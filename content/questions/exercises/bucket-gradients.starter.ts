// DDP packs gradients into buckets so each all-reduce pays its latency once.
// Make allReduceBuckets return every gradient averaged over all ranks, in the same order and shapes,
// using ONE all-reduce per bucket. Fill buckets as DDP does: take the gradients from the LAST one to
// the first (the order backward produces them) and close a bucket as soon as it holds at least
// `capElements` elements. The version below is correct but makes one call per tensor.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

async function allReduceBuckets(grads: tf.Tensor[], capElements: number): Promise<tf.Tensor[]> {
  const out: tf.Tensor[] = [];
  for (const g of grads) out.push(await dist.allReduce(g, { op: 'avg' }));
  return out;
}
