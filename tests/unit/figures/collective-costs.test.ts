import { describe, expect, it } from 'vitest';
import {
  allToAllSeconds,
  allToAllOffNodeFraction,
  latencyBandwidthCrossover,
  ringBytesSentPerRank,
  rootBytesReceivedNaive,
  trafficTable,
  CHAPTER2_CLUSTER,
  CHAPTER2_EXAMPLE,
  chapter2Preset,
  clusterAllReduce,
} from '../../../src/lib/figures/collective-costs';
import { linkPreset } from '../../../src/lib/figures/link-presets';
import { ringAllReduceSeconds } from '../../../src/lib/figures/all-reduce-time';

describe('ring versus gather-to-one traffic', () => {
  it('a ring rank sends 2(n−1)/n · D: D at n = 2, 1.5 D at n = 4, approaching 2 D', () => {
    expect(ringBytesSentPerRank(2, 1000)).toBe(1000);
    expect(ringBytesSentPerRank(4, 1000)).toBe(1500);
    expect(ringBytesSentPerRank(256, 1)).toBeCloseTo(1.9921875, 12);
    expect(ringBytesSentPerRank(1, 1000)).toBe(0);
  });
  it('the root of a gather-then-broadcast receives (n−1) · D, growing linearly', () => {
    expect(rootBytesReceivedNaive(8, 10)).toBe(70);
    expect(rootBytesReceivedNaive(64, 10)).toBe(630);
  });
});

describe('α–β table on one NDR NIC (50 GB/s each way, α = 14 µs, NCCL 2.18 and later)', () => {
  const [row] = trafficTable([4], 1e9, linkPreset('infiniband'));
  it('splits 1 GB on 4 ranks into 6 latency steps and 1.5 GB over the link', () => {
    expect(row!.latency).toBeCloseTo(6 * 14e-6, 12);
    expect(row!.transfer).toBeCloseTo(1.5e9 / 50e9, 12);
    expect(row!.total).toBeCloseTo(0.030084, 9);
  });
  it('bus bandwidth stays near the link bandwidth, as nccl-tests intends', () => {
    expect(row!.busbw).toBeCloseTo(1.5e9 / 0.030084, 3);
    for (const r of trafficTable([2, 8, 64], 4e9, linkPreset('infiniband')))
      expect(r.busbw / 50e9).toBeGreaterThan(0.98);
  });
  it('latency equals transfer at D* = n·α·bandwidth (700 kB at n = 1 on this link)', () => {
    const link = linkPreset('infiniband');
    const n = 8,
      d = latencyBandwidthCrossover(n, link);
    const [r] = trafficTable([n], d, link);
    expect(r!.latency).toBeCloseTo(r!.transfer, 12);
    expect(latencyBandwidthCrossover(1, link)).toBeCloseTo(700e3, 6);
  });
});

describe("chapter 2's comparison with the cluster model", () => {
  it('DGX H100 nodes beat the flat ring over one NIC several times at every world size', () => {
    const bytes = CHAPTER2_EXAMPLE.params * CHAPTER2_EXAMPLE.bytesPerGradient;
    const rows = trafficTable(CHAPTER2_EXAMPLE.worldSizes, bytes, linkPreset('infiniband'));
    for (const r of rows)
      expect(r.total / clusterAllReduce(CHAPTER2_CLUSTER.nvls, r.n, bytes).seconds).toBeGreaterThan(
        3,
      );
  });
  it('on one node NVLS bus bandwidth exceeds the NVLink line rate, and the ring stays under it', () => {
    const bytes = CHAPTER2_EXAMPLE.params * CHAPTER2_EXAMPLE.bytesPerGradient;
    const perNode = chapter2Preset().gpusPerNode.value;
    const nvls = clusterAllReduce(CHAPTER2_CLUSTER.nvls, perNode, bytes);
    const ring = clusterAllReduce(CHAPTER2_CLUSTER.ring, perNode, bytes);
    const lineRate = linkPreset('nvlink').bandwidth / 1e9;
    expect(nvls.algorithm).toBe('nvls');
    expect(nvls.busbw).toBeGreaterThan(lineRate);
    expect(ring.algorithm).toBe('ring');
    expect(ring.busbw).toBeLessThan(lineRate);
  });
});

describe('all-to-all in the α–β model', () => {
  const link = { alpha: 10e-6, bandwidth: 50e9 };
  it('pairwise exchange: (n−1)α + (n−1)/n·D/β, half an all-reduce of the same D', () => {
    const d = 128 * 2 ** 20;
    expect(allToAllSeconds(d, 8, link)).toBeCloseTo(7 * 10e-6 + ((7 / 8) * d) / 50e9, 12);
    expect(allToAllSeconds(d, 8, link)).toBeCloseTo(ringAllReduceSeconds(d, 8, link) / 2, 12);
    expect(allToAllSeconds(d, 1, link)).toBe(0);
  });
  it('sends (n − g)/n of its bytes off the node', () => {
    expect(allToAllOffNodeFraction(8, 8)).toBe(0);
    expect(allToAllOffNodeFraction(64, 8)).toBe(56 / 64);
    expect(allToAllOffNodeFraction(256, 8)).toBeCloseTo(0.96875, 12);
  });
});
