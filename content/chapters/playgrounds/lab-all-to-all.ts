// allToAll from send and recv: rank r cuts its buffer into n blocks and sends block j to rank j,
// which stores it as its block r. The runtime has no allToAll; NCCL builds it the same way: nccl-tests'
// alltoall.cu (and PyTorch's all_to_all_single before NCCL 2.28) issue one ncclSend and one ncclRecv
// per peer inside ncclGroupStart/ncclGroupEnd. Expert parallelism routes tokens to experts with it,
// and Ulysses-style context parallelism swaps a sequence shard for a head shard with it.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const n = dist.worldSize,
  r = dist.rank;
const B = 3; // elements per block
// Block j of rank r holds 100·r + 10·j + k: who sends it, to whom, which element.
const input = tf.tensor(
  Array.from({ length: n * B }, (_, i) => 100 * r + 10 * Math.floor(i / B) + (i % B)),
);
const blocks = tf.split(input, n);

// Step s pairs a send to rank r + s with a receive from rank r − s, so every rank talks to a
// different peer at once; the sends are asynchronous, so no rank waits on another's receive.
const sends = [];
const received: tf.Tensor[] = [];
received[r] = blocks[r]!; // the block a rank keeps never leaves it
for (let s = 1; s < n; s++) {
  const to = (r + s) % n,
    from = (r - s + n) % n;
  sends.push(dist.send(blocks[to]!, { dst: to, async: true }));
  received[from] = await dist.recv([B], { src: from });
}
for (const h of sends) await h.wait();
const got = Array.from(await tf.concat(received).data());

// The definition: block i of rank r's output is block r of rank i's input.
const expected = Array.from(
  { length: n * B },
  (_, i) => 100 * Math.floor(i / B) + 10 * r + (i % B),
);
const D = n * B * 4; // bytes of each rank's buffer (float32)
const sent = dist.commStats().send?.sent ?? 0;
console.log(`rank ${r} received:`, got);
console.log(`rank ${r}: sent ${sent} bytes = (n−1)/n · D = ${((n - 1) / n) * D}`);
console.log(`allToAll ok: ${got.every((v, i) => v === expected[i])}`);
