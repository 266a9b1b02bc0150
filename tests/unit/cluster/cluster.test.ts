import { describe, expect, it } from 'vitest';
import { runProgram, startCluster } from '../../../playground/cluster/node.ts';
import type { ClusterEvent } from '../../../playground/cluster/protocol.ts';

const logs = (events: ClusterEvent[], rank: number) =>
  events
    .filter((e): e is Extract<ClusterEvent, { type: 'log' }> => e.type === 'log' && e.rank === rank)
    .map((e) => e.text);
const errors = (events: ClusterEvent[]) =>
  events.filter((e): e is Extract<ClusterEvent, { type: 'error' }> => e.type === 'error');

describe('cluster on worker_threads', () => {
  it('runs 4 ranks and every rank prints the all-reduced [10, 12]', async () => {
    const code = `import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';
const s = await dist.allReduce(tf.tensor([dist.rank + 1, 2 * dist.rank]));
console.log(Array.from(await s.data()));`;
    const { result, events } = await runProgram({ code, worldSize: 4, backend: 'cpu' });
    expect(result).toMatchObject({ ok: true, reason: 'finished' });
    for (let r = 0; r < 4; r++) expect(logs(events, r)).toEqual(['[10, 12]']);
    expect(
      events.filter((e) => e.type === 'backend').map((e) => (e as { backend: string }).backend),
    ).toEqual(['cpu', 'cpu', 'cpu', 'cpu']);
    expect(events.filter((e) => e.type === 'exit')).toHaveLength(4);
  });

  it('keeps each rank’s logs in call order, tags them, and formats tensors, objects and levels', async () => {
    const code = `import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';
for (let i = 0; i < 5; i++) console.log('line', i, 'of rank', dist.rank);
console.warn({ rank: dist.rank, tags: ['a'] });
console.log(tf.tensor([[1, 2], [3, 4.5]]));`;
    const { events } = await runProgram({ code, worldSize: 2, backend: 'cpu' });
    for (let r = 0; r < 2; r++) {
      expect(logs(events, r)).toEqual([
        ...[0, 1, 2, 3, 4].map((i) => `line ${i} of rank ${r}`),
        `{ rank: ${r}, tags: ["a"] }`,
        'Tensor [1, 2, 3, 4.5] shape=[2,2] float32',
      ]);
    }
    expect(events.find((e) => e.type === 'log' && e.level === 'warn')).toBeTruthy();
    const times = events
      .filter((e) => e.type === 'log' && e.rank === 0)
      .map((e) => (e as { time: number }).time);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('reports a syntax error with line and column before any rank starts', async () => {
    const { result, events } = await runProgram({
      code: 'const a = 1;\n\nconst b: number = ;',
      worldSize: 4,
    });
    expect(result).toMatchObject({
      ok: false,
      reason: 'compile-error',
      error: { line: 3, column: 19 },
    });
    expect(result.error?.message).toMatch(/Syntax error/);
    expect(events).toEqual([]);
  });

  it('rejects imports other than tfjs and ranks at compile time', async () => {
    const { result } = await runProgram({
      code: "import fs from 'node:fs';\nconsole.log(fs);",
      worldSize: 1,
    });
    expect(result).toMatchObject({ reason: 'compile-error', error: { line: 1 } });
    expect(result.error?.message).toContain("Cannot import 'node:fs'");
  });

  it('maps a runtime error to the reader’s line and fails waiting peers fast, naming the rank', async () => {
    const code = `import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';
const x: number = 1;
if (dist.rank === 1) {
  throw new RangeError('bad shard size');
}
await dist.allReduce(tf.tensor([x]));`;
    const started = performance.now();
    const { result, events } = await runProgram({ code, worldSize: 3, backend: 'cpu' });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({ ok: false, reason: 'error' });
    const own = errors(events).find((e) => e.rank === 1)!;
    expect(own).toMatchObject({ line: 5, message: 'RangeError: bad shard size' });
    for (const peer of [0, 2])
      expect(errors(events).find((e) => e.rank === peer)?.message).toContain('rank 1 failed');
  });

  it('stop() ends while(true){} at once', async () => {
    const running = startCluster(
      { code: 'while (true) {}', worldSize: 2, backend: 'cpu' },
      () => {},
    );
    await new Promise((r) => setTimeout(r, 300));
    const t0 = performance.now();
    running.stop();
    const result = await running.done;
    expect(performance.now() - t0).toBeLessThan(500);
    expect(result).toMatchObject({ ok: false, reason: 'stopped' });
  });

  it('a wall-clock limit ends a runaway program with a clear message on every rank', async () => {
    const { result, events } = await runProgram({
      code: 'while (true) {}',
      worldSize: 2,
      backend: 'cpu',
      timeoutMs: 1500,
    });
    expect(result.reason).toBe('timeout');
    expect(result.error?.message).toMatch(/time limit/);
    expect(
      errors(events)
        .map((e) => e.rank)
        .sort(),
    ).toEqual([0, 1]);
  });

  it('honours a forced backend and rejects bad options at the call', async () => {
    const { events } = await runProgram({
      code: "import { dist } from 'ranks';\nconsole.log(dist.backend);",
      worldSize: 2,
      backend: 'wasm',
    });
    expect(logs(events, 0)).toEqual(['wasm']);
    expect(() => startCluster({ code: '', worldSize: 0 }, () => {})).toThrow(/worldSize/);
    expect(() => startCluster({ code: '', worldSize: 1025 }, () => {})).toThrow(/worldSize/);
    expect(() =>
      startCluster({ code: '', worldSize: 2, backend: 'tpu' as never }, () => {}),
    ).toThrow(/backend/);
  });

  it('runs exercise checks after the program, in its scope', async () => {
    const code = 'const answer: number = 41 + 1;';
    const { events } = await runProgram({
      code,
      worldSize: 1,
      checks: "console.log(answer === 42 ? 'CHECK PASS' : 'CHECK FAIL');",
    });
    expect(logs(events, 0)).toEqual(['CHECK PASS']);
  });
});
