// @ts-nocheck -- a fragment appended to the reader's program: dist, tf and the function under test come from it.
// Hidden checks: 3 rows per rank, different starting weights per rank, compared with one device
// training on all rows from rank 0's start.
{
  const features = 4,
    rowsPerRank = 3,
    steps = 4,
    lr = 0.1;
  const rows = rowsPerRank * dist.worldSize;
  const X = tf.tensor2d(
    Array.from({ length: rows * features }, (_, i) => ((i * 37) % 19) / 10 - 0.9),
    [rows, features],
  );
  const Y = tf.tensor2d(
    Array.from({ length: rows }, (_, i) => ((i * 11) % 7) / 5 - 0.6),
    [rows, 1],
  );
  const startOf = (r: number) =>
    tf.tensor2d(
      Array.from({ length: features }, (_, i) => ((i + 3 * r) % 5) / 10 - 0.2),
      [features, 1],
    );
  const mine = await trainDataParallel(
    X.slice([dist.rank * rowsPerRank, 0], [rowsPerRank, features]) as tf.Tensor2D,
    Y.slice([dist.rank * rowsPerRank, 0], [rowsPerRank, 1]) as tf.Tensor2D,
    startOf(dist.rank),
    steps,
    lr,
  );
  let ref: tf.Tensor = startOf(0);
  for (let s = 0; s < steps; s++)
    ref = ref.sub(
      tf
        .grad((w: tf.Tensor) => tf.losses.meanSquaredError(Y, X.matMul(w as tf.Tensor2D)))(ref)
        .mul(lr),
    );
  const a = Array.from(await mine.data());
  const b = Array.from(await ref.data());
  const diff = a.length === b.length ? Math.max(...b.map((v, i) => Math.abs(v - a[i]!))) : Infinity;
  // Summing instead of averaging takes n times the step: the same as training with n · lr.
  let summed: tf.Tensor = startOf(0);
  for (let s = 0; s < steps; s++)
    summed = summed.sub(
      tf
        .grad((w: tf.Tensor) => tf.losses.meanSquaredError(Y, X.matMul(w as tf.Tensor2D)))(summed)
        .mul(lr * dist.worldSize),
    );
  const c = Array.from(await summed.data());
  if (diff >= 1e-5 && a.length === c.length && c.every((v, i) => Math.abs(v - a[i]!) < 1e-5))
    console.log('CHECK MISTAKE missing-world-size');
  if (diff < 1e-5)
    console.log(`CHECK PASS weights match single-device training after ${steps} steps`);
  else
    console.log(
      `CHECK FAIL rank ${dist.rank}: weights differ from single-device training by ${a.length === b.length ? diff.toExponential(2) : `shape (${a.length} values, expected ${b.length})`}`,
    );
}
