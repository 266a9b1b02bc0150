// @ts-nocheck -- a fragment appended to the reader's program: dist, tf and the function under test come from it.
// Hidden checks: values equal a per-tensor average (computed with all-gather), and the number of
// all-reduce calls equals the number of buckets DDP's rule gives for each cap.
{
  const shapes = [[64, 32], [32], [32, 32], [32], [32, 8], [8]];
  const grads = shapes.map((s, t) =>
    tf.tensor(
      Array.from(
        { length: s.reduce((a, b) => a * b, 1) },
        (_, i) => ((i * 13 + t * 7 + dist.rank * 5) % 17) - 8,
      ),
      s,
    ),
  );
  const expected: number[][] = [];
  for (const g of grads) expected.push(Array.from(await (await dist.allGather(g)).mean(0).data()));
  const bucketsFor = (cap: number) => {
    let count = 0,
      size = 0;
    for (let i = shapes.length - 1; i >= 0; i--) {
      size += shapes[i]!.reduce((a, b) => a * b, 1);
      if (size >= cap) {
        count++;
        size = 0;
      }
    }
    return count + (size > 0 ? 1 : 0);
  };
  for (const cap of [1100, 100000, 1]) {
    const calls = () => dist.commStats().allReduce?.calls ?? 0;
    const before = calls();
    const got = await allReduceBuckets(grads, cap);
    const made = calls() - before;
    const wanted = bucketsFor(cap);
    let problem = '';
    if (!Array.isArray(got) || got.length !== grads.length)
      problem = `returned ${Array.isArray(got) ? got.length : typeof got} gradients, expected ${grads.length}`;
    for (let t = 0; !problem && t < grads.length; t++) {
      if (got[t]!.shape.join() !== grads[t]!.shape.join()) {
        problem = `gradient ${t} has shape [${got[t]!.shape}], expected [${grads[t]!.shape}]`;
        break;
      }
      const a = Array.from(await got[t]!.data());
      const bad = a.findIndex((v, i) => Math.abs(v - expected[t]![i]!) > 1e-4);
      if (bad >= 0)
        problem = `gradient ${t}, element ${bad} is ${a[bad]}, expected the average ${expected[t]![bad]}`;
    }
    if (!problem && made !== wanted)
      problem = `cap ${cap}: made ${made} all-reduce calls, DDP's rule gives ${wanted} bucket${wanted === 1 ? '' : 's'}`;
    console.log(
      problem
        ? `CHECK FAIL rank ${dist.rank}: ${problem}`
        : `CHECK PASS cap ${cap}: ${made} all-reduce call${made === 1 ? '' : 's'}`,
    );
  }
}
