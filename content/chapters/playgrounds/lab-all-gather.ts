// allGather: every rank contributes a tensor and every rank receives all of them, stacked.
// ZeRO-3 and FSDP use it to reassemble sharded parameters before a layer runs.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const shard = tf.tensor([dist.rank, dist.rank + 0.5]);
const everyone = await dist.allGather(shard); // shape [worldSize, 2]
const rows = (await everyone.array()) as number[][];
console.log('all shards:', JSON.stringify(rows));
console.log(`allGather ok: ${rows.every((row, k) => row[0] === k && row[1] === k + 0.5)}`);
