import { describe, expect, it } from 'vitest';
import { runProgram } from '../../../playground/cluster/node.ts';

/**
 * A named model's compute is charged by the training wrappers only (rank-simulation.ts chargeKernel): a
 * hand-written loop under one is told so at its first step, instead of reporting steps of communication alone.
 * Cost: two 2-rank runs of well under a second each.
 */
async function warnings(code: string): Promise<string[]> {
  const { record } = await runProgram({
    code,
    worldSize: 2,
    backend: 'cpu',
    timeoutMs: 60_000,
    cluster: { preset: 'h100-ndr', nodes: 1, gpusPerNode: 2 },
  });
  expect(record.ranks.flatMap((r) => record.errors(r.rank).map((l) => l.text))).toEqual([]);
  return record.ranks[0]!.lines.filter((l) => l.kind === 'warn').map((l) => l.text);
}

describe(
  'chargeAs a named model in a loop without the training wrappers',
  { timeout: 120_000 },
  () => {
    const loop = (charge: string) => `import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';
dist.simulation!.chargeAs(${charge}, { params: 80, tokensPerStep: 8 });
const w = tf.variable(tf.ones([8, 10]), true, 'w');
for (let s = 0; s < 2; s++) {
  const { grads } = tf.variableGrads(() => tf.ones([8, 8]).matMul(w).sum() as tf.Scalar);
  w.assign(w.sub((await dist.allReduce(grads['w']!, { op: 'avg' })).mul(0.1)));
  await dist.simulation!.endStep();
}`;

    it('says once that the step charged no compute, and how to charge it', async () => {
      const said = await warnings(loop("{ model: 'llama-2-7b', tokensPerStep: 4096 }"));
      const notes = said.filter((t) => t.includes('charged no compute'));
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatch(/step 0 charged no compute: chargeAs\(\{ model: 'llama-2-7b' \}\)/);
      expect(notes[0]).toContain('chargeAs({ params, tokensPerStep })');
    });

    it('is silent when the loop is charged by parameter count (its kernels are scaled)', async () => {
      const said = await warnings(loop('{ params: 7e9, tokensPerStep: 4096 }'));
      expect(said.filter((t) => t.includes('charged no compute'))).toEqual([]);
    });
  },
);
