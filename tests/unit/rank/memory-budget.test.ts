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

  it("a program cannot switch it off: replacing trackTensor or zeroing the engine's count (issue 34, item 6)", async () => {
    const code = `import * as tf from '@tensorflow/tfjs';
const engine = tf.engine() as any;
try { engine.trackTensor = () => {}; console.log('replaced trackTensor'); } catch { console.log('trackTensor is locked'); }
try { delete engine.trackTensor; } catch { /* locked */ }
const kept: tf.Tensor[] = [];
for (let i = 0; i < 64; i++) { engine.state.numBytes = 0; kept.push(tf.zeros([1 << 20])); }
console.log('ALLOWED', kept.length * 4, 'MiB');`;
    const { result, events } = await runProgram({
      code,
      worldSize: 1,
      backend: 'cpu',
      tensorBudgetBytes: 32 * 2 ** 20,
      timeoutMs: 60_000,
    });
    const logs = events.flatMap((e) => (e.type === 'log' ? [e.text] : []));
    expect(logs).toContain('trackTensor is locked');
    expect(logs.join('\n')).not.toContain('ALLOWED');
    expect(result).toMatchObject({ ok: false, reason: 'error' });
    const errors = events.flatMap((e) => (e.type === 'error' ? [e.message] : []));
    expect(errors.join('\n')).toMatch(/over its share of the run's memory budget \(32 MiB\)/);
  });
});
