// broadcast: one rank (src) sends its tensor; afterwards every rank holds a copy.
// Typical use: rank 0 initializes the weights and broadcasts them so all replicas start equal.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const mine = tf.tensor([dist.rank * 100, dist.rank * 100 + 1]); // different on every rank
const fromRoot = await dist.broadcast(mine, { src: 0 });
console.log('before', Array.from(await mine.data()), '→ after', Array.from(await fromRoot.data()));
console.log(`same as rank 0: ${(await fromRoot.data()).every((v, i) => v === i)}`);
