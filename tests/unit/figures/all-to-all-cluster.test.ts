import { describe, expect, it } from 'vitest';
import {
  allToAllClusterRows,
  CHAPTER2_ALL_TO_ALL_CLUSTER,
} from '../../../src/lib/figures/all-to-all-cluster';

// Chapter 2's table: 1 GiB per rank on 1, 2 and 16 DGX H100 nodes, all-to-all against all-reduce.
describe("chapter 2's all-to-all on the simulated cluster", () => {
  const rows = allToAllClusterRows();

  it('covers 8, 16 and 128 ranks of the h100-ndr preset', () => {
    expect(CHAPTER2_ALL_TO_ALL_CLUSTER.preset).toBe('h100-ndr');
    expect(rows.map((r) => r.ranks)).toEqual([8, 16, 128]);
    expect(rows.map((r) => r.offNode)).toEqual([0, 0.5, 120 / 128]);
  });

  it('pins the printed times: about 2.6, 10.9 and 21.8 ms for the all-to-all', () => {
    expect(rows.map((r) => +(r.allToAll.seconds * 1e3).toFixed(1))).toEqual([2.6, 10.9, 21.8]);
  });

  it('inside one node the all-to-all beats the all-reduce; from two nodes on it loses, by more with more nodes', () => {
    const [one, two, sixteen] = rows.map((r) => r.allToAll.seconds / r.allReduce.seconds);
    expect(one).toBeLessThan(1);
    expect(two).toBeGreaterThan(1);
    expect(sixteen).toBeGreaterThan(two!);
  });
});
