import { beforeAll, describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../../playground/cluster/protocol.ts';
import type { TimelineSpan } from '../../../playground/parallel/layerwise-backward.ts';
import { PRELUDE, runRanksTraced } from './run-ranks.ts';

interface Rec {
  overlap: boolean;
  buckets: number[][];
  timeline: TimelineSpan[];
  window: [number, number];
}

// 6 Linear layers of 64×64: with 16 KB buckets, one bucket per layer.
const program = `${PRELUDE}
const rng = new ranks.Lcg(7 + dist.rank);
const x = tf.tensor2d(rng.fill(8 * 64), [8, 64]);
const y = tf.tensor2d(rng.fill(8 * 64), [8, 64]);
for (const overlap of [true, false]) {
  const ddp = await ranks.DDP(ranks.mlp(Array(7).fill(64), { seed: 3 }), { optimizer: new ranks.SGD({ lr: 0.01 }), bucketCapMB: 1 / 64, firstBucketCapMB: 1 / 64, overlap });
  await ddp.trainStep(x, y);
  ddp.clearTimeline();
  await ddp.backward(x, y);
  await ddp.step();
  const spans = ddp.timeline;
  report({ overlap, buckets: ddp.buckets.map((b) => b.params), timeline: spans, window: [Math.min(...spans.map((s) => s.start)), Math.max(...spans.map((s) => s.end))] });
}
`;

describe('DDP timeline on 2 ranks', () => {
  let recs: Rec[] = [];
  let trace: TraceEvent[] = [];
  beforeAll(async () => {
    const run = await runRanksTraced<Rec>(program, 2);
    recs = run.records[0]!;
    trace = run.traces[0]!;
  }, 240_000);

  it('buckets hold parameters in reverse registration order, one layer each', () => {
    expect(recs[0]!.buckets).toEqual([
      [11, 10],
      [9, 8],
      [7, 6],
      [5, 4],
      [3, 2],
      [1, 0],
    ]);
  });

  it("with overlap, each bucket all-reduce starts right after its layer's backward, before the backward pass ends", () => {
    const t = recs.find((r) => r.overlap)!.timeline;
    const backward = t.filter((s) => s.kind === 'backward');
    const lastBackwardEnd = Math.max(...backward.map((s) => s.end));
    const allReduces = t.filter((s) => s.kind === 'allReduce' && s.label.startsWith('bucket'));
    expect(allReduces).toHaveLength(6);
    expect(allReduces.filter((s) => s.start < lastBackwardEnd).length).toBeGreaterThanOrEqual(5);
    // Bucket 0 holds the output layer, so it is launched right after that layer's backward.
    const outputLayer = backward.find((s) => s.label === '10.Linear')!;
    expect(allReduces[0]!.start).toBeGreaterThanOrEqual(outputLayer.end);
    expect(allReduces[0]!.start).toBeLessThan(backward.find((s) => s.label === '8.Linear')!.start);
  });

  it("the page's trace gets the compute spans on the runtime's clock, and shows bucket all-reduces running during the backward", () => {
    const rec = recs.find((r) => r.overlap)!;
    const inStep = trace.filter((e) => e.start >= rec.window[0] && e.end <= rec.window[1]);
    const backward = inStep.filter((e) => e.kind === 'compute' && e.label?.startsWith('backward '));
    expect(backward.map((e) => e.label)).toContain('backward 10.Linear');
    expect(inStep.some((e) => e.kind === 'compute' && e.label === 'optimizer step')).toBe(true);
    // Every recorded compute span is on the trace, with the same times: one clock for compute and collectives.
    for (const s of rec.timeline.filter((s) => s.kind === 'backward'))
      expect(backward).toContainEqual(
        expect.objectContaining({ label: `backward ${s.label}`, start: s.start, end: s.end }),
      );
    const lastBackwardEnd = Math.max(...backward.map((e) => e.end));
    const collectiveSteps = inStep.filter((e) => e.kind === 'allReduce');
    expect(collectiveSteps.filter((e) => e.end <= lastBackwardEnd).length).toBeGreaterThan(0);
  });

  it('without overlap, every all-reduce starts after the whole backward', () => {
    const t = recs.find((r) => !r.overlap)!.timeline;
    const lastBackwardEnd = Math.max(...t.filter((s) => s.kind === 'backward').map((s) => s.end));
    for (const s of t.filter((s) => s.kind === 'allReduce'))
      expect(s.start).toBeGreaterThanOrEqual(lastBackwardEnd);
  });
});
