// Check the local shard, then all-reduce the flag (max here; ShardedGradScaler.unscale_ all-reduces found_inf with the
// default SUM, so any nonzero result means some rank overflowed).
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

async function foundInf(gradShard: tf.Tensor): Promise<boolean> {
  const local = (await tf.logicalNot(tf.isFinite(gradShard)).any().data())[0] === 1;
  const anywhere = await dist.allReduce(tf.scalar(local ? 1 : 0), { op: 'max' });
  return (await anywhere.data())[0]! > 0;
}
