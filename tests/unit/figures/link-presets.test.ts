import { describe, expect, it } from 'vitest';
import {
  gbitToBytes,
  linkPreset,
  LINK_PRESETS,
  pcieBandwidth,
} from '../../../src/lib/figures/link-presets';

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
  it("α per ring step from NCCL's tuning model (ring, Simple): NVLink 3.4 µs, PCI 5.7 µs, network 9.6 µs", () => {
    expect(LINK_PRESETS.map((l) => Math.round(l.alpha * 1e7) / 10)).toEqual([3.4, 5.7, 9.6, 9.6]);
  });
  it('bandwidths are ordered NVLink > InfiniBand > PCIe > Ethernet and every preset cites a source', () => {
    const bw = (id: 'nvlink' | 'pcie' | 'infiniband' | 'ethernet') => linkPreset(id).bandwidth;
    expect(bw('nvlink')).toBeGreaterThan(bw('infiniband'));
    expect(bw('infiniband')).toBeGreaterThan(bw('pcie'));
    expect(bw('pcie')).toBeGreaterThan(bw('ethernet'));
    for (const l of LINK_PRESETS) expect(l.source.length).toBeGreaterThan(20);
  });
});
