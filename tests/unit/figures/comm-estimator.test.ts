import { describe, expect, it } from 'vitest';
import {
  ESTIMATOR_PRESETS,
  presetHardware,
  estimate,
  estimatorInputError,
  estimatorOutputs,
  presetSources,
  VERDICT,
} from '../../../src/lib/figures/comm-estimator';
import { fmtInt, fmtPercent, fmtSeconds } from '../../../src/lib/figures/format-quantities';
import { COMM_ESTIMATOR_DEFAULTS as D } from '../../../src/lib/figures/widget-defaults';

const base = {
  params: D.params,
  preset: D.preset,
  nodes: D.nodes,
  gpusPerNode: D.gpusPerNode,
  tokensPerGpu: D.tokensPerGpu,
  mfu: D.mfu,
};

describe('communication estimator outputs', () => {
  it('prints the step estimate of the cluster model, formatted as the chapters format it', () => {
    const e = estimate(base);
    const o = estimatorOutputs(base);
    expect(o.allreduce).toBe(fmtSeconds(e.allReduce));
    expect(o.step).toBe(fmtSeconds(e.stepOverlapped));
    expect(o.efficiency).toBe(fmtPercent(e.efficiency));
    expect(o.breakeven).toBe(fmtInt(e.breakEvenTokensPerGpu));
    expect(o.world).toBe('64 GPUs');
    expect(o.algorithm).toBe('NVLink SHARP inside nodes, tree across, Simple');
    expect(o.busbw).toBe(`${e.collective.busbw.toFixed(1)} GB/s`);
    expect(o.verdict).toBe(VERDICT.compute);
  });
  it('says network bound on one 100 GbE NIC per node, and nothing to send on one GPU', () => {
    expect(estimatorOutputs({ ...base, preset: 'a100-100gbe' }).verdict).toBe(VERDICT.network);
    const one = estimatorOutputs({ ...base, nodes: 1, gpusPerNode: 1 });
    expect(one.algorithm).toBe('one GPU: nothing to send');
    expect(one.allreduce).toBe('0 µs');
  });
  it('explains every input it cannot use', () => {
    expect(estimatorInputError(base)).toBeUndefined();
    expect(estimatorInputError({ ...base, params: 0 })).toMatch(/positive model size/);
    expect(estimatorInputError({ ...base, mfu: 1.5 })).toMatch(/MFU/);
    expect(estimatorInputError({ ...base, gpusPerNode: 9 })).toMatch(/gpus per node must be/);
    expect(estimatorInputError({ ...base, nodes: 0.5 })).toMatch(/nodes must be an integer/);
    expect(estimatorInputError({ ...base, tokensPerGpu: Number.NaN })).toMatch(/positive/);
  });
  it('cites each preset’s sources and the NCCL version its latencies come from', () => {
    const lines = presetSources('h100-ndr');
    expect(lines.some((l) => l.includes('NCCL 2.30.7'))).toBe(true);
    expect(lines.some((l) => l.includes('NVLink SHARP efficiency 0.85'))).toBe(true);
    expect(presetSources('rtx4090-pcie').some((l) => l.startsWith('Not modelled:'))).toBe(true);
  });
});

describe('break-even table of chapter 6 (issue 32 item 4)', () => {
  it('names the hardware without a node count and doubles the bytes for fp32 gradients', () => {
    for (const p of ESTIMATOR_PRESETS) expect(presetHardware(p.id)).not.toMatch(/two nodes/i);
    expect(presetHardware('h100-ndr')).toContain('NVLink SHARP');
    expect(presetHardware('h100-ndr-no-nvls')).not.toContain('SHARP');
    const base = {
      params: 7e9,
      preset: 'a100-100gbe',
      nodes: 8,
      gpusPerNode: 8,
      tokensPerGpu: 4096,
      mfu: 0.4,
    };
    const bf16 = estimate(base);
    const fp32 = estimate({ ...base, gradBytes: 4 });
    // Bandwidth-bound on 100 GbE: twice the bytes, about twice the break-even.
    expect(fp32.breakEvenTokensPerGpu / bf16.breakEvenTokensPerGpu).toBeGreaterThan(1.9);
    expect(fp32.breakEvenTokensPerGpu / bf16.breakEvenTokensPerGpu).toBeLessThanOrEqual(2);
  });
});
