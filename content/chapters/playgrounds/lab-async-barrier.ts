// Every collective can run asynchronously: start it, keep computing, then wait().
// barrier() returns once every rank has reached it.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const big = tf.ones([1 << 16]);
const work = dist.allReduce(big, { async: true }); // communication starts now
const busy = tf.matMul(tf.randomNormal([64, 64]), tf.randomNormal([64, 64])); // compute meanwhile
await busy.data();
console.log('compute finished; all-reduce done yet?', work.isCompleted());
const summed = await work.wait();
await dist.barrier();
console.log(`async allReduce ok: ${(await summed.data())[0] === dist.worldSize}`);
