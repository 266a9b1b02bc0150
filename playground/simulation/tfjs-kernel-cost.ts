/**
 * What a tfjs kernel costs on a GPU, from its name, input and output shapes and attributes: matMul and
 * conv kernels by their FLOPs, reductions and everything else by the bytes they move. Pure: the rank
 * worker passes shapes, never tensors.
 */
import {
  batchMatMulCost,
  conv2dCost,
  DTYPE_BYTES,
  reductionCost,
  type KernelCost,
  type SimDtype,
} from './roofline.ts';

/** Kernels that only relabel a buffer's shape: no memory traffic on a GPU. */
const FREE_KERNELS = new Set(['Reshape', 'Identity']);
const REDUCTIONS = new Set(['Sum', 'Mean', 'Max', 'Min', 'Prod', 'ArgMax', 'ArgMin', 'All', 'Any']);
const MATMULS = new Set(['BatchMatMul', '_FusedMatMul']);
const CONVS = new Set(['Conv2D', 'FusedConv2D', 'Conv2DBackpropInput', 'Conv2DBackpropFilter']);

export interface KernelCall {
  name: string;
  /** Shapes of the tensor inputs, in the kernel's input order (a, b; x, filter; dy, …). */
  inputs: readonly (readonly number[])[];
  /** Named inputs where the kernel needs them (conv: x, filter, dy, input shapes). */
  named: Readonly<Record<string, readonly number[]>>;
  outputs: readonly (readonly number[])[];
  attrs: Readonly<Record<string, unknown>>;
}

export interface ChargedKernel {
  cost: KernelCost;
  /** A tensor-core kernel (matMul, conv): its FLOPs are model FLOPs and run at the matmul peak. */
  matmul: boolean;
}

const size = (s: readonly number[]) => s.reduce((a, b) => a * b, 1);

function matMul(call: KernelCall, dtype: SimDtype): KernelCost | null {
  const a = call.named.a;
  const b = call.named.b;
  const out = call.outputs[0];
  if (!a || !b || !out || a.length < 2 || b.length < 2) return null;
  const ta = call.attrs.transposeA === true;
  const tb = call.attrs.transposeB === true;
  const m = ta ? a.at(-1)! : a.at(-2)!;
  const k = ta ? a.at(-2)! : a.at(-1)!;
  const n = tb ? b.at(-2)! : b.at(-1)!;
  const batch = m * n === 0 ? 0 : size(out) / (m * n);
  return batchMatMulCost(Math.round(batch), m, k, n, dtype);
}

function conv(call: KernelCall, dtype: SimDtype): KernelCost | null {
  // Forward: x, filter → y. Backward input: dy, filter → dx. Backward filter: x, dy → filter.
  const filter =
    call.name === 'Conv2DBackpropFilter' ? call.outputs[0] : (call.named.filter ?? undefined);
  const x = call.name === 'Conv2DBackpropInput' ? call.outputs[0] : call.named.x;
  const y = call.name === 'Conv2D' || call.name === 'FusedConv2D' ? call.outputs[0] : call.named.dy;
  if (!filter || !x || !y || filter.length !== 4 || x.length !== 4 || y.length !== 4) return null;
  return conv2dCost(
    {
      batch: x[0]!,
      inHeight: x[1]!,
      inWidth: x[2]!,
      inChannels: x[3]!,
      outHeight: y[1]!,
      outWidth: y[2]!,
      outChannels: y[3]!,
      filterHeight: filter[0]!,
      filterWidth: filter[1]!,
    },
    dtype,
  );
}

/** The kernel's cost; `dtype` is the element type charged (float32 as run, or bf16 when charged as a model). */
export function tfjsKernelCost(call: KernelCall, dtype: SimDtype = 'float32'): ChargedKernel {
  if (FREE_KERNELS.has(call.name)) return { cost: { flops: 0, bytes: 0 }, matmul: false };
  if (MATMULS.has(call.name)) {
    const cost = matMul(call, dtype);
    if (cost) return { cost, matmul: true };
  }
  if (CONVS.has(call.name)) {
    const cost = conv(call, dtype);
    if (cost) return { cost, matmul: true };
  }
  const outElements = call.outputs.reduce((a, s) => a + size(s), 0);
  if (REDUCTIONS.has(call.name) && call.inputs[0])
    return { cost: reductionCost(call.inputs[0], outElements, dtype), matmul: false };
  // Elementwise and data movement: every input read once, every output written once.
  const inElements = call.inputs.reduce((a, s) => a + size(s), 0);
  return {
    cost: { flops: outElements, bytes: DTYPE_BYTES[dtype] * (inElements + outElements) },
    matmul: false,
  };
}
