/**
 * Charges every kernel this rank's tfjs runs to its virtual clock, by wrapping the engine's one entry
 * point for kernels (ops and their gradients all go through `runKernel`). Only in simulated runs.
 */
import type * as tfNamespace from '@tensorflow/tfjs';
import type { RankSimulation } from '../collectives/rank-simulation.ts';

type Tf = typeof tfNamespace;
type Shaped = { shape: number[] };
type RunKernel = (
  name: string,
  inputs: Record<string, unknown>,
  attrs?: Record<string, unknown>,
) => unknown;

const isShaped = (v: unknown): v is Shaped =>
  typeof v === 'object' && v !== null && Array.isArray((v as Shaped).shape);

export function chargeKernels(tf: Tf, sim: RankSimulation): void {
  const engine = tf.engine() as unknown as { runKernel: RunKernel };
  const runKernel = engine.runKernel;
  engine.runKernel = function (name, inputs, attrs) {
    const out = runKernel.call(this, name, inputs, attrs);
    const named: Record<string, number[]> = {};
    const shapes: number[][] = [];
    for (const [key, value] of Object.entries(inputs ?? {})) {
      if (!isShaped(value)) continue;
      named[key] = value.shape;
      shapes.push(value.shape);
    }
    const outputs = (Array.isArray(out) ? out : [out]).filter(isShaped).map((t) => t.shape);
    sim.chargeKernel({ name, inputs: shapes, named, outputs, attrs: attrs ?? {} });
    return out;
  };
}
