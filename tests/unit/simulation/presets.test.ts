import { describe, expect, it } from 'vitest';
import {
  CLUSTER_PRESETS,
  clusterPreset,
  GPUS,
  PRESET_IDS,
  type Cited,
} from '../../../playground/simulation/presets.ts';
import {
  RING_NET_SIMPLE_HOP_HISTORY_US,
  NCCL_VERSION,
} from '../../../playground/simulation/nccl-constants.ts';

/** Every { value, source } pair inside a preset. */
function citedNumbers(x: unknown, path = ''): { path: string; cited: Cited<unknown> }[] {
  if (!x || typeof x !== 'object') return [];
  if ('value' in x && 'source' in x) return [{ path, cited: x as Cited<unknown> }];
  return Object.entries(x).flatMap(([k, v]) => citedNumbers(v, `${path}.${k}`));
}

describe('cluster presets', () => {
  it('has the presets the issue asks for, with unique ids', () => {
    expect(new Set(PRESET_IDS).size).toBe(PRESET_IDS.length);
    expect(PRESET_IDS).toEqual(
      expect.arrayContaining([
        'a100-hdr',
        'h100-ndr',
        'h100-ndr-no-nvls',
        'b200-ndr',
        'rtx4090-pcie',
        'a100-100gbe',
      ]),
    );
    expect(clusterPreset('h100-ndr').fabric).toMatchObject({ kind: 'nvlink', nvls: true });
    expect(clusterPreset('h100-ndr-no-nvls').fabric).toMatchObject({ kind: 'nvlink', nvls: false });
    expect(clusterPreset('rtx4090-pcie').fabric.kind).toBe('pcie');
    expect(clusterPreset('a100-100gbe').defaultNodes).toBe(2);
  });

  it('every number carries a source, and every source names where it was read', () => {
    for (const p of CLUSTER_PRESETS) {
      const cited = citedNumbers(p);
      expect(cited.length).toBeGreaterThanOrEqual(9);
      for (const { path, cited: c } of cited) {
        expect(typeof c.value, `${p.id}${path}`).toBe('number');
        expect(c.source.length, `${p.id}${path}`).toBeGreaterThan(10);
      }
      // Vendor and standards figures cite a URL; the preset's own choices say that they are choices.
      expect(
        cited
          .filter(({ cited: c }) => !/https:\/\//.test(c.source))
          .every(({ cited: c }) => /choice of this preset/.test(c.source)),
      ).toBe(true);
    }
  });

  it('keeps the datasheet values the book quotes (dense bf16, not the 2:4-sparsity figure)', () => {
    expect(GPUS.h100.bf16Flops.value).toBe(989.4e12);
    expect(GPUS.a100.bf16Flops.value).toBe(312e12);
    expect(GPUS.h100.hbmBandwidth.value).toBe(3.35e12);
    const h100 = clusterPreset('h100-ndr');
    expect(
      h100.fabric.kind === 'nvlink' &&
        h100.fabric.linksPerGpu.value * h100.fabric.linkBandwidth.value,
    ).toBe(450e9);
    expect(h100.network.nicBandwidth.value * h100.network.nicsPerNode.value).toBe(400e9);
  });

  it('states the NCCL version its latency constants come from, and the history of the ring network hop', () => {
    expect(NCCL_VERSION).toBe('2.30.7');
    expect(RING_NET_SIMPLE_HOP_HISTORY_US.find((h) => h.versions === '2.14–2.17')?.value).toBe(9.6);
    expect(RING_NET_SIMPLE_HOP_HISTORY_US.at(-1)?.value).toBe(14);
  });
});
