import { describe, expect, it } from 'vitest';
import {
  clusterShape,
  intraNodeBandwidth,
  nicsInUse,
  nodeNetworkBandwidth,
} from '../../../playground/simulation/cluster-shape.ts';
import {
  busBandwidthFactor,
  COLLECTIVES,
  predictCollective,
  predictSendRecv,
  ringBusBandwidth,
} from '../../../playground/simulation/collective-model.ts';

const GB = 1e9;

describe('bus bandwidth as nccl-tests defines it (doc/PERFORMANCE.md)', () => {
  it('uses 2(n−1)/n for all-reduce, (n−1)/n for all-gather and reduce-scatter, 1 for broadcast', () => {
    expect(busBandwidthFactor('all-reduce', 8)).toBe(14 / 8);
    expect(busBandwidthFactor('all-gather', 8)).toBe(7 / 8);
    expect(busBandwidthFactor('reduce-scatter', 16)).toBe(15 / 16);
    expect(busBandwidthFactor('broadcast', 8)).toBe(1);
  });

  it('reports algbw = size / time and busbw = algbw × factor for every collective', () => {
    const c = clusterShape('a100-hdr', 2, 8);
    for (const op of COLLECTIVES) {
      const p = predictCollective(c, op, 1 << 30);
      expect(p.algbw).toBeCloseTo((1 << 30) / p.seconds / GB, 9);
      expect(p.busbw).toBeCloseTo(p.algbw * busBandwidthFactor(op, 16), 9);
    }
  });
});

