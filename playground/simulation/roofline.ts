/**
 * The time a kernel takes on one GPU by the roofline: max(FLOPs / (peak × efficiency), bytes moved /
 * HBM bandwidth). FLOP and byte counts are pure functions of shapes and dtypes, so the runtime can
 * charge every tfjs kernel a rank executes without looking at its values.
 */
import type { GpuSpec } from './presets.ts';

export const DTYPE_BYTES = { float32: 4, bfloat16: 2, float16: 2, int32: 4, bool: 1 } as const;
export type SimDtype = keyof typeof DTYPE_BYTES;

/** Which peak a kernel runs at: tensor cores (bf16/fp16 matmuls) or the fp32 pipes. */
export type ComputeUnit = 'bf16-tensor' | 'fp32';

export interface KernelCost {
  flops: number;
  /** Bytes read from and written to HBM, each operand once. */
  bytes: number;
}

export interface RooflineOptions {
  unit?: ComputeUnit;
  /** Fraction of peak FLOP/s a real kernel reaches (model FLOPs utilisation); 1 = the roofline itself. */
  efficiency?: number;
}

export interface RooflineTime {
  seconds: number;
  bound: 'compute' | 'memory';
}

export function peakFlops(gpu: GpuSpec, unit: ComputeUnit): number {
  return unit === 'bf16-tensor' ? gpu.bf16Flops.value : gpu.fp32Flops.value;
}

export function rooflineSeconds(
  cost: KernelCost,
  gpu: GpuSpec,
  opts: RooflineOptions = {},
): RooflineTime {
  const efficiency = opts.efficiency ?? 1;
  if (!(efficiency > 0 && efficiency <= 1))
    throw new RangeError(`efficiency must be in (0, 1], got ${efficiency}`);
  const compute = cost.flops / (peakFlops(gpu, opts.unit ?? 'bf16-tensor') * efficiency);
  const memory = cost.bytes / gpu.hbmBandwidth.value;
  return compute >= memory
    ? { seconds: compute, bound: 'compute' }
    : { seconds: memory, bound: 'memory' };
}

const product = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

function checkShape(name: string, shape: readonly number[]): void {
  if (!shape.every((d) => Number.isInteger(d) && d >= 0))
    throw new RangeError(`${name} shape must be non-negative integers, got [${shape.join(', ')}]`);
}

/** C[m×n] = A[m×k] · B[k×n]: 2mkn FLOPs (a multiply and an add per term); A, B read, C written. */
export function matMulCost(
  m: number,
  k: number,
  n: number,
  dtype: SimDtype = 'float32',
): KernelCost {
  checkShape('matMul', [m, k, n]);
  return { flops: 2 * m * k * n, bytes: DTYPE_BYTES[dtype] * (m * k + k * n + m * n) };
}

/** A batch of independent matMuls, as tf.matMul on rank-3 tensors (batchMatMul). */
export function batchMatMulCost(
  batch: number,
  m: number,
  k: number,
  n: number,
  dtype: SimDtype = 'float32',
): KernelCost {
  checkShape('batchMatMul', [batch]);
  const one = matMulCost(m, k, n, dtype);
  return { flops: batch * one.flops, bytes: batch * one.bytes };
}

export interface Conv2dShape {
  batch: number;
  inHeight: number;
  inWidth: number;
  inChannels: number;
  outHeight: number;
  outWidth: number;
  outChannels: number;
  filterHeight: number;
  filterWidth: number;
}

/** NHWC conv2d: every output element is a dot product over filterH × filterW × inChannels. */
export function conv2dCost(s: Conv2dShape, dtype: SimDtype = 'float32'): KernelCost {
  checkShape('conv2d', Object.values(s));
  const outputs = s.batch * s.outHeight * s.outWidth * s.outChannels;
  const input = s.batch * s.inHeight * s.inWidth * s.inChannels;
  const filter = s.filterHeight * s.filterWidth * s.inChannels * s.outChannels;
  return {
    flops: 2 * outputs * s.filterHeight * s.filterWidth * s.inChannels,
    bytes: DTYPE_BYTES[dtype] * (input + filter + outputs),
  };
}

/**
 * An elementwise kernel (add, relu, the optimizer's update…) is memory bound: it reads its inputs
 * and writes its output once, with `flopsPerElement` arithmetic per output element.
 */
export function elementwiseCost(
  outputShape: readonly number[],
  inputs: number,
  dtype: SimDtype = 'float32',
  flopsPerElement = 1,
): KernelCost {
  checkShape('elementwise', outputShape);
  const elements = product(outputShape);
  return { flops: elements * flopsPerElement, bytes: DTYPE_BYTES[dtype] * elements * (inputs + 1) };
}

/**
 * One optimizer step over `elements` fp32 parameters as PyTorch's fused kernel runs it (`fused=True`:
 * `_fused_adam_cuda_impl_` in aten/src/ATen/native/cuda/fused_adam_impl.cu hands the parameters,
 * gradients, exp_avg and exp_avg_sq lists to one `multi_tensor_apply_for_fused_optimizer<4>`): every
 * parameter, gradient and state element is read once, and the parameter and the state written once.
 * Adam (2 state tensors): 7 × 4 = 28 bytes per parameter; plain SGD 12; SGD with momentum 20. One FLOP per
 * element read, as for the other elementwise kernels: the step is memory bound on every GPU.
 */
export function fusedOptimizerCost(elements: number, stateSlots: number): KernelCost {
  checkShape('optimizer', [elements, stateSlots]);
  const reads = 2 + stateSlots;
  const writes = 1 + stateSlots;
  return { flops: elements * reads, bytes: DTYPE_BYTES.float32 * elements * (reads + writes) };
}

/** A reduction (sum, mean, max) over `inputShape` into `outputElements` values. */
export function reductionCost(
  inputShape: readonly number[],
  outputElements: number,
  dtype: SimDtype = 'float32',
): KernelCost {
  checkShape('reduction', inputShape);
  const elements = product(inputShape);
  return { flops: elements, bytes: DTYPE_BYTES[dtype] * (elements + outputElements) };
}

/** Training FLOPs of a dense transformer step: 6 × parameters × tokens (2 forward, 4 backward; Kaplan et al. 2020, §2.1). */
export function transformerStepFlops(
  params: number,
  tokens: number,
): { forward: number; backward: number } {
  return { forward: 2 * params * tokens, backward: 4 * params * tokens };
}
