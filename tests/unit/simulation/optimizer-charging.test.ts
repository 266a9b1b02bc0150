import { resolveCluster } from '../../../playground/simulation/cluster-options.ts';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { RankSimulation } from '../../../playground/simulation/rank-simulation.ts';
import { Adam, SGD } from '../../../playground/parallel/optimizers.ts';
import { chargeKernels } from '../../../playground/rank/kernel-charging.ts';
import { clusterPreset, fusedOptimizerCost } from '../../../playground/simulation/index.ts';

/** One simulated rank on one A100 with its tfjs kernels charged, as a rank worker sets it up. */
function rank(): RankSimulation {
  const sim = new RankSimulation(
    0,
    resolveCluster({ preset: 'a100-hdr', nodes: 1, gpusPerNode: 4 }),
    { trace: () => {}, step: () => {}, notice: () => {} },
  );
  chargeKernels(tf, sim);
  return sim;
}

const hbm = clusterPreset('a100-hdr').gpu.hbmBandwidth.value;

describe('the optimizer step is charged as one fused fp32 pass over HBM', () => {
  beforeAll(async () => {
    await tf.setBackend('cpu');
  });

  it('reads parameter, gradient and state once and writes parameter and state once', () => {
    expect(fusedOptimizerCost(1, 2).bytes).toBe(28); // Adam: 4 reads + 3 writes of 4 bytes
    expect(fusedOptimizerCost(1, 1).bytes).toBe(20); // SGD with momentum
    expect(fusedOptimizerCost(1, 0).bytes).toBe(12); // plain SGD
    expect(fusedOptimizerCost(1000, 2).bytes).toBe(28_000);
  });

  it('an Adam step on a quarter shard of a model charged as 7B costs 7e9 / 4 × 28 B over HBM, not the tfjs kernels', async () => {
    const sim = rank();
    // The playground model has 4,000 parameters; this rank holds a quarter (ZeRO / FSDP shard).
    sim.chargeAs({ params: 7e9, tokensPerStep: 4_194_304 }, { params: 4000, tokensPerStep: 64 });
    const [p, g, m, v] = [1, 2, 3, 4].map((seed) => tf.randomNormal([1000], 0, 1, 'float32', seed));
    const t0 = await sim.facade().now();
    const out = sim.optimizerStep(1000, 2, () =>
      new Adam({ lr: 1e-3 }).update(p!, g!, [m!, v!], 1),
    );
    const seconds = (await sim.facade().now()) - t0;
    // 1.75e9 parameters × 28 B / 2,039 GB/s ≈ 24.0 ms.
    expect(seconds).toBeCloseTo(((7e9 / 4) * 28) / hbm, 12);
    expect(seconds * 1000).toBeCloseTo(24.03, 2);
    // The same tfjs update outside optimizerStep is a dozen kernels, billed one by one (at bf16 bytes).
    const t1 = await sim.facade().now();
    new Adam({ lr: 1e-3 }).update(p!, g!, [m!, v!], 1);
    const unfused = (await sim.facade().now()) - t1;
    expect(unfused).toBeGreaterThan(1.5 * seconds);
    tf.dispose([p!, g!, m!, v!, out.param, ...out.state]);
  });

  it('without charge-as, the step is charged at the real model size', async () => {
    const sim = rank();
    const [p, g] = [1, 2].map((seed) => tf.randomNormal([1000], 0, 1, 'float32', seed));
    const t0 = await sim.facade().now();
    const out = sim.optimizerStep(1000, 0, () => new SGD({ lr: 0.1 }).update(p!, g!, [], 1));
    expect((await sim.facade().now()) - t0).toBeCloseTo((1000 * 12) / hbm, 18);
    tf.dispose([p!, g!, out.param]);
  });
});
