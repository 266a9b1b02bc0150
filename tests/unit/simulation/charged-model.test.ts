import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  chargedModel,
  layerGroups,
  swigluHidden,
} from '../../../playground/simulation/charged-model.ts';
import {
  chargedBuckets,
  DEFAULT_BUCKET_CAP_MB,
} from '../../../playground/parallel/gradient-buckets.ts';

const MiB = 2 ** 20;

describe('named charged models (torchtitan llama2 configs)', () => {
  it('Llama 2 7B and 13B have their published parameter counts, in registration order', () => {
    const m7 = chargedModel('llama-2-7b');
    expect(swigluHidden(4096)).toBe(11008);
    expect(swigluHidden(5120)).toBe(13824);
    expect(m7.totalParams).toBe(6_738_415_616);
    expect(chargedModel('llama-2-13b').totalParams).toBe(13_015_864_320);
    // embedding, 9 tensors per block, final norm, output
    expect(m7.params).toHaveLength(1 + 32 * 9 + 2);
    expect(m7.params[0]!.name).toBe('tok_embeddings.weight');
    expect(m7.params[1]!.name).toBe('layers.0.attention.wq.weight');
    expect(m7.params.at(-1)!.name).toBe('output.weight');
    expect(m7.layers).toHaveLength(34);
    expect(m7.layers.filter((l) => l.unit === -1).map((l) => l.name)).toEqual([
      'embedding',
      'norm + output',
    ]);
    expect(() => chargedModel('gpt-5')).toThrow(/unknown model 'gpt-5'/);
  });

  it('the toy layers walk every charged layer once, in order', () => {
    for (const toy of [1, 5, 9, 34, 40]) {
      const groups = layerGroups(34, toy);
      expect(groups).toHaveLength(toy);
      expect(groups.flat()).toEqual(Array.from({ length: 34 }, (_, i) => i));
    }
  });
});

describe('DDP buckets of Llama 2 7B under PyTorch defaults (bf16 gradients)', () => {
  const model = chargedModel('llama-2-7b');
  const bytes = model.params.map((p) => p.elements * 2);
  const rebuilt = chargedBuckets(model, 2, true, {});

  it('construction: one bucket (find_unused_parameters=False passes [sys.maxsize])', () => {
    const first = chargedBuckets(model, 2, false, {});
    expect(first).toHaveLength(1);
    expect(first[0]!.bytes).toBe(model.totalParams * 2);
  });

  it('rebuild: reverse registration order, a bucket closes once it reaches 1 MiB, then 25 MiB', () => {
    expect(rebuilt.flatMap((b) => b.params)).toEqual(bytes.map((_, i) => bytes.length - 1 - i));
    expect(rebuilt[0]!.params).toEqual([model.params.length - 1]); // output.weight alone
    rebuilt.forEach((b, i) => {
      const limit = (i === 0 ? 1 : DEFAULT_BUCKET_CAP_MB) * MiB;
      const lastOne = bytes[b.params.at(-1)!]!;
      if (i < rebuilt.length - 1) expect(b.bytes).toBeGreaterThanOrEqual(limit);
      expect(b.bytes - lastOne).toBeLessThan(limit);
    });
    expect(rebuilt).toHaveLength(226);
  });

  it('the sizes chapter 4 names are the model’s', () => {
    const mib = (name: string) => (model.params.find((p) => p.name === name)!.elements * 2) / MiB;
    expect(mib('layers.0.attention.wq.weight')).toBe(32);
    expect(Math.round(mib('layers.0.feed_forward.w1.weight'))).toBe(86);
    expect(Math.round(mib('tok_embeddings.weight'))).toBe(250);
    const mdx = readFileSync('content/chapters/04-inside-ddp.mdx', 'utf8');
    // The prose prints each size from the model's shape, in bf16 (two bytes an element).
    expect(mdx).toContain('export const bf16MiB = (elements) => fmtMiB(elements * 2, 0);');
    expect(mdx).toContain('export const ov = overlapModel.shape;');
    for (const s of [
      '{bf16MiB(ov.dim * ov.dim)} for an attention',
      '{bf16MiB(ov.dim * ov.ffnHidden)} for an MLP one',
      "embedding's {bf16MiB(ov.vocab * ov.dim)}",
    ])
      expect(mdx).toContain(s);
    expect(model.shape.ffnHidden).toBe(11008);
    expect(mdx).toContain(
      'export const overlapBuckets = chargedBuckets(overlapModel, 2, true, {});',
    );
  });
});
