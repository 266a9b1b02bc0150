import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLUSTER_PRESETS } from '../../../playground/simulation/presets.ts';
import {
  checkEmbedCluster,
  clusterChoices,
  GPU_CHOICES,
  MAX_SIMULATED_WORLD,
  NODE_CHOICES,
} from '../../../src/lib/playground/cluster-choices.ts';
import { rawEmbeds, readProgram } from '../../playground-manifest.ts';
import { DDP_EXAMPLE } from '../../../src/lib/figures/ddp-time-example.ts';
import { TIME_AGREEMENT_PLAYGROUNDS } from './time-agreement.ts';

const chapter = (f: string) => readFileSync(`content/chapters/${f}`, 'utf8');
const embed = (file: string, src: string) => rawEmbeds(file).find((e) => e.src === src)!;

describe('the cluster selector offers the one preset list', () => {
  it('one option per preset, in order, with its GPU count per node', () => {
    expect(clusterChoices().map((c) => [c.id, c.gpusPerNode])).toEqual(
      CLUSTER_PRESETS.map((p) => [p.id, p.gpusPerNode.value]),
    );
    expect(clusterChoices().find((c) => c.id === 'h100-ndr')!.label).toContain('NVLS');
    expect(clusterChoices().find((c) => c.id === 'h100-ndr-no-nvls')!.label).not.toContain('NVLS');
    // Every count to 16, then doubling to the runtime's world limit (1,024 with logical ranks).
    expect(NODE_CHOICES.slice(0, 17)).toEqual([...Array.from({ length: 16 }, (_, i) => i + 1), 32]);
    expect(NODE_CHOICES.at(-1)).toBe(MAX_SIMULATED_WORLD);
    // The GB200 NVL72 rack has 72 GPUs per node: offered whole, as are the 8 of a DGX.
    expect(GPU_CHOICES).toContain(8);
    expect(GPU_CHOICES).toContain(72);
  });

  it('an embed cannot preselect a shape the selector lacks', () => {
    expect(() => checkEmbedCluster('h100-ndr', 2, 8)).not.toThrow();
    expect(() => checkEmbedCluster('h100-ndr', 3, 8)).not.toThrow();
    expect(() => checkEmbedCluster('h100-ndr', 17, 8)).toThrow(/not a shape the selector offers/);
    expect(() => checkEmbedCluster('h100-ndr', MAX_SIMULATED_WORLD, 2)).toThrow(
      new RegExp(`1 to ${MAX_SIMULATED_WORLD}`),
    );
    expect(() => checkEmbedCluster('h100-ndr', 1, 9)).toThrow(/1 to 8 GPUs/);
    expect(() => checkEmbedCluster('tpu-v5', 1, 1)).toThrow(/not a preset/);
  });
});

describe('what the time playgrounds charge is what their prose says', () => {
  it('chapter 4’s bucket sweep charges the model its prose names', () => {
    const mdx = chapter('04-inside-ddp.mdx');
    const prose = /export const bucketSweepParams = ([\d.e]+);/.exec(mdx)![1]!;
    const program = readProgram('04-bucket-sweep.ts');
    expect(Number(/chargedParams = ([\d.e]+);/.exec(program)![1])).toBe(Number(prose));
  });

  it('chapter 4 exercise 3 charges the scaling paragraph’s model and tokens per GPU', () => {
    const mdx = chapter('04-inside-ddp.mdx');
    expect(mdx).toContain('export const scaling = { params: DDP_EXAMPLE.params,');
    expect(mdx).toContain('export const tokens = DDP_EXAMPLE.tokens;');
    const program = readProgram('04-communication-overhead.ts');
    expect(Number(/params: ([\d.e]+), tokensPerStep/.exec(program)![1])).toBe(DDP_EXAMPLE.params);
    expect(Number(/tokensPerGpu = (\d+)/.exec(program)![1])).toBe(DDP_EXAMPLE.tokens.large);
    expect(embed('04-inside-ddp.mdx', '04-communication-overhead.ts').cluster).toEqual({
      preset: 'h100-ndr',
      nodes: 2,
      gpusPerNode: 2,
    });
  });

  it('chapter 3’s straggler is rank 3 at half speed on four H100s of one node', () => {
    expect(embed('03-data-parallel-from-scratch.mdx', '03-straggler.ts').cluster).toEqual({
      preset: 'h100-ndr',
      nodes: 1,
      gpusPerNode: 4,
      slowdown: { 3: 2 },
    });
  });

  it('one node versus two starts on two 100 GbE nodes of two A100s', () => {
    expect(embed('04-inside-ddp.mdx', '04-scaling-nodes.ts').cluster).toEqual({
      preset: 'a100-100gbe',
      nodes: 2,
      gpusPerNode: 2,
    });
  });
  it('chapter 6’s prefetch playground charges the model its prose names, switches both prefetches between 1 and 0, on four A100s', () => {
    const mdx = chapter('06-fsdp-and-choosing.mdx');
    expect(mdx).toContain("export const prefetchModel = chargedModel('llama-2-7b');");
    expect(mdx).toContain(
      'charges each step as {prefetchName} ({fmtParams(prefetchModel.totalParams)} parameters)',
    );
    expect(mdx).toContain("export const prefetchName = 'Llama 2 7B';");
    const program = readProgram('06-fsdp-prefetch.ts');
    expect(program).toContain("const chargeAs = { model: 'llama-2-7b', tokensPerStep");
    expect(program).toContain('forwardPrefetch: prefetch ? 1 : 0');
    expect(program).toContain('backwardPrefetch: prefetch ? 1 : 0');
    expect(embed('06-fsdp-and-choosing.mdx', '06-fsdp-prefetch.ts').cluster).toEqual({
      preset: 'a100-hdr',
      nodes: 1,
      gpusPerNode: 4,
    });
  });
});

describe('the step report and the programs read one clock with one set of definitions', () => {
  it('every playground checked against its step report is embedded on a simulated cluster', () => {
    for (const src of TIME_AGREEMENT_PLAYGROUNDS) {
      const page = [
        '03-data-parallel-from-scratch.mdx',
        '04-inside-ddp.mdx',
        '06-fsdp-and-choosing.mdx',
      ].find((f) => rawEmbeds(f).some((e) => e.src === src));
      expect(page && embed(page, src).cluster, src).toBeTruthy();
    }
  });

  it('chapter 4 prints the report’s own definitions', () => {
    expect(chapter('04-inside-ddp.mdx')).toContain(
      '<ul>{STEP_FIGURES.map((f) => <li><strong>{f.figure}</strong>: {f.definition}.</li>)}</ul>',
    );
  });
});
