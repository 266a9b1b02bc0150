/** Chapter 10's prose describes its playgrounds' settings; these checks keep the two in step. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOCAL_SGD_RUN } from '../../../src/lib/figures/communicating-less.ts';
import { powerSgdCompression } from '../../../src/lib/figures/mixed-precision.ts';
import { rawEmbeds, readProgram } from '../../playground-manifest.ts';

const mdx = readFileSync('content/chapters/10-communicating-less.mdx', 'utf8');
const constant = (program: string, name: string) =>
  Number(new RegExp(`\\b${name} = ([\\d_.e]+)`).exec(readProgram(program))![1]!.replace(/_/g, ''));

describe('chapter 10’s playgrounds run what its prose says', () => {
  it('every playground runs on two 100 GbE nodes of two GPUs', () => {
    for (const e of rawEmbeds('10-communicating-less.mdx'))
      expect(e.cluster, e.src).toEqual({ preset: 'a100-100gbe', nodes: 2, gpusPerNode: 2 });
  });

  it('the compression playground: a 256×128 gradient, PowerSGD rank 4 then 30 steps at rank 1, charged as 1e9 parameters', () => {
    const p = '10-compress-gradients.ts';
    expect([constant(p, 'n'), constant(p, 'm'), constant(p, 'steps')]).toEqual([256, 128, 30]);
    expect(readProgram(p)).toContain('{ rank: 4, errorFeedback: false');
    expect(readProgram(p)).toContain("{ rank: 1, errorFeedback: mode === 'feedback'");
    expect(readProgram(p)).toContain('params: 1e9, tokensPerStep: 1, bytesPerElement: 4');
    expect(mdx).toContain('{fmtInt(256)} × {fmtInt(128)} layer');
    expect(mdx).toContain('1e9-parameter model of such matrices');
    // The expect line's 1536 and 32768 are (n + m)·r and n·m.
    const c = powerSgdCompression(256, 128, 4);
    expect([c.compressed, c.dense]).toEqual([1536, 32768]);
  });

  it('the all-gather playground: 512-value blocks, charged as 7e9 parameters', () => {
    const p = '10-quantized-all-gather.ts';
    expect([constant(p, 'shard'), constant(p, 'block')]).toEqual([8192, 512]); // as the blockwise-quantization card quotes
    expect(readProgram(p)).toContain('params: 7e9, tokensPerStep: 1, bytesPerElement: 4');
    expect(mdx).toContain('one scale per\n512 values');
    expect(mdx).toContain('charged as a 7e9-parameter model');
  });

  it('the local SGD playground: the steps, H, outer rate and momentum, and tokens the chapter names', () => {
    const p = '10-local-sgd.ts';
    expect(constant(p, 'steps')).toBe(LOCAL_SGD_RUN.steps);
    expect(constant(p, 'H')).toBe(LOCAL_SGD_RUN.innerSteps);
    expect(constant(p, 'outerLr')).toBe(LOCAL_SGD_RUN.outerLr);
    expect(constant(p, 'momentum')).toBe(LOCAL_SGD_RUN.outerMomentum);
    expect(readProgram(p)).toContain(
      `tokensPerStep: ${LOCAL_SGD_RUN.tokensPerGpu.toLocaleString('en').replace(/,/g, '_')} * N`,
    );
  });
});
