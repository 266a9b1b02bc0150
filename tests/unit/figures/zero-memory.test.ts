import { describe, expect, it } from 'vitest';
import { layoutNote } from '../../../src/lib/figures/memory-calculator-text';
import {
  bytesPerParam,
  layoutOptionLabel,
  memoryFormula,
  zeroPerGpuBreakdown,
  zeroPerGpuBytes,
  LAYOUTS,
  MEGATRON_BF16_BYTES,
  MIXED_PRECISION_LAYOUTS,
  STRATEGIES,
} from '../../../src/lib/figures/zero-memory';
import { SOURCE_70B_TABLE } from '../../../src/lib/figures/source-errata';

const GB = 1e9;
const seventyB = (stage: 0 | 1 | 2 | 3, accounting: 'paper' | 'chapter') =>
  zeroPerGpuBytes({ params: 70e9, gpus: 8, stage, accounting });

describe('bytes per parameter', () => {
  it('mixed-precision Adam is 2 + 2 + 12 = 16 bytes in the ZeRO paper (K = 12)', () => {
    expect(bytesPerParam('bf16-mixed', 'adam', 'paper')).toEqual({
      params: 2,
      grads: 2,
      optimizer: 12,
    });
  });
  it("the source chapter's accounting drops the fp32 master copy: 2 + 2 + 8", () => {
    expect(bytesPerParam('bf16-mixed', 'adam', 'chapter')).toEqual({
      params: 2,
      grads: 2,
      optimizer: 8,
    });
  });
  it('fp32 training: weights and gradients 4 bytes each; SGD 0, momentum 4, Adam 8 bytes of state', () => {
    expect(bytesPerParam('fp32', 'sgd').optimizer).toBe(0);
    expect(bytesPerParam('fp32', 'sgd-momentum').optimizer).toBe(4);
    expect(bytesPerParam('fp32', 'adam')).toEqual({ params: 4, grads: 4, optimizer: 8 });
  });
});

