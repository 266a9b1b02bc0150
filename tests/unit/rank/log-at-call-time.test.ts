import { describe, expect, it } from 'vitest';
import { runProgram } from '../../../playground/cluster/node.ts';

describe('console.log prints a tensor as it was when logged (issue 19, item 8)', () => {
  it('disposing right after logging, or logging inside tf.tidy, still prints the values', async () => {
    const code = `import * as tf from '@tensorflow/tfjs';
const t = tf.tensor([1, 2, 3]);
console.log('disposed after:', t);
t.dispose();
tf.tidy(() => { const a = tf.tensor([[4, 5]]); console.log('in tidy:', a); });
const v = tf.variable(tf.tensor([7]));
console.log('before assign:', v);
v.assign(tf.tensor([8]));
console.log('leaked tensors:', tf.memory().numTensors);`;
    const { result, events } = await runProgram({ code, worldSize: 1, backend: 'cpu' });
    expect(result.ok).toBe(true);
    const lines = events.flatMap((e) => (e.type === 'log' ? [e.text] : []));
    expect(lines[0]).toBe('disposed after: Tensor [1, 2, 3] shape=[3] float32');
    expect(lines[1]).toBe('in tidy: Tensor [4, 5] shape=[1,2] float32');
    expect(lines[2]).toBe('before assign: Tensor [7] shape=[1] float32');
    expect(lines.join('\n')).not.toContain('disposed)');
  });
});
