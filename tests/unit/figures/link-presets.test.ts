import { describe, expect, it } from 'vitest';
import {
  gbitToBytes,
  linkPreset,
  LINK_PRESETS,
  NCCL_LATENCY_SOURCE,
  NET_HOP_HISTORY,
  pcieBandwidth,
} from '../../../src/lib/figures/link-presets';
import { clusterPreset } from '../../../playground/simulation/index.ts';

describe('link presets', () => {
  it('NVLink 4 on H100: 900 GB/s bidirectional = 450 GB/s each way', () => {
    expect(linkPreset('nvlink').bandwidth).toBe(450e9);
  });
  it('PCIe 4.0 x16: 16 GT/s × 16 lanes × 128/130 / 8 ≈ 31.5 GB/s', () => {
    expect(pcieBandwidth(16) / 1e9).toBeCloseTo(31.51, 2);
    expect(linkPreset('pcie').bandwidth).toBe(pcieBandwidth(16));
  });
  it('InfiniBand NDR 400 Gb/s = 50 GB/s; 100 GbE = 12.5 GB/s', () => {
    expect(linkPreset('infiniband').bandwidth).toBe(50e9);
    expect(linkPreset('ethernet').bandwidth).toBe(12.5e9);
    expect(gbitToBytes(200)).toBe(25e9);
  });
  it("α per ring step from NCCL 2.30.7's tuning model (ring, Simple): NVLink 3.4 µs, PCI 5.7 µs, network 14 µs", () => {
    expect(NCCL_LATENCY_SOURCE.version).toBe('2.30.7');
    expect(LINK_PRESETS.map((l) => Math.round(l.alpha * 1e7) / 10)).toEqual([3.4, 5.7, 14, 14]);
    // The book's older 9.6 µs is the 2.14–2.17 value; 14 µs holds from 2.18 on.
    expect(NET_HOP_HISTORY.find((h) => h.versions === '2.14–2.17')?.value).toBe(9.6);
    expect(NET_HOP_HISTORY.at(-1)).toEqual({ versions: '2.18–2.30', value: 14 });
  });
  it('bandwidths are the cluster presets’ (one preset list)', () => {
    const h100 = clusterPreset('h100-ndr');
    expect(linkPreset('infiniband').bandwidth).toBe(h100.network.nicBandwidth.value);
    expect(linkPreset('ethernet').bandwidth).toBe(
      clusterPreset('a100-100gbe').network.nicBandwidth.value,
    );
  });
  it('bandwidths are ordered NVLink > InfiniBand > PCIe > Ethernet and every preset cites a source', () => {
    const bw = (id: 'nvlink' | 'pcie' | 'infiniband' | 'ethernet') => linkPreset(id).bandwidth;
    expect(bw('nvlink')).toBeGreaterThan(bw('infiniband'));
    expect(bw('infiniband')).toBeGreaterThan(bw('pcie'));
    expect(bw('pcie')).toBeGreaterThan(bw('ethernet'));
    for (const l of LINK_PRESETS) expect(l.source.length).toBeGreaterThan(20);
  });
});
