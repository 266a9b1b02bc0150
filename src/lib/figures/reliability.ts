/**
 * Reliability arithmetic of chapter 9: how often a job of G GPUs is interrupted, how often to
 * checkpoint, and what fraction of the time is left for training (goodput).
 *
 * Rates come from the Llama 3 report (Dubey et al. 2024, §3.3.4 and Table 5: 419 unexpected
 * interruptions in 54 days on 16,384 H100s, "GPU issues are the largest category, accounting for
 * 58.7% of all unexpected issues"). The checkpoint interval is Young's first-order optimum
 * (J. W. Young, "A first order approximation to the optimum checkpoint interval", CACM 17(9), 1974):
 * τ = √(2·C·M) for a checkpoint that stops training for C and a mean time between failures M.
 */
import { LLAMA3_INTERRUPTIONS } from './operating-at-scale';

/** §3.3.4: the share of the unexpected interruptions the report attributes to GPUs (Table 5's GPU rows: faulty GPU, HBM3, SRAM, GPU system processor, silent data corruption, thermal interface and sensor). */
export const LLAMA3_GPU_SHARE = 0.587;

/** Per-GPU interruption rates implied by the snapshot, if interruptions strike GPUs independently. */
export function llama3PerGpuMtbf(): {
  /** Job MTBF × GPUs: the per-GPU share of every interruption (switches, cables, software, hosts included). */
  allCausesHours: number;
  /** The same for the GPU-related interruptions only. */
  gpuOnlyHours: number;
} {
  const { gpus, days, unexpected } = LLAMA3_INTERRUPTIONS;
  const allCauses = ((days * 24) / unexpected) * gpus;
  return { allCausesHours: allCauses, gpuOnlyHours: allCauses / LLAMA3_GPU_SHARE };
}

/** Young's optimal checkpoint interval √(2·C·M), in the unit of its inputs. */
export function youngInterval(checkpointCost: number, mtbf: number): number {
  return Math.sqrt(2 * checkpointCost * mtbf);
}

export interface GoodputInput {
  gpus: number;
  /** Per-GPU mean time between interruptions, hours. */
  perGpuMtbfHours: number;
  /** Training time between checkpoints, minutes. */
  intervalMinutes: number;
  /** Time a checkpoint stops training, minutes (seconds for an asynchronous one). */
  checkpointMinutes: number;
  /** Time from a failure to training again: detect, restart, reload, minutes. */
  restartMinutes: number;
}

export interface Goodput {
  /** Mean time between interruptions of the whole job, minutes. */
  jobMtbfMinutes: number;
  /** Checkpoint overhead C / τ, the first-order term Young's optimum balances. */
  checkpointLoss: number;
  /** Fraction lost to failures: on average half an interval of work redone plus the restart, per MTBF. */
  failureLoss: number;
  /** 1 − both losses, clamped to [0, 1]: the first-order model Young's optimum minimises. */
  goodput: number;
}

/**
 * First-order goodput: a failure arrives on average every M = MTBF_gpu / G, wipes out on average
 * half a checkpoint interval of work and costs a restart R; each interval τ also pays C to write its
 * checkpoint. Valid while τ + R is well below M (the regime Young's formula assumes).
 */
export function goodput(i: GoodputInput): Goodput {
  const m = (i.perGpuMtbfHours * 60) / i.gpus;
  const tau = i.intervalMinutes;
  const checkpointLoss = i.checkpointMinutes / tau;
  const failureLoss = (tau / 2 + i.restartMinutes) / m;
  const g = Math.min(1, Math.max(0, 1 - checkpointLoss - failureLoss));
  return { jobMtbfMinutes: m, checkpointLoss, failureLoss, goodput: g };
}

/** Goodput at Young's interval for the given job. */
export function goodputAtYoung(i: Omit<GoodputInput, 'intervalMinutes'>): Goodput & {
  intervalMinutes: number;
} {
  const m = (i.perGpuMtbfHours * 60) / i.gpus;
  const intervalMinutes = youngInterval(i.checkpointMinutes, m);
  return { ...goodput({ ...i, intervalMinutes }), intervalMinutes };
}

/** What the goodput widget and chapter 9 start from. */
export const GOODPUT_DEFAULTS = {
  gpus: 16_384,
  intervalMinutes: 30,
  checkpointMinutes: 2,
  restartMinutes: 10,
} as const;

/** Why a goodput input cannot be computed, or undefined when it can. */
export function goodputInputError(i: GoodputInput): string | undefined {
  const n = [i.gpus, i.perGpuMtbfHours, i.intervalMinutes, i.checkpointMinutes, i.restartMinutes];
  if (!n.every(Number.isFinite)) return 'Enter a number in every field.';
  if (!Number.isInteger(i.gpus) || i.gpus < 1) return 'Enter a whole number of GPUs, at least 1.';
  if (i.intervalMinutes <= 0 || i.perGpuMtbfHours <= 0)
    return 'The checkpoint interval and the MTBF must be positive.';
  if (i.checkpointMinutes < 0 || i.restartMinutes < 0)
    return 'Checkpoint and restart times cannot be negative.';
  return undefined;
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const minutes = (m: number) =>
  m >= 120
    ? `${(m / 60).toFixed(1)} h`
    : m >= 1
      ? `${m.toFixed(1)} min`
      : `${(m * 60).toFixed(0)} s`;

/** Every output of the goodput widget, formatted as the page prints it. */
export function goodputOutputs(
  i: GoodputInput,
): Record<
  'mtbf' | 'goodput' | 'checkpoint' | 'failure' | 'young' | 'youngGoodput' | 'verdict',
  string
> {
  const g = goodput(i);
  const best = goodputAtYoung(i);
  const far = i.intervalMinutes + i.restartMinutes > g.jobMtbfMinutes / 2;
  return {
    mtbf: minutes(g.jobMtbfMinutes),
    goodput: pct(g.goodput),
    checkpoint: pct(g.checkpointLoss),
    failure: pct(g.failureLoss),
    young: minutes(best.intervalMinutes),
    youngGoodput: pct(best.goodput),
    verdict: far
      ? 'The interval plus the restart is over half the time between interruptions: the first-order model is optimistic here.'
      : i.intervalMinutes > 1.5 * best.intervalMinutes
        ? 'Checkpointing too rarely: each interruption throws away more work than the checkpoints cost.'
        : i.intervalMinutes < best.intervalMinutes / 1.5
          ? 'Checkpointing too often: writing checkpoints costs more than the work they save.'
          : "Close to Young's optimum.",
  };
}
