// @ts-nocheck -- a fragment appended to the reader's program: dist, tf and the function under test come from it.
// Hidden checks: blocks whose spread differs 100-fold, gathered with a byte budget and a per-block error bound.
{
  const n = dist.worldSize,
    block = 64,
    blocks = 8,
    len = block * blocks;
  const valueOf = (r, i) =>
    Math.sin(1 + r * 97 + i * 0.37) * 0.001 * 10 ** (Math.floor(i / block) % 3); // block spreads 0.001, 0.01, 0.1
  const mine = Float32Array.from({ length: len }, (_, i) => valueOf(dist.rank, i));
  const sentBefore = dist.commStats().allGather?.sent ?? 0;
  const out = await quantizedAllGather(tf.tensor1d(mine), block);
  const sent = (dist.commStats().allGather?.sent ?? 0) - sentBefore;
  const got = Array.from(await out.data());
  const budget = (n - 1) * (len + (4 * len) / block); // int8 values plus fp32 scales
  let failure = null;
  if (got.length !== n * len) failure = `returned ${got.length} values, expected ${n * len}`;
  else if (sent > budget)
    failure = `sent ${sent} bytes in all-gathers; int8 values and one fp32 scale per block take ${budget}`;
  else
    for (let r = 0; r < n && !failure; r++)
      for (let b = 0; b < blocks && !failure; b++) {
        const vals = Array.from({ length: block }, (_, i) => valueOf(r, b * block + i));
        const step = Math.max(...vals.map(Math.abs)) / 127;
        const i = vals.findIndex(
          (v, k) => Math.abs(got[r * len + b * block + k] - v) > step * 0.51 + 1e-9,
        );
        if (i >= 0)
          failure = `rank ${r}'s block ${b}: value ${got[r * len + b * block + i]} for ${vals[i]}, more than half a quantization step (${step.toExponential(2)}) off`;
      }
  if (!failure) console.log('CHECK PASS int8 blockwise all-gather within budget and error');
  else console.log(`CHECK FAIL rank ${dist.rank}: ${failure}`);
}
