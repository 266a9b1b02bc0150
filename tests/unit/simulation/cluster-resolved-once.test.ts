import { describe, expect, it } from 'vitest';
import { resolveCluster } from '../../../playground/simulation/cluster-options.ts';
import { RankSimulation } from '../../../playground/simulation/rank-simulation.ts';

const sinks = { trace: () => {}, step: () => {}, notice: () => {} };

describe('cluster options are resolved once, at run start', () => {
  it('a rank takes the resolved cluster from its start message as it is and never resolves it again', () => {
    const resolved = resolveCluster({ preset: 'h100-ndr', nodes: 2, gpusPerNode: 4 });
    // Values no resolution of these options would give: a rank that re-resolved would not see them.
    const handed = { ...resolved, timeoutSeconds: 42, efficiency: 0.25 };
    const sim = new RankSimulation(5, handed, sinks);
    expect(sim.shape).toBe(resolved.shape);
    expect(sim.timeoutSeconds).toBe(42);
    expect(resolved.timeoutSeconds).toBe(600);
  });

  it('the resolved cluster is plain data a start message can carry, with nodes and GPUs per node filled in', () => {
    const resolved = resolveCluster({ preset: 'h100-ndr' });
    expect(structuredClone(resolved)).toEqual(resolved);
    expect(resolved.options).toMatchObject({
      preset: 'h100-ndr',
      nodes: resolved.shape.nodes,
      gpusPerNode: resolved.shape.gpusPerNode,
    });
  });

  it('a rank outside the resolved world is refused', () => {
    const resolved = resolveCluster({ preset: 'h100-ndr', nodes: 1, gpusPerNode: 4 });
    expect(() => new RankSimulation(4, resolved, sinks)).toThrow(
      /outside the simulated world of 4/,
    );
  });
});
