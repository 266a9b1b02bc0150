/**
 * What the step report's figures mean and how its means are taken: defined once, printed under the CLI's
 * report and the page's, and quoted by the chapters. Pure functions of the steps a run reported.
 */
import type { VirtualStepRank, VirtualStepReport } from '../contract/protocol.ts';

/** What the report needs of a step: its world figures and each rank's configuration and peer wait. */
export type StepFigures = Omit<VirtualStepReport, 'ranks'> & {
  ranks: readonly Pick<VirtualStepRank, 'configuration' | 'peerWaitSeconds'>[];
};

/** The report's figures, in the order it prints them, each with its one definition. */
export const STEP_FIGURES = [
  {
    figure: 'step time',
    definition:
      'from the end of the previous step to the end of this one on the slowest rank; on every rank it is compute + exposed communication + waiting for peers',
  },
  {
    figure: 'compute',
    definition:
      'kernel time on the compute stream (forward, backward and optimizer, each charged once, after any slowdown)',
  },
  {
    figure: 'communication',
    definition:
      'the modelled duration of every collective on the communication stream, from the moment all its members arrived',
  },
  {
    figure: 'exposed communication',
    definition:
      'time the compute stream waited while this rank’s collectives were running: the communication overlap did not hide, never more than communication',
  },
  {
    figure: 'waiting for peers',
    definition:
      'time the compute stream waited for ranks that had not reached a collective yet (a straggler): idle, not communication',
  },
  {
    figure: 'MFU',
    definition:
      'model FLOPs (6 × parameters × tokens when charged as a model, else the matmul FLOPs run) over GPUs × peak FLOP/s × step time',
  },
] as const;

/** "figure: definition" lines, as printed under every report. */
export function stepDefinitions(): string[] {
  return STEP_FIGURES.map((f) => `${f.figure}: ${f.definition}`);
}

/** The configuration a step ran under (what the program named with dist.simulation.configuration), or null. */
export function configurationOf(step: Pick<StepFigures, 'ranks'>): string | null {
  return step.ranks[0]?.configuration ?? null;
}

/** Waiting for peers in a step: the slowest rank's, as every part of the report. */
export function peerWaitOf(step: Pick<StepFigures, 'ranks'>): number {
  return Math.max(0, ...step.ranks.map((r) => r.peerWaitSeconds ?? 0));
}

export interface ConfigurationMean {
  /** null when the program named none. */
  configuration: string | null;
  /** The steps the mean is over. */
  steps: number[];
  seconds: number;
  computeSeconds: number;
  commSeconds: number;
  exposedCommSeconds: number;
  peerWaitSeconds: number;
  mfu: number | null;
}

/**
 * Means per configuration, never across two. Within a configuration that holds the run's first step
 * and others, the first step is left out: it holds one-off work (the model's broadcast, DDP's single
 * bucket before the rebuild).
 */
export function configurationMeans(steps: readonly StepFigures[]): ConfigurationMean[] {
  const groups = new Map<string | null, StepFigures[]>();
  for (const s of steps) {
    const c = configurationOf(s);
    groups.set(c, [...(groups.get(c) ?? []), s]);
  }
  return [...groups].map(([configuration, all]) => {
    const kept = all.length > 1 && all[0]!.step === 0 ? all.slice(1) : all;
    const mean = (f: (s: StepFigures) => number) =>
      kept.reduce((a, s) => a + f(s), 0) / kept.length;
    const mfus = kept.map((s) => s.mfu).filter((m): m is number => m !== null);
    return {
      configuration,
      steps: kept.map((s) => s.step),
      seconds: mean((s) => s.seconds),
      computeSeconds: mean((s) => s.computeSeconds),
      commSeconds: mean((s) => s.commSeconds),
      exposedCommSeconds: mean((s) => s.exposedCommSeconds),
      peerWaitSeconds: mean(peerWaitOf),
      mfu: mfus.length ? mfus.reduce((a, b) => a + b, 0) / mfus.length : null,
    };
  });
}

/** "steps 1–3", "step 4", "steps 1, 3": how a mean names the steps it is over. */
export function describeSteps(steps: readonly number[]): string {
  if (steps.length === 1) return `step ${steps[0]}`;
  const contiguous = steps.every((s, i) => i === 0 || s === steps[i - 1]! + 1);
  return contiguous ? `steps ${steps[0]}–${steps.at(-1)}` : `steps ${steps.join(', ')}`;
}

/** A share as the report prints it (programs print theirs the same way): 4.6 %, 37 %. */
export function formatShare(x: number): string {
  return `${(x * 100).toFixed(x < 0.1 ? 1 : 0)} %`;
}

/** One line per configuration: its name (or "Mean"), its steps and each figure, `format` giving the times. */
export function describeMeans(
  steps: readonly StepFigures[],
  format: (seconds: number) => string,
): string[] {
  return configurationMeans(steps).map((m) => {
    const name = m.configuration === null ? 'Mean' : `${m.configuration}: mean`;
    const share =
      m.commSeconds > 0 ? ` (${formatShare(m.exposedCommSeconds / m.commSeconds)} of it)` : '';
    return (
      `${name} of ${describeSteps(m.steps)}: step time ${format(m.seconds)}, compute ${format(m.computeSeconds)}, ` +
      `communication ${format(m.commSeconds)}, exposed communication ${format(m.exposedCommSeconds)}${share}` +
      (m.peerWaitSeconds > 0 ? `, waiting for peers ${format(m.peerWaitSeconds)}` : '') +
      (m.mfu === null ? '' : `, MFU ${(m.mfu * 100).toFixed(1)} %`)
    );
  });
}
