/**
 * The worked figures of the ZeRO paper (Rajbhandari et al., 2020), recomputed from its inputs.
 * The paper's printed values live only in the tests, which compare them with these results.
 */
import { zeroPerGpuBytes } from './zero-memory';

/** Figure 1: Ψ = 7.5B parameters, N_d = 64 data-parallel GPUs, K = 12 (mixed-precision Adam). */
export const FIGURE1 = { params: 7.5e9, gpus: 64, k: 12 } as const;

/** Memory per GPU for stages 0–3 of Figure 1 (baseline, P_os, P_os+g, P_os+g+p). */
export function figure1Bytes(): [number, number, number, number] {
  const f = (stage: 0 | 1 | 2 | 3) =>
    zeroPerGpuBytes({ params: FIGURE1.params, gpus: FIGURE1.gpus, stage, accounting: 'paper' });
  return [f(0), f(1), f(2), f(3)];
}

/** Section 3.1: a 1.5B-parameter GPT-2 needs 16Ψ bytes of model states, against 2Ψ for its fp16 weights. */
export const GPT2_PARAMS = 1.5e9;
export function gpt2ModelStateBytes(): { weights: number; modelStates: number } {
  return {
    weights: GPT2_PARAMS * 2,
    modelStates: zeroPerGpuBytes({ params: GPT2_PARAMS, gpus: 1, stage: 0, accounting: 'paper' }),
  };
}

/** Table 1 grid: model sizes and data-parallel degrees the paper tabulates. */
export const TABLE1_MODELS = [7.5e9, 128e9, 1e12] as const;
export const TABLE1_GPUS = [1, 4, 16, 64, 256, 1024] as const;

/** One row of Table 1: per-GPU GB for P_os, P_os+g, P_os+g+p. */
export function table1Row(params: number, gpus: number): [number, number, number] {
  const f = (stage: 1 | 2 | 3) => zeroPerGpuBytes({ params, gpus, stage, accounting: 'paper' });
  return [f(1), f(2), f(3)];
}
