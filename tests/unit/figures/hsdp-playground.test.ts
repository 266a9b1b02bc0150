import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chargedModel } from '../../../playground/simulation/index.ts';
import { rawEmbeds, readProgram } from '../../playground-manifest.ts';

describe('the HSDP playground', () => {
  it('charges Llama 2 7B’s parameter count and is embedded on 2 nodes of the two-NIC H100 preset', () => {
    const program = readProgram('09-hsdp.ts');
    const params = /LLAMA2_7B = ([\d_]+)/.exec(program)![1]!.replace(/_/g, '');
    expect(Number(params)).toBe(chargedModel('llama-2-7b').totalParams);
    const embed = rawEmbeds('09-operating-at-scale.mdx').find((e) => e.src === '09-hsdp.ts')!;
    expect(embed.cluster).toEqual({ preset: 'h100-2nic', nodes: 2, gpusPerNode: 8 });
    // The prose names the preset it starts on through the same id.
    expect(readFileSync('content/chapters/09-operating-at-scale.mdx', 'utf8')).toContain(
      "export const hsdpPreset = 'h100-2nic';",
    );
  });
});
