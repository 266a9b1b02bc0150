// @ts-nocheck -- a fragment appended to the reader's program: dist, tf and the function under test come from it.
// Hidden checks: an inf on the last rank only, a NaN on rank 0 only, and no overflow anywhere.
{
  const n = dist.worldSize;
  const shard = (bad: number | undefined) =>
    tf.tensor1d(
      Array.from({ length: 8 }, (_, i) => (i === 3 && bad !== undefined ? bad : (i - 4) / 8)),
    );
  const cases = [
    {
      name: 'inf on the last rank',
      make: (r) => shard(r === n - 1 ? Infinity : undefined),
      want: true,
    },
    { name: 'NaN on rank 0', make: (r) => shard(r === 0 ? NaN : undefined), want: true },
    { name: 'no overflow', make: () => shard(undefined), want: false },
  ];
  const failures = [];
  for (const c of cases) {
    const got = await foundInf(c.make(dist.rank));
    if (got !== c.want)
      failures.push(`${c.name}: returned ${got}, expected ${c.want} on every rank`);
  }
  if (failures.length === 0) console.log('CHECK PASS every rank skips together');
  else console.log(`CHECK FAIL rank ${dist.rank}: ${failures.join('; ')}`);
}