describe('the two mixed-precision layouts', () => {
  it('Megatron-LM in bf16 keeps fp32 gradients (arguments.py forces fp32 accumulation): 2 + 4 + 12 = 18 bytes, more than either layout', () => {
    expect(
      MEGATRON_BF16_BYTES.params + MEGATRON_BF16_BYTES.grads + MEGATRON_BF16_BYTES.optimizer,
    ).toBe(18);
    for (const layout of LAYOUTS) {
      const b = bytesPerParam('bf16-mixed', 'adam', 'paper', layout);
      expect(b.params + b.grads + b.optimizer).toBe(16);
    }
  });
  it('DeepSpeed ZeRO: half-precision weights and gradients plus an fp32 master in the optimizer, 2 + 2 + 12', () => {
    expect(bytesPerParam('bf16-mixed', 'adam', 'paper', 'half-weights')).toEqual({
      params: 2,
      grads: 2,
      optimizer: 12,
    });
  });
  it('PyTorch autocast / FSDP MixedPrecision: fp32 weights and gradients, no separate master, 4 + 4 + 8', () => {
    expect(bytesPerParam('bf16-mixed', 'adam', 'paper', 'fp32-weights')).toEqual({
      params: 4,
      grads: 4,
      optimizer: 8,
    });
    // Nothing to leave out: the chapter accounting only drops a master copy this layout does not have.
    expect(bytesPerParam('bf16-mixed', 'adam', 'chapter', 'fp32-weights')).toEqual({
      params: 4,
      grads: 4,
      optimizer: 8,
    });
  });
  it("both keep 16 bytes of model states per parameter; PyTorch's DDP and ZeRO-1 also hold autocast's bf16 weight copies, so only ZeRO-3 costs the same", () => {
    const at = (
      strategy: 'ddp' | 'zero1' | 'zero2' | 'zero3',
      layout: 'half-weights' | 'fp32-weights',
    ) => zeroPerGpuBytes({ params: 7e9, gpus: 8, strategy, layout }) / GB;
    // Under torch.autocast each fp32 weight is cast to bf16 for its matmul and autograd saves that copy for
    // backward: 2Ψ on top of DDP's and ZeRO-1's fp32 states (112 + 14, 63 + 14 GB).
    expect(LAYOUTS.map((l) => at('ddp', l))).toEqual([112, 126]);
    expect(LAYOUTS.map((l) => at('zero3', l))).toEqual([14, 14]);
    expect(LAYOUTS.map((l) => at('zero1', l))).toEqual([38.5, 77]);
    // PyTorch's ZeRO-2 is FSDP SHARD_GRAD_OP: fp32 shards (16Ψ/N) plus the bf16 copy of the whole model
    // held from forward to backward (2Ψ): 14 + 14 GB at its peak.
    expect(LAYOUTS.map((l) => at('zero2', l))).toEqual([26.25, 28]);
    expect(memoryFormula({ strategy: 'zero2', layout: 'fp32-weights' })).toBe(
      '2Ψ + 4Ψ/N + 4Ψ/N + 8Ψ/N',
    );
    // On one GPU FSDP runs NO_SHARD: every stage costs what DDP costs, in both layouts.
    for (const l of LAYOUTS)
      expect(
        new Set(
          STRATEGIES.map((strategy) =>
            zeroPerGpuBytes({ params: 1e9, gpus: 1, strategy, layout: l }),
          ),
        ).size,
      ).toBe(1);
  });
  it("in PyTorch's layout each stage still needs no more than the one before, for N ≥ 2", () => {
    for (const gpus of [2, 8, 64]) {
      const totals = STRATEGIES.map((strategy) =>
        zeroPerGpuBytes({ params: 7e9, gpus, strategy, layout: 'fp32-weights' }),
      );
      for (let i = 1; i < totals.length; i++)
        expect(totals[i]!).toBeLessThanOrEqual(totals[i - 1]!);
    }
  });
  it('the layout table names its frameworks and sources', () => {
    for (const l of LAYOUTS) {
      const f = MIXED_PRECISION_LAYOUTS[l];
      expect(f.params + f.grads + f.master + 8).toBe(16);
      expect(f.zero2 === 'fsdp-shard-grad-op').toBe(f.computeCopy > 0);
      expect(f.source).toMatch(/\.py|section/);
    }
    expect(MIXED_PRECISION_LAYOUTS['fp32-weights'].frameworks).toMatch(/autocast.*FSDP/);
  });
  it('labels the calculator shows: framework and bytes, and a note that says where the master copy is', () => {
    expect(layoutOptionLabel('half-weights')).toBe('DeepSpeed (2 + 2 + 12)');
    expect(layoutOptionLabel('fp32-weights')).toBe('PyTorch (4 + 4 + 8)');
    expect(
      layoutNote({ precision: 'bf16-mixed', optimizer: 'adam', layout: 'half-weights' }),
    ).toContain('fp32 master copy (2 + 2 + 12 bytes per parameter, K = 12)');
    expect(
      layoutNote({ precision: 'bf16-mixed', optimizer: 'adam', layout: 'fp32-weights' }),
    ).toContain('no master copy (4 + 4 + 8 bytes per parameter)');
    expect(layoutNote({ precision: 'fp32', optimizer: 'sgd', layout: 'fp32-weights' })).toContain(
      'mixed precision only',
    );
    expect(
      layoutNote({
        precision: 'bf16-mixed',
        optimizer: 'adam',
        layout: 'fp32-weights',
        strategy: 'zero2',
      }),
    ).toContain('SHARD_GRAD_OP: fp32 shards plus a 2-byte copy');
  });
  it('fp32 training ignores the layout', () => {
    expect(bytesPerParam('fp32', 'adam', 'paper', 'half-weights')).toEqual(
      bytesPerParam('fp32', 'adam', 'paper', 'fp32-weights'),
    );
  });
});

