/**
 * Chapter 3's worked example from the source book section: out = einsum('bd,df->bf', x, W) with the
 * batch axis b split over the devices and W replicated. What each device holds, computes and sends.
 */
import { ringBytesSentPerRank } from './collective-costs';

export interface EinsumShape {
  b: number;
  d: number;
  f: number;
  devices: number;
}

/** The source's numbers: b = 5120, d = 2048, f = 1024 on 2 devices. */
export const EINSUM_EXAMPLE: EinsumShape = { b: 5120, d: 2048, f: 1024, devices: 2 };

export interface EinsumPerDevice {
  rows: number;
  inputElements: number;
  weightElements: number;
  outputElements: number;
  /** Multiply-adds count 2 FLOPs. */
  forwardFlops: number;
  /** dX = dY·Wᵀ and dW = Xᵀ·dY, each as large as the forward matmul. */
  backwardFlops: number;
  gradientBytes: number;
  allReduceBytesSent: number;
}

export function einsumPerDevice(s: EinsumShape, bytesPerElement = 4): EinsumPerDevice {
  if (s.b % s.devices !== 0)
    throw new Error(`batch ${s.b} does not split evenly over ${s.devices} devices`);
  const rows = s.b / s.devices;
  const weightElements = s.d * s.f;
  return {
    rows,
    inputElements: rows * s.d,
    weightElements,
    outputElements: rows * s.f,
    forwardFlops: 2 * rows * s.d * s.f,
    backwardFlops: 4 * rows * s.d * s.f,
    gradientBytes: weightElements * bytesPerElement,
    allReduceBytesSent: ringBytesSentPerRank(s.devices, weightElements * bytesPerElement),
  };
}

/** Samples consumed per optimizer step: per-rank micro-batch × ranks × accumulation steps. */
export function globalBatch(perRankBatch: number, ranks: number, accumulationSteps = 1): number {
  return perRankBatch * ranks * accumulationSteps;
}

/** FLOP counts in GFLOP (10⁹), one decimal. */
export function fmtGflop(flops: number): string {
  return `${(flops / 1e9).toFixed(1)} GFLOP`;
}
