/**
 * The program the "check your browser" page runs on every rank: each collective against the value
 * it must produce, computed independently on every rank. Prints one line per check.
 */
export const SELF_TEST_PROGRAM = `import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const n = dist.worldSize;
const r = dist.rank;
const same = async (t: tf.Tensor, expected: number[]) => {
  const got = Array.from(await t.data());
  return got.length === expected.length && got.every((v, i) => Math.abs(v - expected[i]) < 1e-5);
};
const range = (k: number) => Array.from({ length: k }, (_, i) => i);
const results: [string, boolean][] = [];

const mine = tf.tensor([r + 1, 2 * r]);
const sumOf = (f: (k: number) => number) => range(n).reduce((a, k) => a + f(k), 0);
results.push(['allReduce ring', await same(await dist.allReduce(mine, { algorithm: 'ring' }), [sumOf((k) => k + 1), sumOf((k) => 2 * k)])]);
results.push(['allReduce two-shot', await same(await dist.allReduce(mine, { algorithm: 'two-shot' }), [sumOf((k) => k + 1), sumOf((k) => 2 * k)])]);
results.push(['allReduce max', await same(await dist.allReduce(mine, { op: 'max' }), [n, 2 * (n - 1)])]);
results.push(['broadcast', await same(await dist.broadcast(tf.tensor([r * 10 + 7]), { src: 0 }), [7])]);
results.push(['allGather', await same(await dist.allGather(tf.tensor([r])), range(n))]);
results.push(['reduceScatter', await same(await dist.reduceScatter(tf.tensor(range(n).map((k) => k + r))), [sumOf((k) => r + k)])]);
await dist.barrier();
const passed = results.filter(([, ok]) => ok).length;
for (const [name, ok] of results) console.log(\`\${ok ? 'ok  ' : 'FAIL'} \${name}\`);
console.log(\`self-test: \${passed}/\${results.length} passed on \${dist.backend}\`);
if (passed !== results.length) throw new Error('self-test failed');
`;