describe('topology: rings on NVLink, rails across nodes, NVLS', () => {
  it('inside one node the ring runs at NCCL’s NVLink figure: 18 × 20.6 GB/s on H100, 12 × 20 on A100', () => {
    expect(intraNodeBandwidth(clusterShape('h100-ndr', 1, 8))).toBeCloseTo(370.8 * GB, 3);
    expect(intraNodeBandwidth(clusterShape('a100-hdr', 1, 8))).toBeCloseTo(240 * GB, 3);
    const big = predictCollective(clusterShape('h100-ndr', 1, 8), 'all-gather', 16 * GB);
    expect(big.algorithm).toBe('ring');
    expect(big.busbw).toBeGreaterThan(360);
    expect(big.busbw).toBeLessThan(370.8);
  });

  it('across nodes every NIC of the node carries ring traffic (rails): busbw is bounded by 8 NICs, not by one', () => {
    const a100 = clusterShape('a100-hdr', 4, 8);
    expect(nicsInUse(a100)).toBe(8);
    expect(ringBusBandwidth(a100)).toBe(Math.min(240 * GB, nodeNetworkBandwidth(a100)));
    expect(ringBusBandwidth(a100)).toBe(200 * GB);
    const ring = predictCollective(a100, 'all-reduce', 16 * GB, { algorithm: 'ring' });
    expect(ring.busbw).toBeGreaterThan(190);
    // Half the GPUs of a node reach half its NICs; one NIC per node is what the 100 GbE preset has.
    expect(nicsInUse(clusterShape('a100-hdr', 2, 4))).toBe(4);
    expect(ringBusBandwidth(clusterShape('a100-100gbe', 2, 8))).toBe(12.5 * GB);
  });

  it('NVLS all-reduce on H100 exceeds the 450 GB/s NVLink line rate in busbw; without NVLS the ring stays under it', () => {
    const nvls = predictCollective(clusterShape('h100-ndr', 1, 8), 'all-reduce', 8 * GB);
    expect(nvls.algorithm).toBe('nvls');
    expect(nvls.busbw).toBeGreaterThan(450);
    const ring = predictCollective(clusterShape('h100-ndr-no-nvls', 1, 8), 'all-reduce', 8 * GB);
    expect(ring.algorithm).toBe('ring');
    expect(ring.busbw).toBeLessThan(450);
    expect(() =>
      predictCollective(clusterShape('a100-hdr', 1, 8), 'all-reduce', 1e6, { algorithm: 'nvls' }),
    ).toThrow(/no nvls all-reduce/);
  });

  it('chooses by size as NCCL does: LL for tiny messages, Simple for large ones', () => {
    const c = clusterShape('h100-ndr-no-nvls', 1, 8);
    const tiny = predictCollective(c, 'all-reduce', 8);
    expect(tiny.protocol).toBe('LL');
    // NCCL's ring LL latency on NVLink: base 6.6 µs + 14 steps × 0.6 µs.
    expect(tiny.latencySeconds * 1e6).toBeCloseTo(6.6 + 14 * 0.6, 9);
    // 8 B run on one channel of 32 (enqueue.cc), so its bytes add a few ns to the latency.
    expect(tiny.channels).toBe(1);
    expect(tiny.seconds * 1e6).toBeCloseTo(6.6 + 14 * 0.6, 1);
    expect(predictCollective(c, 'all-reduce', 4 * GB).protocol).toBe('Simple');
  });

  it('time grows with size and never beats the latency of the chosen algorithm', () => {
    const c = clusterShape('a100-hdr', 2, 8);
    let last = 0;
    for (let b = 8; b <= 2 ** 34; b *= 4) {
      const p = predictCollective(c, 'all-reduce', b);
      // Never falls; may stay flat where NCCL adds channels in proportion to the buffer (enqueue.cc) and
      // the tree correction is the same for both sizes (8 KiB on 2 channels, 32 KiB on 8: equal times).
      expect(p.seconds).toBeGreaterThanOrEqual(last);
      if (b >= 2 ** 20) expect(p.seconds).toBeGreaterThan(last);
      expect(p.seconds).toBeGreaterThanOrEqual(p.latencySeconds);
      last = p.seconds;
    }
  });

  it('two nodes joined by one 100 GbE NIC are network bound; a single GPU costs nothing', () => {
    const slow = predictCollective(clusterShape('a100-100gbe', 2, 8), 'all-reduce', GB);
    const fast = predictCollective(clusterShape('a100-hdr', 2, 8), 'all-reduce', GB);
    expect(slow.seconds / fast.seconds).toBeGreaterThan(8);
    expect(predictCollective(clusterShape('h100-ndr', 1, 1), 'all-reduce', GB).seconds).toBe(0);
  });

  it('the 7B-parameter bf16 gradient all-reduce on 64 H100s takes ≈ 70 ms, not the 552 ms of one 50 GB/s NIC per GPU', () => {
    const bytes = 7e9 * 2;
    const p = predictCollective(clusterShape('h100-ndr', 8, 8), 'all-reduce', bytes);
    const oldOneNicRing = (((2 * 63) / 64) * bytes) / (50 * GB);
    expect(oldOneNicRing).toBeCloseTo(0.5513, 3);
    expect(p.seconds).toBeGreaterThan(0.065);
    expect(p.seconds).toBeLessThan(0.08);
    expect(oldOneNicRing / p.seconds).toBeGreaterThan(7);
    expect(
      predictCollective(clusterShape('h100-ndr-no-nvls', 8, 8), 'all-reduce', bytes).seconds,
    ).toBeLessThan(0.08);
  });

  it('send/recv uses the NVLink inside a node and one NIC across nodes', () => {
    const c = clusterShape('h100-ndr', 2, 8);
    const inside = predictSendRecv(c, 0, 1, GB);
    const across = predictSendRecv(c, 0, 8, GB);
    expect(inside.algbw).toBeGreaterThan(300);
    expect(across.algbw).toBeGreaterThan(45);
    expect(across.algbw).toBeLessThan(50);
    expect(predictSendRecv(c, 3, 3, GB).seconds).toBe(0);
    expect(() => predictSendRecv(c, 0, 16, 1)).toThrow(/outside a world of 16/);
  });

  it('validates its inputs', () => {
    expect(() => clusterShape('h100-ndr', 0, 8)).toThrow(/nodes must be/);
    expect(() => clusterShape('h100-ndr', 1, 9)).toThrow(/from 1 to 8 on h100-ndr/);
    expect(() => clusterShape('tpu', 1, 1)).toThrow(/unknown cluster preset "tpu"/);
    expect(() => predictCollective(clusterShape('h100-ndr', 1, 8), 'all-reduce', -1)).toThrow(
      /bytes/,
    );
  });
});
