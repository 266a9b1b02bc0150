import { describe, expect, it } from 'vitest';
import {
  allToAllBusFactor,
  predictAllToAll,
} from '../../../playground/simulation/all-to-all-model.ts';
import { clusterShape } from '../../../playground/simulation/cluster-shape.ts';
import { BASE_LATENCY_US, HOP_LATENCY_US } from '../../../playground/simulation/nccl-constants.ts';

const GiB = 2 ** 30;

describe('the all-to-all model', () => {
  it("uses nccl-tests' alltoall bus factor (n−1)/n (src/alltoall.cu, AlltoAllGetBw)", () => {
    expect(allToAllBusFactor(1)).toBe(0);
    expect(allToAllBusFactor(8)).toBe(7 / 8);
    expect(allToAllBusFactor(128)).toBe(127 / 128);
  });

  it('splits each rank’s buffer into (g−1)/n over NVLink and (n−g)/n through the NICs', () => {
    const p = predictAllToAll(clusterShape('h100-ndr', 2, 8), 1600);
    expect(p.ranks).toBe(16);
    expect(p.intraNodeBytesPerRank).toBe((7 / 16) * 1600);
    expect(p.interNodeBytesPerRank).toBe((8 / 16) * 1600);
    const one = predictAllToAll(clusterShape('h100-ndr', 1, 8), 1600);
    expect(one.interNodeBytesPerRank).toBe(0);
    expect(one.bottleneck).toBe('intra-node');
  });

  it('one DGX H100: 7/8 GiB over 18 NVLink 4 links as NCCL counts them, plus 7 NVLink steps', () => {
    const c = clusterShape('h100-ndr', 1, 8);
    const f = c.preset.fabric;
    if (f.kind !== 'nvlink') throw new Error('h100-ndr has NVLink');
    const bw = f.linksPerGpu.value * f.ncclLinkBandwidth.value;
    const latency = (BASE_LATENCY_US.ring.Simple + 7 * HOP_LATENCY_US.nvlink.ring.Simple) * 1e-6;
    const p = predictAllToAll(c, GiB);
    expect(p.protocol).toBe('Simple');
    expect(p.seconds).toBeCloseTo(latency + ((7 / 8) * GiB) / bw, 12);
    expect(p.busbw).toBeCloseTo((GiB / p.seconds / 1e9) * (7 / 8), 9);
  });

  it('sixteen nodes: the node’s 8 GPUs send 120/128 of their GiB through 8 NDR NICs, 120 network peers', () => {
    const c = clusterShape('h100-ndr', 16, 8);
    const nics = 8 * c.preset.network.nicBandwidth.value;
    const latency =
      (BASE_LATENCY_US.ring.Simple +
        7 * HOP_LATENCY_US.nvlink.ring.Simple +
        120 * HOP_LATENCY_US.net.ring.Simple) *
      1e-6;
    const p = predictAllToAll(c, GiB);
    expect(p.bottleneck).toBe('network');
    expect(p.seconds).toBeCloseTo(latency + (8 * (120 / 128) * GiB) / nics, 12);
  });

  it('small messages pay latency per peer and pick LL; nothing to send costs nothing', () => {
    const p = predictAllToAll(clusterShape('h100-ndr', 2, 8), 4096);
    expect(p.protocol).toBe('LL');
    expect(p.seconds).toBeGreaterThan(p.latencySeconds);
    expect(predictAllToAll(clusterShape('h100-ndr', 2, 8), 0).seconds).toBe(0);
    expect(predictAllToAll(clusterShape('h100-ndr', 1, 1), GiB).seconds).toBe(0);
    expect(() => predictAllToAll(clusterShape('h100-ndr', 1, 8), -1)).toThrow(RangeError);
  });
});
