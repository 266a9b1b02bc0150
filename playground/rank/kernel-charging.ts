/**
 * Charges every kernel this rank's tfjs runs to its virtual clock, by wrapping the engine's one entry
 * point for kernels (ops and their gradients all go through `runKernel`). Only in simulated runs.
 */
import type * as tfNamespace from '@tensorflow/tfjs';
import type { RankSimulation } from '../simulation/rank-simulation.ts';

type Tf = typeof tfNamespace;
type Shaped = { shape: number[] };
type RunKernel = (
  name: string,
  inputs: Record<string, unknown>,
  attrs?: Record<string, unknown>,
) => unknown;

const isShaped = (v: unknown): v is Shaped =>
  typeof v === 'object' && v !== null && Array.isArray((v as Shaped).shape);

/** The clock each engine charges now: a thread hosting several ranks re-points it at every turn (rank-host.ts). */
const charged = new WeakMap<object, { sim: RankSimulation | null }>();

/** Charges this thread's kernels to `sim` from now on (null: to nobody); the engine is wrapped once. */
export function chargeKernels(tf: Tf, sim: RankSimulation | null): void {
  const engine = tf.engine() as unknown as { runKernel: RunKernel };
  const target = charged.get(engine);
  if (target) {
    target.sim = sim;
    return;
  }
  const current = { sim };
  charged.set(engine, current);
  const runKernel = engine.runKernel;
  engine.runKernel = function (name, inputs, attrs) {
    const out = runKernel.call(this, name, inputs, attrs);
    const sim = current.sim;
    if (!sim) return out;
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
