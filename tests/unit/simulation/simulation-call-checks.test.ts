/** Issue 34, item 11: a time or a job the virtual clock cannot add is refused at the call, with a clear message. */
import { resolveCluster } from '../../../playground/simulation/cluster-options.ts';
import { describe, expect, it } from 'vitest';
import {
  MAX_CHARGED_PARAMS,
  RankSimulation,
} from '../../../playground/simulation/rank-simulation.ts';

const rank = () =>
  new RankSimulation(0, resolveCluster({ preset: 'a100-hdr', nodes: 1, gpusPerNode: 4 }), {
    trace: () => {},
    step: () => {},
    notice: () => {},
  });

describe('dist.simulation calls are checked where they are made', () => {
  it('compute(Infinity), NaN, a negative or absurd time: a RangeError naming compute, and the clock is unchanged', async () => {
    const sim = rank();
    const api = sim.facade();
    const before = await api.now();
    for (const bad of [Infinity, NaN, -1, 1e300, '5' as unknown as number])
      expect(() => api.compute(bad)).toThrow(
        /dist\.simulation\.compute: seconds must be a number from 0 to 1e\+12/,
      );
    expect(await api.now()).toBe(before);
    api.compute(2.5);
    expect(await api.now()).toBeCloseTo(before + 2.5);
  });

  it('chargeAs with a job whose scaled step would overflow is refused at the call', () => {
    const sim = rank();
    expect(() =>
      sim.chargeAs({ params: 1e300, tokensPerStep: 1e300 }, { params: 1, tokensPerStep: 1 }),
    ).toThrow(`chargeAs: params must be at most ${MAX_CHARGED_PARAMS.toExponential()}`);
    expect(() =>
      sim.chargeAs({ params: 7e9, tokensPerStep: 1e20 }, { params: 1, tokensPerStep: 1 }),
    ).toThrow(/chargeAs: tokensPerStep must be at most 1e\+12/);
    expect(() =>
      sim.chargeAs({ params: 7e9, tokensPerStep: 4e6 }, { params: 4000, tokensPerStep: 64 }),
    ).not.toThrow();
  });
});
