/**
 * Figures the chapters and cards quote in prose rather than compute: NCCL's constants (pinned to
 * playground/simulation/nccl-constants.ts, copied from src/graph/tuning.cc) and constants from papers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOP_LATENCY_US } from '../../../playground/simulation/nccl-constants';

const read = (...p: string[]) => readFileSync(join(process.cwd(), ...p), 'utf8');

describe('claims in prose', () => {
  it('NVLS pays 25 µs per NVLink step, a ring step with LL 0.6 µs (tuning.cc hwLatencies)', () => {
    expect(HOP_LATENCY_US.nvlink.nvls.Simple).toBe(25);
    expect(HOP_LATENCY_US.nvlink.ring.LL).toBe(0.6);
    for (const f of [
      ['content', 'chapters', '09-operating-at-scale.mdx'],
      ['content', 'questions', 'hierarchical-all-reduce.md'],
    ]) {
      const text = read(...f).replace(/\s+/g, ' ');
      expect(text).toMatch(/25 µs (per step )?against 0\.6 µs/);
    }
  });
  it('chapter 6 says rings beyond two nodes are priced by the NICs, not by NVLink (tuning.cc)', () => {
    const text = read('content', 'chapters', '06-fsdp-and-choosing.mdx').replace(/\s+/g, ' ');
    expect(text).toContain('bw = nNodes <= 2 ? bwIntra : bwInter');
    expect(text).not.toMatch(/the rings by NVLink/);
  });
  it('LARS: η is a trust coefficient (0.001) multiplying the global rate γ (You et al. 2017, Algorithm 1)', () => {
    for (const f of [
      ['content', 'chapters', '08-batch-size-and-learning-rate.mdx'],
      ['content', 'questions', 'adam-sqrt-scaling-lamb.md'],
    ]) {
      const text = read(...f).replace(/\s+/g, ' ');
      expect(text).toContain('trust coefficient');
      expect(text).toContain('0.001 in the paper');
    }
  });
});