describe('70B parameters on 8 GPUs', () => {
  it('chapter accounting (2+2+8): 840 / 350 / 227.5 / 105 GB', () => {
    expect([0, 1, 2, 3].map((s) => seventyB(s as 0, 'chapter') / GB)).toEqual([
      840, 350, 227.5, 105,
    ]);
  });
  it('paper accounting (16 bytes): 1120 / 385 / 262.5 / 140 GB', () => {
    expect([0, 1, 2, 3].map((s) => seventyB(s as 0, 'paper') / GB)).toEqual([
      1120, 385, 262.5, 140,
    ]);
  });
  it('the ZeRO-2 row is params + grads/N + optimizer/N, so the source figure of 210 GB is wrong', () => {
    expect(seventyB(2, 'chapter')).toBe(140 * GB + (140 * GB) / 8 + (560 * GB) / 8);
    expect(seventyB(2, 'chapter')).not.toBe(SOURCE_70B_TABLE.zero2);
  });
  it('the other rows of the source table agree with its own accounting', () => {
    expect(seventyB(0, 'chapter')).toBe(SOURCE_70B_TABLE.ddp);
    expect(seventyB(1, 'chapter')).toBe(SOURCE_70B_TABLE.zero1);
    expect(seventyB(3, 'chapter')).toBe(SOURCE_70B_TABLE.zero3);
  });
  it('210 GB is what remains when the gradients are left out altogether', () => {
    const b = zeroPerGpuBreakdown({ params: 70e9, gpus: 8, stage: 2, accounting: 'chapter' });
    expect(b.params + b.optimizer).toBe(SOURCE_70B_TABLE.zero2);
  });
});

describe('sharding invariants', () => {
  it('each stage never uses more memory than the one before, and one GPU means no saving', () => {
    for (const params of [1e6, 7.5e9, 70e9])
      for (const gpus of [1, 2, 8, 64]) {
        const totals = STRATEGIES.map((strategy) => zeroPerGpuBytes({ params, gpus, strategy }));
        for (let i = 1; i < totals.length; i++)
          expect(totals[i]!).toBeLessThanOrEqual(totals[i - 1]!);
        if (gpus === 1) expect(new Set(totals).size).toBe(1);
      }
  });
  it('ZeRO-3 is exactly the replicated total divided by N', () => {
    expect(zeroPerGpuBytes({ params: 1e9, gpus: 16, strategy: 'zero3' })).toBe(
      zeroPerGpuBytes({ params: 1e9, gpus: 1, strategy: 'ddp' }) / 16,
    );
  });
  it('rejects nonsense', () => {
    expect(() => zeroPerGpuBytes({ params: -1, gpus: 2 })).toThrow(RangeError);
    expect(() => zeroPerGpuBytes({ params: 1, gpus: 0 })).toThrow(RangeError);
    expect(() => zeroPerGpuBytes({ params: 1, gpus: 1.5 })).toThrow(RangeError);
  });
});

describe('formula shown by the memory calculator', () => {
  it('names each term and marks the sharded ones /N', () => {
    expect(memoryFormula({ strategy: 'ddp' })).toBe('2Ψ + 2Ψ + 12Ψ');
    expect(memoryFormula({ strategy: 'zero1' })).toBe('2Ψ + 2Ψ + 12Ψ/N');
    expect(memoryFormula({ strategy: 'zero2' })).toBe('2Ψ + 2Ψ/N + 12Ψ/N');
    expect(memoryFormula({ strategy: 'zero3', precision: 'fp32', optimizer: 'sgd' })).toBe(
      '4Ψ/N + 4Ψ/N',
    );
    expect(memoryFormula({ strategy: 'zero1', layout: 'fp32-weights' })).toBe(
      '2Ψ + 4Ψ + 4Ψ + 8Ψ/N',
    );
    expect(memoryFormula({ strategy: 'zero3', layout: 'fp32-weights' })).toBe('4Ψ/N + 4Ψ/N + 8Ψ/N');
  });
});
