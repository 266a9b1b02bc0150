// A random program of tensor collectives, disposals, views and reads, run alike on every rank; after each step
// every tensor still alive and every array read out must hold exactly what the program put there.
import type { Tensor } from '@tensorflow/tfjs';
import type { ScenarioContext } from './scenarios.ts';

export type PoolStep =
  | { op: 'fresh'; len: number; async: boolean }
  | { op: 'chain'; pick: number; async: boolean }
  | { op: 'gather'; pick: number }
  | { op: 'wait' }
  | { op: 'dispose'; pick: number }
  | { op: 'slice'; pick: number }
  | { op: 'reshape'; pick: number }
  | { op: 'clone'; pick: number }
  | { op: 'read'; pick: number; dispose: boolean };

export interface PoolOutcome {
  /** The first mismatch, or null. */
  error: string | null;
  reused: number;
  escaped: number;
}

interface Live {
  t: Tensor;
  want: number[];
}

/** Rank r's input at step s: distinct per step, so an array overwritten by a later result shows. */
const base = (len: number, rank: number, s: number) =>
  Array.from({ length: len }, (_, j) => ((j % 7) + 1 + s) * (rank + 1));

export async function poolProgram(
  ctx: ScenarioContext,
  a: { steps: PoolStep[] },
): Promise<PoolOutcome> {
  const tf = await import('@tensorflow/tfjs');
  const dist = ctx.dist!;
  const n = ctx.worldSize;
  const live: Live[] = [];
  const pending: { wait: () => Promise<Tensor>; want: number[] }[] = [];
  const kept: { values: ArrayLike<number>; want: number[]; step: number }[] = [];
  const pick = (i: number) => live[i % live.length]!;
  // Compared with tf ops, not dataSync on the tensor itself: a read would take its array out of the pool.
  const differs = (t: Tensor, want: number[]) =>
    tf.tidy(() => {
      if (t.size !== want.length) return true;
      if (want.length === 0) return false;
      return (
        tf
          .notEqual(t.reshape([-1]), tf.tensor(want, [want.length]))
          .any()
          .dataSync()[0] !== 0
      );
    });
  const check = (step: number): string | null => {
    for (const [i, l] of live.entries())
      if (differs(l.t, l.want)) return `step ${step}: live tensor ${i} was overwritten`;
    for (const k of kept)
      if (k.values.length !== k.want.length || k.want.some((v, j) => k.values[j] !== v))
        return `step ${step}: the array read at step ${k.step} was overwritten`;
    return null;
  };
  const start = (call: () => unknown, want: number[], async: boolean) => {
    const r = call() as Promise<Tensor> | { wait(): Promise<Tensor> };
    if (async) pending.push({ wait: () => (r as { wait(): Promise<Tensor> }).wait(), want });
    else pending.push({ wait: () => r as Promise<Tensor>, want });
  };
  const settle = async () => {
    const p = pending.shift();
    if (p) live.push({ t: await p.wait(), want: p.want });
  };
  // Each program starts with empty free lists, so an array it frees is the next one taken.
  ctx.outputs!.trim();
  let error: string | null = null;
  for (const [s, step] of a.steps.entries()) {
    if (step.op === 'fresh') {
      const x = tf.tensor(base(step.len, ctx.rank, s), [step.len]);
      const want = base(step.len, 0, s).map((v) => (v * n * (n + 1)) / 2);
      start(() => dist.allReduce(x, { async: step.async }), want, step.async);
      x.dispose(); // the call already holds its data
      if (!step.async) await settle();
    } else if (step.op === 'wait') {
      await settle();
    } else if (live.length > 0) {
      const l = pick(step.pick);
      if (step.op === 'chain') {
        start(() => dist.allReduce(l.t, { op: 'max', async: step.async }), l.want, step.async);
        if (!step.async) await settle();
      } else if (step.op === 'gather') {
        start(() => dist.allGather(l.t), Array(n).fill(l.want).flat(), false);
        await settle();
      } else if (step.op === 'dispose') {
        l.t.dispose();
        live.splice(live.indexOf(l), 1);
      } else if (step.op === 'slice' && l.want.length > 2) {
        // Contiguous: on the CPU backend the slice is a view of the same array.
        live.push({
          t: tf.slice(l.t.reshape([-1]), 1, l.want.length - 2),
          want: l.want.slice(1, -1),
        });
      } else if (step.op === 'reshape') {
        live.push({ t: l.t.reshape([1, -1]), want: l.want });
      } else if (step.op === 'clone') {
        live.push({ t: tf.clone(l.t), want: l.want });
      } else if (step.op === 'read') {
        kept.push({ values: await l.t.data(), want: l.want, step: s });
        if (step.dispose) {
          // The common `const v = await t.data(); t.dispose()`: v must outlive the tensor.
          l.t.dispose();
          live.splice(live.indexOf(l), 1);
        }
      }
    }
    error = check(s);
    if (error) break;
  }
  while (!error && pending.length > 0) {
    await settle();
    error = check(a.steps.length);
  }
  while (pending.length > 0) await settle();
  for (const l of live) l.t.dispose();
  const stats = ctx.outputs!;
  return { error, reused: stats.reused, escaped: stats.escaped };
}
