// @ts-nocheck -- a fragment appended to the reader's program: dist, tf and the function under test come from it.
// Hidden checks: compare ringAllReduce with dist.allReduce on sizes that do and do not divide evenly.
for (const size of [1, 7, 64, 1001]) {
  const x = tf.tensor1d(
    Array.from({ length: size }, (_, i) => ((i * 31 + dist.rank * 17) % 13) - 6),
  );
  const mine = await ringAllReduce(x);
  const ref = await dist.allReduce(x);
  const a = Array.from(await mine.data());
  const b = Array.from(await ref.data());
  const bad = a.length !== b.length ? -1 : a.findIndex((v, i) => Math.abs(v - b[i]!) > 1e-4);
  if (bad === -1 && a.length !== b.length)
    console.log(
      `CHECK FAIL rank ${dist.rank}: size ${size}: got ${a.length} elements, expected ${b.length}`,
    );
  else if (bad >= 0)
    console.log(
      `CHECK FAIL rank ${dist.rank}: size ${size}: element ${bad} is ${a[bad]}, expected ${b[bad]}`,
    );
  else console.log(`CHECK PASS size ${size}`);
}
