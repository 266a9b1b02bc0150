/**
 * Communication volume per rank and per training step for each strategy, following the ZeRO
 * paper's section 7 (Rajbhandari et al., 2020) and the FSDP paper (Zhao et al., 2023).
 * Volumes are in parameter elements (Ψ = parameter count); multiply by bytes per element.
 */
import type { Strategy } from './zeroMemory';

export type Phase = 'forward' | 'backward' | 'after step';
export type CollectiveKind = 'all-reduce' | 'reduce-scatter' | 'all-gather';

export interface CommStep {
  phase: Phase;
  collective: CollectiveKind;
  what: string;
  /** Volume in units of Ψ for large world sizes (ring algorithm, (n−1)/n → 1). */
  psi: number;
}

/** The collectives each strategy runs in one step, in order. */
export function commSteps(strategy: Strategy): CommStep[] {
  switch (strategy) {
    case 'ddp':
      return [{ phase: 'backward', collective: 'all-reduce', what: 'gradients (= reduce-scatter Ψ + all-gather Ψ)', psi: 2 }];
    case 'zero1':
    case 'zero2':
      // Each rank needs only the reduced gradients of the shard it updates, then shares its updated parameters.
      return [
        { phase: 'backward', collective: 'reduce-scatter', what: 'gradients', psi: 1 },
        { phase: 'after step', collective: 'all-gather', what: 'updated parameters', psi: 1 },
      ];
    case 'zero3':
      return [
        { phase: 'forward', collective: 'all-gather', what: 'parameters, layer by layer', psi: 1 },
        { phase: 'backward', collective: 'all-gather', what: 'parameters again (freed after forward)', psi: 1 },
        { phase: 'backward', collective: 'reduce-scatter', what: 'gradients', psi: 1 },
      ];
  }
}

/** Total per-rank volume in units of Ψ (large-n limit): DDP 2, ZeRO-1 2, ZeRO-2 2, ZeRO-3 3. */
export function commVolumePsi(strategy: Strategy): number {
  return commSteps(strategy).reduce((sum, s) => sum + s.psi, 0);
}

export function commVolumeByPhase(strategy: Strategy): Record<Phase, number> {
  const out: Record<Phase, number> = { forward: 0, backward: 0, 'after step': 0 };
  for (const s of commSteps(strategy)) out[s.phase] += s.psi;
  return out;
}

/** Ratio of a strategy's volume to DDP's: ZeRO-3 / DDP = 1.5, not 3. */
export function commRatioToDdp(strategy: Strategy): number {
  return commVolumePsi(strategy) / commVolumePsi('ddp');
}

/**
 * Exact bytes one rank sends per step with ring collectives on n ranks: each reduce-scatter or
 * all-gather moves (n−1)/n of the tensor, an all-reduce twice that.
 */
export function commBytesPerRank(strategy: Strategy, params: number, bytesPerElement: number, n: number): number {
  if (n <= 1) return 0;
  return commVolumePsi(strategy) * ((n - 1) / n) * params * bytesPerElement;
}
