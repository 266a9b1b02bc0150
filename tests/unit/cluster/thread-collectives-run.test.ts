// Issue 30, point 1: a program prints the same numbers and the same virtual step reports whichever way its ranks
// are placed: a worker each (every collective on the shared-memory engine), or two workers whose node groups
// live in one thread (by reference, playground/collectives/thread-collectives.ts) and whose world spans both (the
// all-reduce as a chain). Real worker threads, a simulated cluster of 2 nodes × 2 GPUs.
import { describe, expect, it } from 'vitest';
import { runProgram } from '../../../playground/cluster/node.ts';
import type { ClusterEvent } from '../../../playground/cluster/protocol.ts';

// Float32 bits, so an order of additions that differs shows. Node groups (ranks 0-1, 2-3) reduce-scatter and
// all-gather; the world all-reduces (avg), async and not; commStats and a virtual step each iteration.
const program = `import * as tf from '@tensorflow/tfjs';
import { dist } from 'ranks';
const bits = async (t) => Array.from(new Int32Array(new Float32Array(await t.data()).buffer)).join(',');
const node = dist.newGroup(dist.rank < 2 ? [0, 1] : [2, 3]);
const x = tf.tensor1d(Array.from({ length: 1032 }, (_, i) => Math.sin(dist.rank * 12.9898 + i * 78.233) * 10 ** ((dist.rank + i) % 7 - 3)));
for (let s = 0; s < 2; s++) {
  const work = dist.allReduce(x, { op: 'avg', async: true });
  const shard = await dist.reduceScatter(x, { op: 'sum', group: node });
  const full = await dist.allGather(shard, { group: node });
  const sum = await dist.allReduce(x);
  const all = await dist.allGather(shard);
  console.log(s, await bits(await work.wait()), await bits(shard), await bits(full), await bits(sum), await bits(all));
  dist.simulation.endStep();
}
console.log(JSON.stringify(dist.commStats()));`;

const outcome = async (workers: number) => {
  const { result, events } = await runProgram({
    code: program,
    worldSize: 4,
    workers,
    backend: 'cpu',
    cluster: { preset: 'h100-ndr', nodes: 2, gpusPerNode: 2 },
  });
  const of = <T extends ClusterEvent['type']>(type: T) =>
    events.filter((e): e is Extract<ClusterEvent, { type: T }> => e.type === type);
  const byRank = (a: { rank: number }, b: { rank: number }) => a.rank - b.rank;
  return {
    result,
    errors: of('error').map((e) => e.message),
    lines: of('log')
      .sort(byRank)
      .map((e) => `${e.rank}: ${e.text}`),
    steps: of('virtual-step')
      .sort(byRank)
      .map((e) => ({ rank: e.rank, report: e.report })),
    inThread: of('trace').some((e) => e.events.some((t) => t.algorithm === 'in-thread')),
  };
};

describe('the thread path in a run', () => {
  it('4 ranks on 2 workers print what 4 workers print, with the same virtual step reports', async () => {
    const shared = await outcome(2);
    const alone = await outcome(4);
    expect(shared.errors).toEqual([]);
    expect(shared.result).toMatchObject({ ok: true, reason: 'finished' });
    expect(shared.inThread).toBe(true);
    expect(alone.inThread).toBe(false);
    expect(shared.lines).toHaveLength(4 * 3);
    expect(shared.lines).toEqual(alone.lines);
    expect(shared.steps.length).toBeGreaterThan(0);
    expect(shared.steps).toEqual(alone.steps);
  }, 120_000);
});
