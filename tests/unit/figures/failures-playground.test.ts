import { describe, expect, it } from 'vitest';
import { LLAMA3_INTERRUPTIONS } from '../../../src/lib/figures/operating-at-scale';
import { GOODPUT_DEFAULTS } from '../../../src/lib/figures/reliability';
import { chargedModel } from '../../../playground/simulation/index.ts';
import { rawEmbeds, readProgram } from '../../playground-manifest.ts';

const program = readProgram('09-failures.ts');
const constant = (name: string) => {
  const m = new RegExp(`\\b${name}: ?([\\d_]+)|\\b${name} = ([\\d_]+)`).exec(program);
  if (!m) throw new Error(`09-failures.ts defines no ${name}`);
  return Number((m[1] ?? m[2])!.replace(/_/g, ''));
};

describe('the failure playground draws from the figures the chapter cites', () => {
  it('Llama 3’s snapshot: 419 unexpected interruptions in 54 days on 16,384 GPUs', () => {
    expect(constant('gpus')).toBe(LLAMA3_INTERRUPTIONS.gpus);
    expect(constant('days')).toBe(LLAMA3_INTERRUPTIONS.days);
    expect(constant('unexpected')).toBe(LLAMA3_INTERRUPTIONS.unexpected);
  });

  it('the chapter’s checkpoint cost and restart time, and Llama 2 7B’s parameter count', () => {
    expect(constant('checkpointMinutes')).toBe(GOODPUT_DEFAULTS.checkpointMinutes);
    expect(constant('restartMinutes')).toBe(GOODPUT_DEFAULTS.restartMinutes);
    expect(constant('LLAMA2_7B')).toBe(chargedModel('llama-2-7b').totalParams);
  });

  it('is embedded on 2 × 8 H100s', () => {
    const embed = rawEmbeds('09-operating-at-scale.mdx').find((e) => e.src === '09-failures.ts')!;
    expect(embed.cluster).toEqual({ preset: 'h100-ndr', nodes: 2, gpusPerNode: 8 });
  });
});
