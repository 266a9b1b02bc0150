import type { RunRecord } from '../cluster/run-record.ts';
import { describeShape, resolveCluster } from '../simulation/index.ts';
import {
  configurationOf,
  describeMeans,
  describeSteps,
  peerWaitOf,
  stepDefinitions,
} from '../simulation/step-report.ts';

const ms = (s: number) => (s * 1000).toFixed(3);

/**
 * What the CLI prints after a run: the virtual step report of a simulated run (the same numbers the
 * page shows), or one line saying the run was real time on this machine.
 */
export function timeReport(record: RunRecord): string[] {
  const result = record.result;
  if (!record.cluster)
    return [
      `real time on this machine: ${Math.round(result?.durationMs ?? 0)} ms (not a GPU cluster; --cluster <preset> runs in virtual time)`,
    ];
  const c = record.cluster;
  const steps = record.virtualSteps;
  const lines = [
    `virtual time on ${describeShape(resolveCluster(c).shape)} (the cluster model, not this machine):`,
  ];
  const charged = steps[0]?.ranks[0]?.chargedAs;
  if (charged)
    lines.push(
      `charged as ${charged.model ? `${charged.model}, ` : ''}${charged.params.toExponential(2)} parameters, ${charged.tokensPerStep} tokens per step`,
    );
  // Which collective sizes were charged, and in which steps (DDP's buckets change after its rebuild).
  const sizes = new Map<string, number[]>();
  for (const s of steps) {
    const text = s.ranks[0]?.chargedAs?.sizes;
    if (text) sizes.set(text, [...(sizes.get(text) ?? []), s.step]);
  }
  for (const [text, at] of sizes) lines.push(`charged sizes, ${describeSteps(at)}: ${text}`);
  if (steps.length === 0) {
    lines.push('no step ended (call dist.simulation.endStep(), or a trainer’s step())');
    return lines;
  }
  lines.push(
    'step  time (ms)  compute (ms)  comm (ms)  exposed comm (ms)  peer wait (ms)       MFU  configuration',
  );
  for (const s of steps)
    lines.push(
      [
        String(s.step).padStart(4),
        ms(s.seconds).padStart(10),
        ms(s.computeSeconds).padStart(13),
        ms(s.commSeconds).padStart(10),
        ms(s.exposedCommSeconds).padStart(18),
        ms(peerWaitOf(s)).padStart(15),
        (s.mfu === null ? '–' : `${(s.mfu * 100).toFixed(1)} %`).padStart(9),
        ` ${configurationOf(s) ?? ''}`,
      ]
        .join(' ')
        .trimEnd(),
    );
  lines.push(...describeMeans(steps, (s) => `${ms(s)} ms`));
  lines.push('Each figure is the slowest rank’s:', ...stepDefinitions().map((d) => `  ${d}`));
  return lines;
}
