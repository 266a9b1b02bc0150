import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createSharedWorld } from '../../../playground/collectives/shared-world.ts';
import {
  instantiateReduceKernel,
  type KernelOp,
} from '../../../playground/collectives/kernel/reduce-kernel.ts';
import {
  compileKernelModule,
  kernelWat,
} from '../../../playground/collectives/kernel/build-kernel.mjs';
import { reduceRef } from './harness/reference.ts';

describe('the WASM SIMD reduction kernel', () => {
  it('the committed reduce-wasm.ts is exactly what reduce.wat compiles to (run build-kernel.mjs if not)', async () => {
    const committed = readFileSync(
      new URL('../../../playground/collectives/kernel/reduce-wasm.ts', import.meta.url),
      'utf8',
    );
    expect(committed).toBe(await compileKernelModule());
  });

  it('the committed reduce.wat is exactly what the templates generate (one template per shape, per op and dtype)', () => {
    const committed = readFileSync(
      new URL('../../../playground/collectives/kernel/reduce.wat', import.meta.url),
      'utf8',
    );
    expect(committed).toBe(kernelWat());
    for (const t of ['f32', 'i32'])
      for (const op of ['sum', 'prod', 'max', 'min'])
        expect(committed).toContain(`(export "fused_${op}_${t}")`);
  });

  const world = createSharedWorld(2, { arenaBytes: 2 * 65536 });
  const kernel = instantiateReduceKernel(world.memory);
  const at = world.layout.regionsOffset;

  it('every op and dtype matches the JS reference at every length and byte offset (SIMD body + scalar tail)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<KernelOp>('sum', 'prod', 'max', 'min'),
        fc.constantFrom('float32', 'int32'),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 7 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (op, dtype, len, skew, seed) => {
          const dst = at + skew * 4;
          const src = at + 8192 + skew * 4;
          const make = (s: number) => {
            const a = dtype === 'int32' ? new Int32Array(len) : new Float32Array(len);
            let x = s | 0;
            for (let i = 0; i < len; i++) {
              x = (Math.imul(x, 1103515245) + 12345) | 0;
              a[i] = dtype === 'int32' ? x >> 8 : ((x >> 8) % 1000) / 7;
            }
            return a;
          };
          const a = make(seed);
          const b = make(seed ^ 0x5bd1e995);
          const view = (off: number) =>
            dtype === 'int32'
              ? new Int32Array(world.memory.buffer, off, len)
              : new Float32Array(world.memory.buffer, off, len);
          view(dst).set(a);
          view(src).set(b);
          kernel.reduce(op, dtype as 'float32' | 'int32', dst, src, len);
          expect(Array.from(view(dst))).toEqual(Array.from(reduceRef([a, b], op)));
          expect(Array.from(view(src))).toEqual(Array.from(b));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the fused two-shot pass: reduce chunk across n regions and store into all n, every op incl. avg', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<KernelOp | 'avg'>('sum', 'prod', 'max', 'min', 'avg'),
        fc.constantFrom<'float32' | 'int32'>('float32', 'int32'),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 150 }),
        fc.integer({ min: 0, max: 1000 }),
        (op, dtype, n, len, seed) => {
          const table = at + 60000;
          const regions = Array.from({ length: n }, (_, k) => at + k * 4096 + (seed % 3) * 4);
          const inputs = regions.map((addr, k) => {
            const a = dtype === 'int32' ? new Int32Array(len) : new Float32Array(len);
            for (let i = 0; i < len; i++)
              a[i] =
                op === 'prod'
                  ? [0.5, 1, 2, -1][(i * 7 + k + seed) % 4]!
                  : ((i * 31 + k * 17 + seed) % 41) - 20;
            if (dtype === 'int32' && op === 'prod')
              for (let i = 0; i < len; i++) a[i] = ((i + k + seed) % 5) - 2;
            (dtype === 'int32'
              ? new Int32Array(world.memory.buffer, addr, len)
              : new Float32Array(world.memory.buffer, addr, len)
            ).set(a);
            return a;
          });
          new Int32Array(world.memory.buffer, table, n).set(regions);
          const fused = kernel.reduceIntoAll(op, dtype, table, n, len);
          if (op === 'avg' && dtype === 'int32') {
            expect(fused).toBe(false);
            return;
          }
          expect(fused).toBe(true);
          const expected = Array.from(reduceRef(inputs, op));
          for (const addr of regions) {
            expect(
              Array.from(
                dtype === 'int32'
                  ? new Int32Array(world.memory.buffer, addr, len)
                  : new Float32Array(world.memory.buffer, addr, len),
              ),
            ).toEqual(expected);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('copy moves whole elements, also between overlapping ranges', () => {
    const v = new Int32Array(world.memory.buffer, at, 40);
    v.set(Array.from({ length: 40 }, (_, i) => i));
    kernel.copy(at + 8, at, 30);
    expect(Array.from(v.subarray(0, 34))).toEqual([
      0,
      1,
      ...Array.from({ length: 30 }, (_, i) => i),
      32,
      33,
    ]);
  });

  it('divide: float32 true division, int32 truncation toward zero', () => {
    const f = new Float32Array(world.memory.buffer, at, 7);
    f.set([1, 2, 3, -4, 5, 6, 7]);
    kernel.divide('float32', at, 7, 3);
    expect(Array.from(f)).toEqual([1, 2, 3, -4, 5, 6, 7].map((x) => Math.fround(x / 3)));
    const i = new Int32Array(world.memory.buffer, at, 5);
    i.set([7, -7, 9, 2, -1]);
    kernel.divide('int32', at, 5, 2);
    expect(Array.from(i)).toEqual([3, -3, 4, 1, 0]);
  });
});
