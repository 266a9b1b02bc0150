// @ts-nocheck -- a fragment appended to the reader's program: dist, tf and the function under test come from it.
// Hidden checks: unequal shards (rank r gets r + 2 rows), compared with one device on all rows.
{
  const n = dist.worldSize;
  const rowsOf = (r: number) => r + 2;
  const start = Array.from({ length: dist.rank }, (_, r) => rowsOf(r)).reduce((a, b) => a + b, 0);
  const total = Array.from({ length: n }, (_, r) => rowsOf(r)).reduce((a, b) => a + b, 0);
  const X = tf.tensor2d(
    Array.from({ length: total * 3 }, (_, i) => ((i * 7) % 11) / 10 - 0.5),
    [total, 3],
  );
  const Y = tf.tensor2d(
    Array.from({ length: total }, (_, i) => (i % 3) - 1),
    [total, 1],
  );
  const w = tf.tensor2d([[0.1], [-0.2], [0.3]]);
  const mine = await averagedGradient(
    X.slice([start, 0], [rowsOf(dist.rank), 3]) as tf.Tensor2D,
    Y.slice([start, 0], [rowsOf(dist.rank), 1]) as tf.Tensor2D,
    w,
  );
  const full = tf.grad((weights: tf.Tensor) =>
    tf.losses.meanSquaredError(Y, X.matMul(weights as tf.Tensor2D)),
  )(w);
  const a = Array.from(await mine.data());
  const b = Array.from(await full.data());
  const diff = Math.max(...b.map((v, i) => Math.abs(v - (a[i] ?? NaN))));
  // The usual wrong answers, computed here from every rank's own gradient, so a failure can name its mistake.
  const localOf = (r: number) => {
    const from = Array.from({ length: r }, (_, q) => rowsOf(q)).reduce((s, v) => s + v, 0);
    const xs = X.slice([from, 0], [rowsOf(r), 3]);
    const ys = Y.slice([from, 0], [rowsOf(r), 1]);
    return tf.grad((weights: tf.Tensor) =>
      tf.losses.meanSquaredError(ys, xs.matMul(weights as tf.Tensor2D)),
    )(w);
  };
  const locals = await Promise.all(Array.from({ length: n }, (_, r) => localOf(r).data()));
  const sum = b.map((_, i) => locals.reduce((s, g) => s + g[i], 0));
  const near = (ref: number[]) =>
    a.length === ref.length && ref.every((v, i) => Math.abs(v - a[i]) < 1e-5);
  if (!(a.length === b.length && diff < 1e-5)) {
    if (near(sum)) console.log('CHECK MISTAKE missing-world-size');
    else if (near(sum.map((v) => v / n))) console.log('CHECK MISTAKE equal-weight-average');
    else if (near(Array.from(locals[dist.rank]))) console.log('CHECK MISTAKE not-combined');
  }
  if (a.length === b.length && diff < 1e-5)
    console.log(`CHECK PASS unequal shards (${rowsOf(dist.rank)} of ${total} rows)`);
  else
    console.log(
      `CHECK FAIL rank ${dist.rank}: gradient differs from the full-batch gradient by ${diff.toExponential(2)} (this rank has ${rowsOf(dist.rank)} of ${total} rows)`,
    );
}
