import { describe, expect, it } from 'vitest';
import { runProgram } from '../../../playground/cluster/node.ts';
import { tensorBudgetPerRank } from '../../../playground/rank/memory-budget.ts';

describe('a run has a tensor memory budget (issue 19, item 9)', () => {
  it('splits the run budget across ranks', () => {
    expect(tensorBudgetPerRank(4)).toBe(512 * 2 ** 20);
    expect(tensorBudgetPerRank(16)).toBe(128 * 2 ** 20);
    expect(tensorBudgetPerRank(256)).toBe(8 * 2 ** 20); // the run stays within 2 GiB at any world
    expect(tensorBudgetPerRank(2, 64 * 2 ** 20)).toBe(32 * 2 ** 20);
  });

  it('a rank that never disposes is stopped with a clear message, even if it catches the error', async () => {
    const code = `import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';
const kept: tf.Tensor[] = [];
for (let i = 0; ; i++) {
  try { kept.push(tf.zeros([1 << 20])); } catch { /* a careless program swallows errors */ }
  if (i % 8 === 0) await dist.barrier();
}`;
    const started = performance.now();
    const { result, events } = await runProgram({
      code,
      worldSize: 2,
      backend: 'cpu',
      tensorBudgetBytes: 64 * 2 ** 20,
      timeoutMs: 60_000,
    });
    expect(result).toMatchObject({ ok: false, reason: 'error' });
    expect(performance.now() - started).toBeLessThan(30_000);
    const errors = events.flatMap((e) => (e.type === 'error' ? [e.message] : []));
    expect(
      errors.some((m) =>
        /MemoryBudgetError: rank \d would hold \d+ MiB of tensors, over its share of the run's memory budget \(32 MiB\)/.test(
          m,
        ),
      ),
    ).toBe(true);
  });
});
