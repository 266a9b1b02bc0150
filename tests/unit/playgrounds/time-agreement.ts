import { expect } from 'vitest';
import type { RunRecord } from '../../../playground/cluster/run-record.ts';
import type { VirtualStepRank } from '../../../playground/contract/protocol.ts';
import {
  configurationMeans,
  configurationOf,
  describeMeans,
  formatShare,
} from '../../../playground/simulation/step-report.ts';

const ms = (s: number, digits = 1) => `${(s * 1000).toFixed(digits)} ms`;
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

type Steps = readonly VirtualStepRank[];
type Check = (lines: readonly string[], steps: Steps, record: RunRecord) => void;

/** Per time playground: what a rank prints, rebuilt from that rank's own step reports to the printed digit. */
const CHECKS: Record<string, Check> = {
  '03-straggler.ts': (lines, steps) => {
    const r = steps[0]!.rank;
    const compute = mean(steps.map((s) => s.computeSeconds));
    const wait = mean(steps.map((s) => s.exposedCommSeconds + s.peerWaitSeconds!));
    const peers = mean(steps.map((s) => s.peerWaitSeconds!));
    const step = mean(steps.map((s) => s.end - s.start));
    expect(lines).toContain(
      `rank ${r}: computes ${ms(compute)} per step, then waits ${ms(wait)} in the all-reduce (${ms(peers)} of it for slower ranks); step ${ms(step)}`,
    );
  },
  '04-communication-overhead.ts': (lines, steps) => {
    const r = steps[0]!.rank;
    const m = new RegExp(`^rank ${r}: forward ([\\d.]+) ms, backward ([\\d.]+) ms`).exec(
      lines.find((l) => l.startsWith(`rank ${r}: forward`)) ?? '',
    );
    expect(m).not.toBeNull();
    // Forward and backward each charged once: together they are the report's compute (steps 1–3, as printed).
    const compute = mean(steps.slice(1).map((s) => s.computeSeconds)) * 1000;
    expect(Math.abs(Number(m![1]) + Number(m![2]) - compute)).toBeLessThanOrEqual(0.011);
  },
  '04-ddp-overlap.ts': (lines, steps, record) => {
    for (const c of ['off', 'on']) {
      const mine = steps.filter((s) => s.configuration === `overlap ${c}`);
      const step = mean(mine.map((s) => s.end - s.start));
      const exposed = mean(mine.map((s) => s.exposedCommSeconds));
      const comm = mean(mine.map((s) => s.commSeconds));
      const share = formatShare(exposed / comm);
      if (steps[0]!.rank === 0) {
        expect(lines).toContain(
          `overlap ${c}:${c === 'on' ? '  ' : ' '}step ${ms(step)}, exposed communication ${ms(exposed)} of ${ms(comm)} (${share})`,
        );
        // The report's mean line for the configuration prints the same share.
        const report = describeMeans(record.virtualSteps, (s) => ms(s)).find((l) =>
          l.startsWith(`overlap ${c}: mean`),
        );
        expect(report).toContain(`exposed communication ${ms(exposed)} (${share} of it)`);
      }
      // With PyTorch's 25 MiB buckets under a 7B charge, overlap hides most of the communication.
      if (c === 'on') expect(exposed / comm).toBeLessThan(0.2);
    }
  },
  '04-ddp-vs-zero3.ts': (lines, steps) => {
    const [ddp, zero3] = ['DDP', 'ZeRO-3'].map((c) =>
      mean(steps.filter((s) => s.configuration === c).map((s) => s.end - s.start)),
    );
    expect(lines.join('\n')).toContain(`DDP step ${ms(ddp!)}, ZeRO-3 step ${ms(zero3!)}`);
  },
  '06-fsdp-prefetch.ts': (lines, steps, record) => {
    const last = (c: string) => steps.filter((s) => s.configuration === c).at(-1)!;
    const [on, off] = [last('prefetch on'), last('prefetch off')];
    for (const [name, s] of [
      ['on: ', on],
      ['off:', off],
    ] as const)
      expect(lines).toContain(
        `prefetch ${name} step ${ms(s.end - s.start)}, exposed communication ${ms(s.exposedCommSeconds)}`,
      );
    // Prefetch moves when the all-gathers start, not what they carry or compute.
    expect(on.exposedCommSeconds).toBeLessThan(0.1 * off.exposedCommSeconds);
    expect(on.commSeconds).toBeCloseTo(off.commSeconds, 9);
    expect(on.computeSeconds).toBeCloseTo(off.computeSeconds, 9);
    expect(on.chargedAs!.sizes).toMatch(/^33 FSDP units/);
    // The snapshots and the single-device reference ran uncharged: nothing after the last step.
    const mine = record.virtualTrace.filter((e) => e.rank === steps[0]!.rank);
    expect(Math.max(...mine.map((e) => e.end))).toBe(steps.at(-1)!.end);
  },
};

/** The time playgrounds whose printed times are checked against their step report. */
export const TIME_AGREEMENT_PLAYGROUNDS = Object.keys(CHECKS);

/**
 * A simulated run's step report agrees with itself and with what the program printed: on every rank and
 * step exposed communication ≤ communication and step time = compute + exposed + waiting for peers; means
 * never mix configurations; and each time playground's lines equal its own step reports.
 */
export function expectTimeAgreement(src: string, record: RunRecord): void {
  record.virtualStepsByRank.forEach((steps, rank) => {
    for (const s of steps) {
      const at = `rank ${rank} step ${s.step}`;
      expect(s.exposedCommSeconds, at).toBeLessThanOrEqual(s.commSeconds + 1e-12);
      expect(s.computeSeconds + s.exposedCommSeconds + (s.peerWaitSeconds ?? 0), at).toBeCloseTo(
        s.end - s.start,
        9,
      );
    }
    const check = CHECKS[src];
    if (check && steps.length)
      check(
        record.ranks[rank]!.lines.map((l) => l.text),
        steps,
        record,
      );
  });
  const steps = record.virtualSteps;
  for (const m of configurationMeans(steps))
    for (const k of m.steps) expect(configurationOf(steps[k]!)).toBe(m.configuration);
}
