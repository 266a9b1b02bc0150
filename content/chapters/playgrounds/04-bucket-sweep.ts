// Bucket size sweep in virtual time: the same gradient volume all-reduced in buckets of different
// sizes. Small buckets pay NCCL's per-call latency many times (latency-bound); large ones move at
// the ring's bus bandwidth (bandwidth-bound). Charged as a 100M-parameter model's gradients.
import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';

const elements = 1 << 18, // this program's real gradient: 1 MiB of float32
  chargedParams = 1e8;
// Every collective's bytes × chargedParams / elements (bf16 on the wire); no compute is charged here.
dist.simulation?.chargeAs(
  { params: chargedParams, tokensPerStep: dist.worldSize },
  { params: elements, tokensPerStep: dist.worldSize },
);
/** Seconds on the run's clock: the cluster's virtual time, or this machine's. */
const clock = async () =>
  dist.simulation ? await dist.simulation.now() : performance.now() / 1000;
const grad = tf.randomNormal([elements], 0, 1, 'float32', 1 + dist.rank);
// Bytes on the wire: the charged model's bf16 gradients in virtual time, this program's float32 in real time.
const chargedBytes = (n: number) => (dist.simulation ? (n * 2 * chargedParams) / elements : n * 4);
if (dist.rank === 0)
  console.log(
    dist.simulation
      ? 'times: virtual, on the simulated cluster'
      : 'times: wall clock, measured on this machine',
  );
const fmt = (b: number) =>
  b >= 1e9
    ? `${(b / 1e9).toFixed(2)} GB`
    : b >= 1e6
      ? `${(b / 1e6).toFixed(1)} MB`
      : `${(b / 1e3).toFixed(0)} KB`;

const results: { bucket: number; seconds: number }[] = [];
let summed: Float32Array = new Float32Array();
for (const bucket of [1 << 10, 1 << 14, 1 << 18]) {
  const parts = tf.split(grad, elements / bucket);
  await dist.barrier();
  const t = await clock();
  // As DDP does: every bucket launched asynchronously, then all awaited.
  const works = parts.map((p) => dist.allReduce(p, { op: 'sum', async: true }));
  const reduced = await Promise.all(works.map((w) => w.wait()));
  const seconds = (await clock()) - t;
  if (bucket === elements) summed = await reduced[0]!.data<'float32'>();
  tf.dispose([...parts, ...reduced]);
  results.push({ bucket, seconds });
  if (dist.rank === 0) {
    const busbw = (2 * (dist.worldSize - 1) * chargedBytes(elements)) / dist.worldSize / seconds;
    console.log(
      `${String(elements / bucket).padStart(3)} bucket${bucket === elements ? ' ' : 's'} of ${fmt(chargedBytes(bucket))}: ${(seconds * 1000).toFixed(2)} ms, bus bandwidth ${(busbw / 1e9).toFixed(0)} GB/s`,
    );
  }
}
const [small, , large] = results;
console.log(
  `small buckets take ${(small!.seconds / large!.seconds).toFixed(1)}× as long as one bucket`,
);
console.log(`small buckets are latency-bound: ${small!.seconds > 2 * large!.seconds}`);
// The numbers moved: the summed gradient (mean in float64, so only the sum's own rounding differs anywhere).
const mean = summed.reduce((a, v) => a + v, 0) / summed.length;
const largest = summed.reduce((a, v) => Math.max(a, Math.abs(v)), 0);
console.log(`summed gradient: mean ${mean.toFixed(6)}, largest |g| ${largest.toFixed(6)}`);
