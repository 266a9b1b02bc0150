import { describe, expect, it } from 'vitest';
import { runProgram } from '../../../playground/cluster/node.ts';
import type { SimulatedClusterOptions } from '../../../playground/contract/protocol.ts';
import { describeMeans, formatShare } from '../../../playground/simulation/step-report.ts';
import { readProgram } from '../../playground-manifest.ts';

/**
 * The charged job is the model: chapter 4's overlap playground and chapter 6's prefetch playground,
 * charged as Llama 2 7B with PyTorch's defaults, run in real rank workers on a simulated cluster.
 * Cost: one 4-rank run of about 5 s on an idle 2-core machine; the chapters' own embeds (a100-hdr, and
 * chapter 6's prefetch playground) are checked by chapter-playgrounds.test.ts through time-agreement.ts.
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
  // a100-hdr is the chapter's embed: chapter-playgrounds.test.ts runs it with the same checks (time-agreement.ts).
  for (const preset of ['h100-ndr'] as const)
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
      const share = `exposed communication ${ms(exposed)} of ${ms(comm)} (${formatShare(exposed / comm)})`;
      expect(lines.find((l) => l.startsWith('overlap on:'))).toContain(share);
      // … and the report's own line for the configuration prints the same share.
      const reportLine = describeMeans(record.virtualSteps, ms).find((l) =>
        l.startsWith('overlap on: mean'),
      );
      expect(reportLine).toContain(
        `exposed communication ${ms(exposed)} (${formatShare(exposed / comm)} of it)`,
      );
      // The comm stream carries the charged buckets, labelled by index.
      const spans = record.virtualTrace.filter(
        (e) => e.rank === 0 && e.lane === 'comm' && e.configuration === 'overlap on',
      );
      expect(spans.filter((e) => /^bucket \d+ all-reduce$/.test(e.name))).toHaveLength(3 * 226);
    });
});
