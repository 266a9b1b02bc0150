import { describe, expect, it } from 'vitest';
import { runProgram } from '../../../playground/cluster/node.ts';
import type { SimulatedClusterOptions } from '../../../playground/contract/protocol.ts';
import { readProgram } from '../../playground-manifest.ts';

/**
 * The charged job is the model: chapter 4's overlap playground and chapter 6's prefetch playground,
 * charged as Llama 2 7B with PyTorch's defaults, run in real rank workers on a simulated cluster.
 * Cost: three 4-rank runs of about 2–6 s each on an idle 2-core machine.
 */
async function simulate(src: string, cluster: SimulatedClusterOptions) {
  const { record } = await runProgram({
    code: readProgram(src),
    worldSize: cluster.nodes * cluster.gpusPerNode,
    backend: 'cpu',
    timeoutMs: 170_000,
    cluster,
  });
  const failures = record.ranks.flatMap((r) => record.errors(r.rank).map((l) => l.text));
  expect(failures).toEqual([]);
  const lines = record.ranks[0]!.lines.map((l) => l.text);
  return { record, lines };
}

const ms = (s: number) => `${(s * 1000).toFixed(1)} ms`;

describe('DDP overlap charged as Llama 2 7B with 25 MiB buckets', { timeout: 300_000 }, () => {
  for (const preset of ['a100-hdr', 'h100-ndr'] as const)
    it(`${preset}: most communication hides behind backward, and the printed share is the report's`, async () => {
      const { record, lines } = await simulate('04-ddp-overlap.ts', {
        preset,
        nodes: 1,
        gpusPerNode: 4,
      });
      const steps = record.virtualStepsByRank[0]!.filter((s) => s.configuration === 'overlap on');
      expect(steps).toHaveLength(3);
      const mean = (f: (s: (typeof steps)[number]) => number) =>
        steps.reduce((a, s) => a + f(s), 0) / steps.length;
      const exposed = mean((s) => s.exposedCommSeconds);
      const comm = mean((s) => s.commSeconds);
      expect(exposed / comm).toBeLessThan(0.2);
      expect(steps[0]!.chargedAs).toMatchObject({ model: 'llama-2-7b' });
      expect(steps[0]!.chargedAs!.sizes).toMatch(
        /^226 DDP bucket all-reduces \(1 MiB first, 25 MiB cap/,
      );
      const share = `exposed communication ${ms(exposed)} of ${ms(comm)} (${((100 * exposed) / comm).toFixed(0)} %)`;
      expect(lines.find((l) => l.startsWith('overlap on:'))).toContain(share);
      // The comm stream carries the charged buckets, labelled by index.
      const spans = record.virtualTrace.filter(
        (e) => e.rank === 0 && e.lane === 'comm' && e.configuration === 'overlap on',
      );
      expect(spans.filter((e) => /^bucket \d+ all-reduce$/.test(e.name))).toHaveLength(3 * 226);
    });
});

describe('FSDP prefetch charged as Llama 2 7B, fully_shard per block', { timeout: 300_000 }, () => {
  it('prefetch hides the all-gathers, and the reference checks add no virtual time', async () => {
    const { record, lines } = await simulate('06-fsdp-prefetch.ts', {
      preset: 'a100-hdr',
      nodes: 1,
      gpusPerNode: 4,
    });
    const steps = record.virtualStepsByRank[0]!;
    const of = (c: string) => steps.filter((s) => s.configuration === c);
    const [on, off] = [of('prefetch on').at(-1)!, of('prefetch off').at(-1)!];
    expect(on.exposedCommSeconds).toBeLessThan(0.1 * off.exposedCommSeconds);
    expect(on.commSeconds).toBeCloseTo(off.commSeconds, 9);
    expect(on.chargedAs!.sizes).toMatch(/^33 FSDP units/);
    expect(lines).toContain(
      `prefetch on:  step ${ms(on.end - on.start)}, exposed communication ${ms(on.exposedCommSeconds)}`,
    );
    // Nothing after the last step: the snapshots and the single-device reference ran uncharged.
    const last = Math.max(...record.virtualTrace.map((e) => e.end));
    expect(last).toBe(steps.at(-1)!.end);
    expect(steps.at(-1)!.start).toBe(steps.at(-2)!.end);
  });
});
