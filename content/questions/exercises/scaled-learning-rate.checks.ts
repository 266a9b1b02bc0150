// @ts-nocheck -- a fragment appended to the reader's program: dist, tf and the function under test come from it.
// Hidden checks: several batch sizes, warm-up lengths and steps, at this run's world size.
{
  const n = dist.worldSize;
  const cases = [
    { step: 0, baseLr: 0.1, baseBatch: 256, micro: 32, warmup: 0 },
    { step: 0, baseLr: 0.1, baseBatch: 256, micro: 32, warmup: 4 },
    { step: 2, baseLr: 0.1, baseBatch: 256, micro: 32, warmup: 4 },
    { step: 10, baseLr: 3e-4, baseBatch: 8, micro: 16, warmup: 5 },
    { step: 4, baseLr: 1e-3, baseBatch: 64, micro: 8, warmup: 5 },
  ];
  const failures = [];
  for (const c of cases) {
    const peak = (c.baseLr * (c.micro * n)) / c.baseBatch;
    const want = c.warmup > 0 && c.step < c.warmup ? (peak * (c.step + 1)) / c.warmup : peak;
    const got = learningRate(c.step, c.baseLr, c.baseBatch, c.micro, c.warmup);
    if (typeof got !== 'number' || Math.abs(got - want) > 1e-12 * Math.max(1, want))
      failures.push(
        `step ${c.step} (micro ${c.micro} × ${n} ranks, base ${c.baseLr} at ${c.baseBatch}, warm-up ${c.warmup}): got ${got}, expected ${want}`,
      );
  }
  if (failures.length === 0) console.log('CHECK PASS linear scaling with warm-up');
  else
    console.log(
      `CHECK FAIL rank ${dist.rank}: ${failures[0]}${failures.length > 1 ? ` (and ${failures.length - 1} more)` : ''}`,
    );
}
