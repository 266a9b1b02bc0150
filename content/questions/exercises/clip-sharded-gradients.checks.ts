// @ts-nocheck -- a fragment appended to the reader's program: dist, tf and the function under test come from it.
// Hidden checks: shards of different sizes of norm, clipped against one device's clip_grad_norm_.
{
  const n = dist.worldSize,
    len = 16;
  const full = Array.from(
    { length: n * len },
    (_, i) => (((i * 7) % 13) - 6) * (1 + Math.floor(i / len)),
  ); // later ranks hold larger values
  const fullNorm = Math.sqrt(full.reduce((s, v) => s + v * v, 0));
  const failures = [];
  for (const maxNorm of [1, 10 * fullNorm]) {
    const scale = Math.min(1, maxNorm / (fullNorm + 1e-6));
    const mine = full.slice(dist.rank * len, (dist.rank + 1) * len);
    const { clipped, totalNorm } = await clipShard(tf.tensor1d(mine), maxNorm);
    const got = Array.from(await clipped.data());
    const bad = mine.findIndex(
      (v, i) => Math.abs(got[i] - v * scale) > 1e-4 * Math.max(1, Math.abs(v * scale)),
    );
    const shardNorm = (r: number) =>
      Math.sqrt(full.slice(r * len, (r + 1) * len).reduce((s, v) => s + v * v, 0));
    const close = (x: number) => Math.abs(totalNorm - x) <= 1e-3 * x;
    if (!close(fullNorm) && failures.length === 0) {
      // Name the usual wrong roots: one per shard then summed, the average of the squares, or no all-reduce.
      if (close(Array.from({ length: n }, (_, r) => shardNorm(r)).reduce((s, v) => s + v, 0)))
        console.log('CHECK MISTAKE root-per-shard');
      else if (close(fullNorm / Math.sqrt(n))) console.log('CHECK MISTAKE averaged-squares');
      else if (close(fullNorm * fullNorm)) console.log('CHECK MISTAKE missing-root');
      else if (close(shardNorm(dist.rank))) console.log('CHECK MISTAKE not-combined');
    }
    if (Math.abs(totalNorm - fullNorm) > 1e-3 * fullNorm)
      failures.push(
        `max_norm ${+maxNorm.toFixed(2)}: total norm ${totalNorm}, expected ${fullNorm} (the norm of the whole gradient)`,
      );
    else if (got.length !== len || bad >= 0)
      failures.push(
        `max_norm ${+maxNorm.toFixed(2)}: element ${bad} is ${got[bad]}, expected ${mine[bad] * scale}`,
      );
  }
  if (failures.length === 0) console.log('CHECK PASS clipped by the global norm');
  else console.log(`CHECK FAIL rank ${dist.rank}: ${failures[0]}`);
}
