import { resolveCluster } from '../../../playground/simulation/cluster-options.ts';
import { describe, expect, it } from 'vitest';
import { RankSimulation } from '../../../playground/simulation/rank-simulation.ts';
import type { VirtualStepRank, VirtualTraceEvent } from '../../../playground/contract/protocol.ts';
import { ChargedPass } from '../../../playground/parallel/charged-job.ts';
import { chargedModel } from '../../../playground/simulation/charged-model.ts';

/** One simulated rank whose trace and step reports a test reads. */
function rank() {
  const trace: VirtualTraceEvent[] = [];
  const steps: VirtualStepRank[] = [];
  const sim = new RankSimulation(
    0,
    resolveCluster({ preset: 'h100-ndr', nodes: 1, gpusPerNode: 8 }),
    { trace: (e) => trace.push(...e), step: (r) => steps.push(r), notice: () => {} },
  );
  return { sim, trace, steps };
}

describe('virtual trace spans say what they are', () => {
  it('charged layers are forward and backward (layer k), collectives carry how the model timed them', async () => {
    const { sim, trace, steps } = rank();
    sim.chargeAs(
      { model: 'llama-2-7b', tokensPerStep: 8 * 4096 },
      { params: 1000, tokensPerStep: 64 },
    );
    sim.setConfiguration('overlap on');
    const pass = new ChargedPass(sim, chargedModel('llama-2-7b'), 4096, 34, 2);
    pass.forward(1);
    pass.backward(1);
    const members = Array.from({ length: 8 }, (_, r) => r);
    const wait = sim.scheduleAgreed(
      [
        {
          call: {
            collective: 'all-reduce',
            bytes: 32 * 2 ** 20,
            name: 'bucket 0 all-reduce',
            index: 0,
          },
          arrival: 0,
        },
      ],
      members,
    );
    sim.waitFor(wait);
    await sim.endStep();
    const names = trace.map((e) => e.name);
    expect(names.sort()).toEqual(['backward (layer 1)', 'bucket 0 all-reduce', 'forward']);
    const span = (name: string) => trace.find((e) => e.name === name)!;
    expect(span('backward (layer 1)')).toMatchObject({
      kind: 'backward',
      index: 1,
      configuration: 'overlap on',
    });
    const bucket = span('bucket 0 all-reduce');
    expect(bucket).toMatchObject({
      lane: 'comm',
      kind: 'collective',
      collective: 'all-reduce',
      index: 0,
      bytes: 32 * 2 ** 20,
      configuration: 'overlap on',
    });
    expect(['ring', 'tree', 'nvls', 'nvls-tree']).toContain(bucket.algorithm);
    expect(['LL', 'LL128', 'Simple']).toContain(bucket.protocol);
    expect(bucket.busGBps).toBeGreaterThan(0);
    // The bucket ran beside forward + backward: the compute stream waited only for what outlasted them.
    const [r] = steps;
    expect(r!.configuration).toBe('overlap on');
    expect(r!.chargedAs).toMatchObject({ model: 'llama-2-7b', params: 6_738_415_616 });
    expect(r!.exposedCommSeconds).toBeLessThanOrEqual(r!.commSeconds);
    expect(r!.computeSeconds + r!.exposedCommSeconds + r!.peerWaitSeconds!).toBeCloseTo(
      r!.end - r!.start,
      12,
    );
  });

  it('an uncharged region costs no virtual time, synchronously or until its promise settles', async () => {
    const { sim } = rank();
    sim.compute(0.5, 'forward');
    expect(sim.unchargedRegion(() => (sim.compute(1), 7))).toBe(7);
    await sim.unchargedRegion(async () => {
      await Promise.resolve();
      sim.compute(1);
    });
    sim.compute(0.25);
    expect(await sim.clock.mark()).toBe(0.75);
    expect(sim.issue()).toBeDefined();
    expect(sim.ghost(() => sim.issue())).toBeUndefined();
  });
});
