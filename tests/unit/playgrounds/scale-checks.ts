import { expect } from 'vitest';
import type { RunRecord } from '../../../playground/cluster/run-record.ts';
import {
  chargedBytes,
  SCALE_STEP,
  scaleStepRow,
  toyUnitElements,
} from '../../../src/lib/figures/scale-step.ts';

type Check = (record: RunRecord, world: number) => void;

const key = (p: { algorithm?: string; protocol?: string; seconds: number }) =>
  `${p.algorithm}/${p.protocol} ${(p.seconds * 1e6).toFixed(3)} µs`;

/**
 * Checks of the scale playgrounds against their run, beyond their page's lines: what the chapter's tables
 * say the cluster model picks is what the run's timeline shows.
 */
export const SCALE_CHECKS: Record<string, Check> = {
  '09-scale-ddp-fsdp.ts': (record, world) => {
    const sizes = [...SCALE_STEP.sizes.filter((k) => k < world), world];
    const unit = chargedBytes(toyUnitElements);
    const seen = (collective: string) =>
      new Set(
        record.virtualTrace
          .filter(
            (e) =>
              e.kind === 'collective' &&
              e.collective === collective &&
              Math.abs(e.bytes! - unit) < 1e-6 * unit,
          )
          .map((e) => key({ ...e, seconds: e.end - e.start })),
      );
    // Every unit's collective ran with the algorithm, protocol and time the chapter's table gives its group size.
    const expected = (pick: (r: ReturnType<typeof scaleStepRow>) => Parameters<typeof key>[0]) =>
      new Set(sizes.map((k) => key(pick(scaleStepRow(k)))));
    expect(seen('all-reduce')).toEqual(expected((r) => r.ddpUnit));
    expect(seen('all-gather')).toEqual(expected((r) => r.allGather));
    expect(seen('reduce-scatter')).toEqual(expected((r) => r.reduceScatter));
  },
};
