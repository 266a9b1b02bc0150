import { describe, expect, it } from 'vitest';
import { DDP_EXAMPLE } from '../../../src/lib/figures/ddp-time-example';
import { estimateStep, shapeForWorld } from '../../../src/lib/figures/efficiency';
import { ringAllReduceSeconds } from '../../../src/lib/figures/all-reduce-time';
import { linkPreset } from '../../../src/lib/figures/link-presets';
import { ESTIMATOR_PRESETS, estimate } from '../../../src/lib/figures/comm-estimator';
import { COMM_ESTIMATOR_DEFAULTS as CD } from '../../../src/lib/figures/widget-defaults';
import { intraNodeBandwidth, nodeNetworkBandwidth } from '../../../playground/simulation/index.ts';

// The words of chapters 4 and 6 around their computed figures, held against the figures.
const gpus = DDP_EXAMPLE.nodes * DDP_EXAMPLE.gpusPerNode;
const on = (preset: string, tokensPerGpu: number) =>
  estimateStep({ params: DDP_EXAMPLE.params, tokensPerGpu, cluster: shapeForWorld(preset, gpus) });

describe("chapter 4's 7B / 64-GPU example", () => {
  const large = on(DDP_EXAMPLE.preset, DDP_EXAMPLE.tokens.large);
  const small = on(DDP_EXAMPLE.preset, DDP_EXAMPLE.tokens.small);
  const flat = ringAllReduceSeconds(DDP_EXAMPLE.params * 2, gpus, linkPreset('infiniband'));
  it('is eight full DGX H100 nodes, the estimator’s default too', () => {
    expect(gpus).toBe(64);
    expect(shapeForWorld(DDP_EXAMPLE.preset, gpus)).toMatchObject({ nodes: 8, gpusPerNode: 8 });
    expect([CD.params, CD.preset, CD.nodes, CD.gpusPerNode]).toEqual([
      DDP_EXAMPLE.params,
      DDP_EXAMPLE.preset,
      DDP_EXAMPLE.nodes,
      DDP_EXAMPLE.gpusPerNode,
    ]);
  });
  it('hides the all-reduce at 4,096 tokens, not at 512; break-even between them', () => {
    expect(large.bound).toBe('compute');
    expect(small.bound).toBe('network');
    expect(large.breakEvenTokensPerGpu).toBeGreaterThan(DDP_EXAMPLE.tokens.small);
    expect(large.breakEvenTokensPerGpu).toBeLessThan(DDP_EXAMPLE.tokens.large);
  });
  it('NVLink SHARP with a tree across nodes beats rings, by a little', () => {
    const ring = on(DDP_EXAMPLE.presetWithoutNvls, DDP_EXAMPLE.tokens.large);
    expect(large.collective.algorithm).toBe('nvls-tree');
    expect(ring.collective.algorithm).toBe('ring');
    expect(ring.allReduce / large.allReduce).toBeGreaterThan(1);
    expect(ring.allReduce / large.allReduce).toBeLessThan(1.2);
  });
  it('the flat ring over one NIC per GPU is about eight times slower and would call the job network bound', () => {
    expect(Math.round(flat / large.allReduce)).toBe(8);
    expect(flat).toBeGreaterThan(large.backward);
  });
});

describe("chapter 6's table per preset", () => {
  const row = (id: string) =>
    estimate({
      params: CD.params,
      preset: id,
      nodes: CD.nodes,
      gpusPerNode: CD.gpusPerNode,
      tokensPerGpu: CD.tokensPerGpu,
      mfu: CD.mfu,
    });
  it('has a row for every preset of the one preset list', () => {
    expect(ESTIMATOR_PRESETS.map((p) => p.id)).toEqual([
      'a100-hdr',
      'h100-ndr',
      'h100-ndr-no-nvls',
      'b200-ndr',
      'rtx4090-pcie',
      'a100-100gbe',
      'a100-roce',
      'aws-p5-efa',
      'h100-2nic',
      'h100-4nic',
      'h100-pcie-pair',
      'gb200-nvl72',
    ]);
  });
  it('across eight nodes the NVLS tree is NIC-limited and the ring NVLink-limited, two close limits', () => {
    const shape = shapeForWorld('h100-ndr', gpus);
    // NVLS-tree on more than two nodes sends each node's buffer twice through its NICs.
    const treeAlg = nodeNetworkBandwidth(shape) / 2;
    const ringAlg = intraNodeBandwidth(shape) / ((2 * (gpus - 1)) / gpus);
    expect(row('h100-ndr').collective.algbw * 1e9).toBeLessThanOrEqual(treeAlg);
    expect(intraNodeBandwidth(shape)).toBeLessThan(nodeNetworkBandwidth(shape));
    expect(Math.abs(treeAlg / ringAlg - 1)).toBeLessThan(0.1);
  });
  it('a NIC per GPU needs far fewer tokens than one NIC per node', () => {
    expect(row('a100-100gbe').breakEvenTokensPerGpu).toBeGreaterThan(
      10 * row('a100-hdr').breakEvenTokensPerGpu,
    );
  });
});
