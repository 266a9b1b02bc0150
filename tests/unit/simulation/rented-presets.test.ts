import { describe, expect, it } from 'vitest';
import {
  clusterShape,
  nodeNetworkBandwidth,
} from '../../../playground/simulation/cluster-shape.ts';
import { predictCollective } from '../../../playground/simulation/collective-model.ts';
import { clusterPreset, withNetwork } from '../../../playground/simulation/presets.ts';

const GB = 1e9;
const ring = (id: string, nodes: number, gpus?: number) =>
  predictCollective(clusterShape(id, nodes, gpus), 'all-reduce', 8 * 2 ** 30, {
    algorithm: 'ring',
  });

describe('presets for what readers rent (issue 31)', () => {
  it('AWS p5: 32 EFA devices of 100 Gb/s, so a ring across instances stays NVLink-bound', () => {
    const s = clusterShape('aws-p5-efa', 2, 8);
    expect(nodeNetworkBandwidth(s)).toBe(400 * GB);
    expect(ring('aws-p5-efa', 2).busbw).toBeGreaterThan(360);
    expect(clusterPreset('aws-p5-efa').limitations).toMatch(/EFA/);
  });

  it('2 and 4 NICs per node cap a ring across nodes at 100 and 200 GB/s busbw', () => {
    expect(ring('h100-2nic', 2).busbw).toBeLessThanOrEqual(100);
    expect(ring('h100-2nic', 2).busbw).toBeGreaterThan(95);
    expect(ring('h100-4nic', 2).busbw).toBeLessThanOrEqual(200);
    expect(ring('h100-4nic', 2).busbw).toBeGreaterThan(190);
  });

  it('an H100 PCIe pair rings over its NVLink bridge (12 × 20.6 GB/s) and has no NVLS', () => {
    const p = predictCollective(clusterShape('h100-pcie-pair', 1, 2), 'all-reduce', 8 * 2 ** 30);
    expect(p.algorithm).toBe('ring');
    expect(p.busbw).toBeCloseTo(12 * 20.6, 0);
    expect(() =>
      predictCollective(clusterShape('h100-pcie-pair'), 'all-reduce', 1e6, { algorithm: 'nvls' }),
    ).toThrow(/no nvls/);
  });

  it('a GB200 NVL72 rack is one 72-GPU NVLink domain where NVLS all-reduces', () => {
    const p = predictCollective(clusterShape('gb200-nvl72'), 'all-reduce', 8 * 2 ** 30);
    expect(p.ranks).toBe(72);
    expect(p.algorithm).toBe('nvls');
    expect(p.busbw).toBeGreaterThan(18 * 40.1);
  });

  it('overrides NICs per node and NIC speed, saying so in the id and the source', () => {
    const p = withNetwork(clusterPreset('h100-ndr'), { nicsPerNode: 4, nicGbps: 200 });
    expect(p.id).toBe('h100-ndr (4 NICs, 200 Gb/s)');
    expect(p.network.nicBandwidth.value).toBe(25 * GB);
    expect(p.network.nicsPerNode.source).toMatch(/--nics-per-node/);
    expect(nodeNetworkBandwidth(clusterShape(p, 2, 8))).toBe(100 * GB);
    expect(withNetwork(clusterPreset('h100-ndr'), {})).toBe(clusterPreset('h100-ndr'));
    expect(() => withNetwork(clusterPreset('h100-ndr'), { nicsPerNode: 0 })).toThrow(/≥ 1/);
  });
});
