/**
 * Figures the chapters and cards quote in prose rather than compute: NCCL's constants (pinned to
 * playground/simulation/nccl-constants.ts, copied from src/graph/tuning.cc) and constants from papers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOP_LATENCY_US } from '../../../playground/simulation/nccl-constants';
import { LARS_TRUST_COEFFICIENT } from '../../../src/lib/figures/llm-batch';
import { dupChannels } from '../../../src/lib/figures/nccl-search';

const read = (...p: string[]) => readFileSync(join(process.cwd(), ...p), 'utf8');

describe('claims in prose', () => {
  it('NVLS pays 25 µs per NVLink step, a ring step with LL 0.6 µs (tuning.cc hwLatencies)', () => {
    expect(HOP_LATENCY_US.nvlink.nvls.Simple).toBe(25);
    expect(HOP_LATENCY_US.nvlink.ring.LL).toBe(0.6);
    // The chapter prints the constants; the card quotes them (card-numbers.test.ts pins the card too).
    const chapter = read('content', 'chapters', '09-operating-at-scale.mdx').replace(/\s+/g, ' ');
    expect(chapter).toContain(
      '{HOP_LATENCY_US.nvlink.nvls.Simple}&nbsp;µs against {HOP_LATENCY_US.nvlink.ring.LL}&nbsp;µs',
    );
    const card = read('content', 'questions', 'hierarchical-all-reduce.md').replace(/\s+/g, ' ');
    expect(card).toMatch(/25 µs (per step )?against 0\.6 µs/);
  });
  it('chapter 6 says rings beyond two nodes are priced by the NICs, not by NVLink (tuning.cc)', () => {
    const text = read('content', 'chapters', '06-fsdp-and-choosing.mdx').replace(/\s+/g, ' ');
    expect(text).toContain('bw = nNodes <= 2 ? bwIntra : bwInter');
    expect(text).not.toMatch(/the rings by NVLink/);
  });
  it('LARS: η is a trust coefficient (0.001) multiplying the global rate γ (You et al. 2017, Algorithm 1)', () => {
    expect(LARS_TRUST_COEFFICIENT).toBe(0.001);
    const chapter = read('content', 'chapters', '08-batch-size-and-learning-rate.mdx');
    expect(chapter.replace(/\s+/g, ' ')).toContain('trust coefficient');
    expect(chapter).toContain('{LARS_TRUST_COEFFICIENT} in the paper');
    const card = read('content', 'questions', 'adam-sqrt-scaling-lamb.md').replace(/\s+/g, ' ');
    expect(card).toContain('trust coefficient');
    expect(card).toContain('0.001 in the paper');
  });
  it("NCCL's channel duplication rule (search.cc ncclTopoDupChannels)", () => {
    expect(dupChannels('ring', 40, 90, 4)).toBe(true);
    expect(dupChannels('ring', 20, 90, 4)).toBe(false);
    expect(dupChannels('nvls', 40, 90, 4)).toBe(false);
    expect(dupChannels('ring', 40, 100, 8)).toBe(false);
  });
});
